package io.tlogsim.database.series;

import io.tlogsim.kernel.VirtualTime;

/**
 * The grid of a run's report intervals: components that aggregate per interval (commits, log writes) close one at
 * each multiple of {@link #step}, and at the end of the warm-up, so that no interval straddles it. The step depends
 * only on the run's limit (a round 1, 2 or 5 x 10^k, at least 1 ms): every component of a run, and the same run
 * replayed or resumed, uses the same grid. The last interval runs to the end of the run. A limit is often a bound,
 * not the run's length (a script ends long before it: stairway-update-fragmented's 7,200 s for 225 s), so past 100 s
 * the step is at most 1 s (until 10,000 intervals), and a run that stops early still has a point per second.
 */
public final class Intervals {
  /** About this many intervals in a run of up to 100 s. */
  public static final int MAX_INTERVALS = 100;
  /** Past 100 s the step is at most a second, until a run has this many. */
  static final int MAX_LONG_RUN_INTERVALS = 10_000;
  private static final long MIN_STEP = VirtualTime.NS_PER_MS;
  private static final long SECOND = 1_000 * VirtualTime.NS_PER_MS;

  private Intervals() {}

  /**
   * The interval length of a run whose limit is {@code endNanos}: the smallest round value giving at most 100
   * intervals, but at most 1 s while that gives at most 10,000.
   */
  public static long step(long endNanos) {
    long wanted = Math.max(MIN_STEP, (endNanos + MAX_INTERVALS - 1) / MAX_INTERVALS);
    long longRun = Math.max(SECOND, (endNanos + MAX_LONG_RUN_INTERVALS - 1) / MAX_LONG_RUN_INTERVALS);
    wanted = Math.min(wanted, longRun);
    for (long decade = MIN_STEP; ; decade *= 10) {
      for (long m : new long[] {1, 2, 5}) {
        if (m * decade >= wanted) return m * decade;
      }
    }
  }

  /**
   * The end of the interval that starts at {@code from}: the next multiple of {@code step}, or the end of the warm-up
   * if it comes first; {@link VirtualTime#NEVER} for the last interval (it ends with the run).
   */
  public static long next(long from, long step, long warmupEnd, long endNanos) {
    long to = (from / step + 1) * step;
    if (warmupEnd > from && warmupEnd < to) to = warmupEnd;
    return to >= endNanos ? VirtualTime.NEVER : to;
  }
}
