package io.tlogsim.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How tlogsim writes figures for people: thousands separators, latencies in the unit that reads best, plural forms,
 * and lines of at most {@value #WIDTH} columns ("label" in a 13-column margin, then comma-separated items).
 */
public final class Text {
  public static final int WIDTH = 80;
  /** Width of the label column ("commits      "). */
  public static final int MARGIN = 13;

  private Text() {}

  /** 1,347,777 */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** "1 commit", "2 commits", "1,000 sessions": a count and a noun that takes an s. */
  public static String plural(long n, String noun) {
    return plural(n, noun, noun + "s");
  }

  public static String plural(long n, String singular, String plural) {
    return count(n) + " " + (n == 1 ? singular : plural);
  }

  /** A rate or other large figure, no decimals: 673,889 */
  public static String whole(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  /** A number as short as it is exact (2, 0.05, 1.5), for parameters such as simulated seconds. */
  public static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return count((long) v);
    return String.valueOf(v);
  }

  /** A parameter's value as a user would type it: 2 rather than 2.0, no thousands separators. */
  public static String plain(Object value) {
    if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) return String.valueOf(d.longValue());
    return String.valueOf(value);
  }

  /** A latency given in us, in us, ms or s, 4 significant digits or more: 483.5 us, 127.26 ms, 1.508 s, 1,234.6 s */
  public static String latencyUs(double us) {
    double a = Math.abs(us);
    if (a < 1) return String.format(Locale.ROOT, "%.3f us", us);
    if (a < 1_000) return String.format(Locale.ROOT, "%.1f us", us);
    if (a < 1_000_000) return String.format(Locale.ROOT, a < 100_000 ? "%.3f ms" : "%.2f ms", us / 1e3);
    double s = us / 1e6;
    return String.format(Locale.ROOT, Math.abs(s) < 1_000 ? "%.3f s" : "%,.1f s", s);
  }

  /**
   * The label in the margin, then the items joined by ", ", wrapped under the margin so that no line passes
   * {@value #WIDTH} columns (an item longer than a line gets a line of its own).
   */
  public static List<String> lines(String label, String... items) {
    return lines(label, List.of(items));
  }

  public static List<String> lines(String label, List<String> items) {
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) tokens.add(items.get(i) + (i < items.size() - 1 ? "," : ""));
    return wrap(label, tokens);
  }

  /** Words wrapped to {@value #WIDTH} columns under the margin, the label in front of the first line. */
  public static List<String> paragraph(String label, String text) {
    return wrap(label, List.of(text.strip().split("\\s+")));
  }

  private static List<String> wrap(String label, List<String> tokens) {
    List<String> out = new ArrayList<>();
    StringBuilder line = new StringBuilder(pad(label));
    boolean empty = true;
    for (String token : tokens) {
      if (!empty && line.length() + 1 + token.length() > WIDTH) {
        out.add(line.toString());
        line = new StringBuilder(" ".repeat(MARGIN));
        empty = true;
      }
      if (!empty) line.append(' ');
      line.append(token);
      empty = false;
    }
    out.add(line.toString().stripTrailing());
    return out;
  }

  private static String pad(String label) {
    return label.length() >= MARGIN ? label + " " : label + " ".repeat(MARGIN - label.length());
  }
}
