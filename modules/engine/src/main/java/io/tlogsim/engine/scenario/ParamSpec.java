package io.tlogsim.engine.scenario;

import java.util.List;

/**
 * One parameter a scenario kind accepts: its key, type, allowed range or values, and what it means. Defaults are
 * not here but in config (application.conf, tlogsim.kinds.KIND), each with its source in REFERENCE.md or BENCH.md.
 */
public record ParamSpec(String key, Type type, double min, double max, List<String> allowed, String description) {

  public enum Type { INT, LONG, DOUBLE, BOOLEAN, CHOICE }

  public static ParamSpec integer(String key, long min, long max, String description) {
    return new ParamSpec(key, Type.INT, min, max, List.of(), description);
  }

  public static ParamSpec longValue(String key, long min, long max, String description) {
    return new ParamSpec(key, Type.LONG, min, max, List.of(), description);
  }

  public static ParamSpec decimal(String key, double min, double max, String description) {
    return new ParamSpec(key, Type.DOUBLE, min, max, List.of(), description);
  }

  public static ParamSpec choice(String key, List<String> allowed, String description) {
    return new ParamSpec(key, Type.CHOICE, 0, 0, List.copyOf(allowed), description);
  }

  public static ParamSpec bool(String key, String description) {
    return new ParamSpec(key, Type.BOOLEAN, 0, 0, List.of(), description);
  }

  /** "an integer from 1 to 10000000", "one of group-commit": what the key allows, for error lines. */
  public String allowedText() {
    return switch (type) {
      case INT, LONG -> "an integer from " + (long) min + " to " + (long) max;
      case DOUBLE -> "a number from " + fmt(min) + " to " + fmt(max);
      case BOOLEAN -> "true or false";
      case CHOICE -> "one of " + String.join(", ", allowed);
    };
  }

  private static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
  }
}
