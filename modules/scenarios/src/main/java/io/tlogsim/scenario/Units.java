package io.tlogsim.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values with units, as fio and DBAs write them: {@code bs=4k}, {@code logSizeMB=10GB}, {@code simulatedSeconds=100ms},
 * {@code thinkMeanUs=2ms}, {@code deviceMBps=1.5GB/s}. A value is converted to its parameter's unit (the one
 * {@code tlogsim params} shows); a unit of another dimension (a time for a size) is refused naming both.
 *
 * <p>Sizes are binary, as both fio (kb_base=1024) and SQL Server (its MB is 2^20 bytes) count them: k, KB and KiB are
 * 1024 bytes, M, MB and MiB 2^20, G 2^30, T 2^40. Rates are decimal, as the devices' MB/s are (10^6 B/s), unless
 * written in binary (MiB/s). Within a time, {@code m} is a minute; within a size, a mebibyte (fio's reading of both).
 */
public final class Units {
  /** What a unit measures. */
  public enum Dimension {
    TIME("a time"), SIZE("a size"), RATE("a transfer rate"), PERCENT("a percentage");

    final String words;

    Dimension(String words) {
      this.words = words;
    }
  }

  /** A unit: its dimension and its size in the dimension's base (seconds, bytes, bytes per second, percent). */
  public record Unit(Dimension dimension, double base) {}

  private static final double KI = 1024;
  private static final Map<String, Unit> TIME = new LinkedHashMap<>();
  private static final Map<String, Unit> SIZE = new LinkedHashMap<>();
  private static final Map<String, Unit> RATE = new LinkedHashMap<>();
  private static final Map<String, Unit> PERCENT = new LinkedHashMap<>();

  static {
    time(1e-9, "ns", "nsec");
    time(1e-6, "us", "µs", "usec");
    time(1e-3, "ms", "msec");
    time(1, "s", "sec", "secs", "second", "seconds");
    time(60, "m", "min", "mins", "minute", "minutes");
    time(3600, "h", "hr", "hour", "hours");
    time(86_400, "d", "day", "days");
    size(1, "b", "byte", "bytes");
    size(KI, "k", "kb", "kib");
    size(KI * KI, "m", "mb", "mib");
    size(KI * KI * KI, "g", "gb", "gib");
    size(KI * KI * KI * KI, "t", "tb", "tib");
    rate(1, "b/s", "bps");
    rate(1e3, "kb/s", "kbps");
    rate(1e6, "mb/s", "mbps");
    rate(1e9, "gb/s", "gbps");
    rate(KI, "kib/s");
    rate(KI * KI, "mib/s");
    rate(KI * KI * KI, "gib/s");
    PERCENT.put("%", new Unit(Dimension.PERCENT, 1));
  }

  private static void time(double s, String... names) {
    for (String n : names) TIME.put(n, new Unit(Dimension.TIME, s));
  }

  private static void size(double b, String... names) {
    for (String n : names) SIZE.put(n, new Unit(Dimension.SIZE, b));
  }

  private static void rate(double bps, String... names) {
    for (String n : names) RATE.put(n, new Unit(Dimension.RATE, bps));
  }

  /** A number, then a unit: "4k", "10 GB", "100ms", "1.5e3us", "2 GB/s". */
  private static final Pattern VALUE = Pattern.compile("\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*"
      + "([a-zA-Zµ/%]+)\\s*");

  private Units() {}

  /** The unit a parameter's values are in ({@link ParamSpec#unit()}), or null when it has none (a count). */
  public static Unit of(String paramUnit) {
    String u = paramUnit.toLowerCase(Locale.ROOT);
    for (Map<String, Unit> m : List.of(TIME, SIZE, RATE, PERCENT)) {
      if (u.equals("m") && m != TIME) continue; // "m" as a parameter's unit would be ambiguous; none has it
      Unit x = m.get(u);
      if (x != null) return x;
    }
    return null;
  }

  /**
   * {@code text} ("4k", "100ms") in the unit of {@code spec}; null when it is not a number with a unit (then the caller
   * reports the value as it would any other). Bad input, naming the key, the value and both dimensions, when the unit
   * measures something else than the parameter, or the parameter has no unit.
   */
  public static Double convert(ParamSpec spec, String text) {
    Matcher m = VALUE.matcher(text);
    if (!m.matches()) return null;
    double number = Double.parseDouble(m.group(1));
    String suffix = m.group(2).toLowerCase(Locale.ROOT);
    Unit target = of(spec.unit());
    String given = text.strip();
    if (target == null) {
      Unit u = lookUp(suffix, null);
      if (u == null) return null;
      throw new BadInputException(spec.key() + ": '" + given + "' is " + u.dimension().words + "; " + spec.key()
          + " is a plain number" + (spec.unit().isEmpty() ? "" : " of " + spec.unit()) + ", " + spec.allowedText());
    }
    Unit u = lookUp(suffix, target.dimension());
    if (u == null) return null;
    if (u.dimension() != target.dimension()) {
      throw new BadInputException(spec.key() + ": '" + given + "' is " + u.dimension().words + "; " + spec.key()
          + " is " + target.dimension().words + " in " + spec.unit() + " (" + examples(target.dimension()) + ")");
    }
    double v = number * u.base() / target.base();
    double rounded = Math.rint(v);
    // 0.1 s in us is 100000.00000000001: a conversion that lands within rounding of a whole number is that number
    return Math.abs(v - rounded) <= 1e-9 * Math.max(1, Math.abs(v)) ? rounded : v;
  }

  /** The unit a suffix names: in the dimension expected first ("m" in a time is a minute), else any. */
  private static Unit lookUp(String suffix, Dimension expected) {
    List<Map<String, Unit>> order = new java.util.ArrayList<>(List.of(TIME, SIZE, RATE, PERCENT));
    if (expected != null) {
      Map<String, Unit> first = switch (expected) {
        case TIME -> TIME;
        case SIZE -> SIZE;
        case RATE -> RATE;
        case PERCENT -> PERCENT;
      };
      order.remove(first);
      order.add(0, first);
    }
    for (Map<String, Unit> m : order) {
      Unit u = m.get(suffix);
      if (u != null) return u;
    }
    return null;
  }

  private static String examples(Dimension d) {
    return switch (d) {
      case TIME -> "e.g. 500us, 2ms, 1.5s, 10m";
      case SIZE -> "e.g. 4k, 64KB, 10GB";
      case RATE -> "e.g. 200MB/s, 1.5GB/s";
      case PERCENT -> "e.g. 70%";
    };
  }
}
