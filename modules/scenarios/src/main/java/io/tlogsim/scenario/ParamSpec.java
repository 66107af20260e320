package io.tlogsim.scenario;

import java.util.List;
import java.util.Locale;

/**
 * One parameter a scenario kind accepts: its key, type, allowed range or values, unit and what it means. Defaults are
 * not here but in config (application.conf, tlogsim.kinds.KIND), each with its source in REFERENCE.md or BENCH.md.
 *
 * @param unit what a value counts ("us", "bytes", "sessions"); empty when it has none. The factories take it from the
 *     key's suffix (thinkMeanUs: us, recordBytes: bytes, deviceMBps: MB/s, simulatedSeconds: s) unless
 *     {@link #withUnit} says otherwise.
 */
public record ParamSpec(String key, Type type, double min, double max, List<String> allowed, String description,
    String unit) {

  public enum Type {
    INT("integer"), LONG("integer"), DOUBLE("number"), BOOLEAN("boolean"), CHOICE("choice"), SCRIPT("script");

    /** The word users read in {@code tlogsim params}. */
    public final String word;

    Type(String word) {
      this.word = word;
    }
  }

  /** Key suffixes that name a unit, longest first where one ends another. */
  private static final List<String[]> UNIT_SUFFIXES = List.of(
      new String[] {"MBps", "MB/s"}, new String[] {"Seconds", "s"}, new String[] {"Us", "us"},
      new String[] {"Ns", "ns"}, new String[] {"Ms", "ms"}, new String[] {"Bytes", "bytes"},
      new String[] {"Percent", "%"}, new String[] {"GiB", "GiB"}, new String[] {"MiB", "MiB"},
      new String[] {"KiB", "KiB"});

  public static ParamSpec integer(String key, long min, long max, String description) {
    return new ParamSpec(key, Type.INT, min, max, List.of(), description, unitOf(key));
  }

  public static ParamSpec longValue(String key, long min, long max, String description) {
    return new ParamSpec(key, Type.LONG, min, max, List.of(), description, unitOf(key));
  }

  public static ParamSpec decimal(String key, double min, double max, String description) {
    return new ParamSpec(key, Type.DOUBLE, min, max, List.of(), description, unitOf(key));
  }

  public static ParamSpec choice(String key, List<String> allowed, String description) {
    return new ParamSpec(key, Type.CHOICE, 0, 0, List.copyOf(allowed), description, "");
  }

  public static ParamSpec bool(String key, String description) {
    return new ParamSpec(key, Type.BOOLEAN, 0, 0, List.of(), description, "");
  }

  /** The same parameter with another unit ("sessions" for a count the key's name does not say). */
  public ParamSpec withUnit(String newUnit) {
    return new ParamSpec(key, type, min, max, allowed, description, newUnit);
  }

  /** The unit a key's camel-case suffix names, or "". */
  static String unitOf(String key) {
    for (String[] s : UNIT_SUFFIXES) {
      if (key.endsWith(s[0]) && key.length() > s[0].length()) return s[1];
    }
    return "";
  }

  /** A session script: a list of steps ({@link Script}). */
  public static ParamSpec script(String key, String description) {
    return new ParamSpec(key, Type.SCRIPT, 0, 0, List.of(), description, "");
  }

  /** "an integer from 1 to 10000000", "one of group-commit": what the key allows, for error lines. */
  public String allowedText() {
    return switch (type) {
      case INT, LONG -> "an integer from " + (long) min + " to " + (long) max;
      case DOUBLE -> "a number from " + fmt(min) + " to " + fmt(max);
      case BOOLEAN -> "true or false";
      case CHOICE -> "one of " + String.join(", ", allowed);
      case SCRIPT -> "a list of steps such as [{ step = insert, rows = 10 }]";
    };
  }

  /** "1 to 10,000,000", "group-commit", "true, false": the range alone, for tables. */
  public String rangeText() {
    return switch (type) {
      case INT, LONG, DOUBLE -> grouped(min) + " to " + grouped(max);
      case BOOLEAN -> "true, false";
      case CHOICE -> String.join(", ", allowed);
      case SCRIPT -> "a list of steps";
    };
  }

  private static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
  }

  private static String grouped(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) return String.format(Locale.ROOT, "%,d", (long) d);
    return Math.abs(d) >= 1e6 ? String.format(Locale.ROOT, "%.3g", d) : String.valueOf(d);
  }
}
