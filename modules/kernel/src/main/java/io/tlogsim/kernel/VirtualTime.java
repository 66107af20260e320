package io.tlogsim.kernel;

/** Virtual time is a long of nanoseconds (DESIGN.md principle 1). Helpers to convert and to saturate. */
public final class VirtualTime {
  /** "Never": no event, or no output can follow. Sums saturate at this value. */
  public static final long NEVER = Long.MAX_VALUE;

  public static final long NS_PER_US = 1_000L;
  public static final long NS_PER_MS = 1_000_000L;
  public static final long NS_PER_S = 1_000_000_000L;

  private VirtualTime() {}

  public static long micros(double us) {
    return Math.round(us * NS_PER_US);
  }

  public static long seconds(double s) {
    return Math.round(s * NS_PER_S);
  }

  public static double toSeconds(long ns) {
    return ns / (double) NS_PER_S;
  }

  public static double toMicros(long ns) {
    return ns / (double) NS_PER_US;
  }

  /** t + d, where NEVER absorbs and overflow saturates to NEVER. */
  public static long plus(long t, long d) {
    if (t == NEVER || d == NEVER) return NEVER;
    long r = t + d;
    return ((t ^ r) & (d ^ r)) < 0 ? NEVER : r;
  }
}
