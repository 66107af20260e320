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

  /** The widest line of the comparison (a terminal of 100 columns; longer text is cut with "..."). */
  public static final int MAX_WIDTH = 100;
  /** Widest a figure's path and a value are shown. */
  static final int MAX_PATH_WIDTH = 40;
  static final int MAX_VALUE_WIDTH = 18;

  /**
   * The rows whose path lies under one of {@code prefixes} (a section as {@code commits} or {@code log}, or any path
   * prefix as {@code commits.latencyUs}), in order; all of them when none is given.
   */
  public static List<Row> only(List<Row> rows, List<String> prefixes) {
    if (prefixes.isEmpty()) return rows;
    List<Row> out = new ArrayList<>();
    for (Row r : rows) {
      for (String p : prefixes) {
        String path = r.path();
        if (path.equals(p) || path.startsWith(p + ".") || path.startsWith(p + "[")) {
          out.add(r);
          break;
        }
      }
    }
    return out;
  }

  /** The top-level sections of the rows (commits, log, devices, ...), in order. */
  public static List<String> sections(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      String s = r.path().split("[.\\[]", 2)[0];
      if (!out.contains(s)) out.add(s);
    }
    return out;
  }

  /** The text of the comparison: a header naming A and B, one line per figure, and a count of differences. */
  public static List<String> lines(String nameA, Map<String, ?> a, String nameB, Map<String, ?> b) {
    return lines(nameA, nameB, rows(a, b));
  }

  /**
   * The text of these rows: which run is A and which B, one line per figure (path, A, B, B - A) within
   * {@link #MAX_WIDTH} columns, and a count of differences.
   */
  public static List<String> lines(String nameA, String nameB, List<Row> rows) {
    int wp = "FIGURE".length(), wa = 1, wb = 1;
    for (Row r : rows) {
      wp = Math.max(wp, Math.min(MAX_PATH_WIDTH, r.path().length()));
      wa = Math.max(wa, text(r.a()).length());
      wb = Math.max(wb, text(r.b()).length());
    }
    int wd = MAX_WIDTH - wp - wa - wb - 6;
    String fmt = "%-" + wp + "s  %-" + wa + "s  %-" + wb + "s  %s";
    List<String> out = new ArrayList<>();
    out.add("A  " + nameA);
    out.add("B  " + nameB);
    out.add(String.format(Locale.ROOT, fmt, "FIGURE", "A", "B", "B - A").stripTrailing());
    long differing = 0;
    for (Row r : rows) {
      if (r.differs()) differing++;
      out.add(String.format(Locale.ROOT, fmt, cut(r.path(), MAX_PATH_WIDTH), text(r.a()), text(r.b()),
          cut(r.difference(), wd)).stripTrailing());
    }
    out.add(differing == 0 ? "no differences" : differing + " of " + rows.size() + " figures differ");
    return out;
  }

  /** The rows as JSON-ready values: per figure its path, both values, and B - A (absolute and in %) for numbers. */
  public static Map<String, Object> json(String nameA, String nameB, List<Row> rows) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("a", nameA);
    m.put("b", nameB);
    List<Map<String, Object>> figures = new ArrayList<>();
    long differing = 0;
    for (Row r : rows) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("path", r.path());
      f.put("a", r.a());
      f.put("b", r.b());
      f.put("differs", r.differs());
      if (r.differs()) differing++;
      if (r.a() instanceof Number x && r.b() instanceof Number y) {
        double d = y.doubleValue() - x.doubleValue();
        f.put("difference", d);
        f.put("percent", x.doubleValue() == 0 ? null : d / x.doubleValue() * 100);
      }
      figures.add(f);
    }
    m.put("figures", figures);
    m.put("differing", differing);
    return m;
  }

  private static String text(Object v) {
    return cut(v == null ? "-" : String.valueOf(v), MAX_VALUE_WIDTH);
  }

  private static String cut(String s, int width) {
    return s.length() <= width ? s : s.substring(0, Math.max(0, width - 3)) + "...";
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
