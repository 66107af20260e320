package io.tlogsim.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two summaries side by side ({@code tlogsim compare}): every figure by its summary.json path (e.g.
 * {@code commits.latencyUs.p99}, {@code backups[0].seconds}), with the difference where they differ.
 */
public final class SummaryComparison {
  private SummaryComparison() {}

  /** One figure of both summaries; a side is null where that summary lacks the path. */
  public record Row(String path, Object a, Object b) {
    public boolean differs() {
      if (a instanceof Number x && b instanceof Number y) return Double.compare(x.doubleValue(), y.doubleValue()) != 0;
      return a == null ? b != null : !a.equals(b);
    }

    /** "+12.5 (+3.10%)" for numbers, "only in A"/"only in B", "differs" for other values, "" when equal. */
    public String difference() {
      if (!differs()) return "";
      if (a == null) return "only in B";
      if (b == null) return "only in A";
      if (a instanceof Number x && b instanceof Number y) {
        double d = y.doubleValue() - x.doubleValue();
        String abs = d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format(Locale.ROOT, "%+,d", (long) d)
            : Math.abs(d) >= 0.001 ? String.format(Locale.ROOT, "%+,.3f", d).replaceAll("0+$", "")
            : String.format(Locale.ROOT, "%+.3g", d);
        return x.doubleValue() == 0 ? abs : abs + String.format(Locale.ROOT, " (%+.2f%%)", d / x.doubleValue() * 100);
      }
      return "differs";
    }
  }

  /** The rows of both summaries: A's paths in A's order, then those only B has. */
  public static List<Row> rows(Map<String, ?> a, Map<String, ?> b) {
    Map<String, Object> fa = flatten(a);
    Map<String, Object> fb = flatten(b);
    List<Row> rows = new ArrayList<>();
    fa.forEach((path, v) -> rows.add(new Row(path, v, fb.get(path))));
    fb.forEach((path, v) -> {
      if (!fa.containsKey(path)) rows.add(new Row(path, null, v));
    });
    return rows;
  }

  /** Widest a value is shown; longer text (a reference's source) is cut with "...". */
  static final int MAX_VALUE_WIDTH = 40;

  /** The text of the comparison: a header naming A and B, one line per figure, and a count of differences. */
  public static List<String> lines(String nameA, Map<String, ?> a, String nameB, Map<String, ?> b) {
    List<Row> rows = rows(a, b);
    int wp = "FIGURE".length(), wa = nameA.length() + 4, wb = nameB.length() + 4;
    for (Row r : rows) {
      wp = Math.max(wp, r.path().length());
      wa = Math.max(wa, text(r.a()).length());
      wb = Math.max(wb, text(r.b()).length());
    }
    String fmt = "%-" + wp + "s  %-" + wa + "s  %-" + wb + "s  %s";
    List<String> out = new ArrayList<>();
    out.add(String.format(Locale.ROOT, fmt, "FIGURE", "A: " + nameA, "B: " + nameB, "B - A").stripTrailing());
    long differing = 0;
    for (Row r : rows) {
      if (r.differs()) differing++;
      out.add(String.format(Locale.ROOT, fmt, r.path(), text(r.a()), text(r.b()), r.difference()).stripTrailing());
    }
    out.add(differing == 0 ? "no differences" : differing + " of " + rows.size() + " figures differ");
    return out;
  }

  private static String text(Object v) {
    String s = v == null ? "-" : String.valueOf(v);
    return s.length() <= MAX_VALUE_WIDTH ? s : s.substring(0, MAX_VALUE_WIDTH - 3) + "...";
  }

  /** Nested maps and lists to path -> leaf value, in order. */
  static Map<String, Object> flatten(Map<String, ?> summary) {
    Map<String, Object> out = new LinkedHashMap<>();
    summary.forEach((k, v) -> flatten(k, v, out));
    return out;
  }

  private static void flatten(String path, Object v, Map<String, Object> out) {
    if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) out.put(path, "{}");
      m.forEach((k, x) -> flatten(path + "." + k, x, out));
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) out.put(path, "[]");
      for (int i = 0; i < l.size(); i++) flatten(path + "[" + i + "]", l.get(i), out);
    } else {
      out.put(path, v);
    }
  }
}
