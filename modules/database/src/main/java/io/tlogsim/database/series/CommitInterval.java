package io.tlogsim.database.series;

import io.tlogsim.kernel.IntervalFact;
import java.util.Arrays;
import java.util.Base64;

/**
 * The commits a session pool saw acknowledged in one report interval [fromNanos, toNanos): how many, their latency
 * sum and maximum (exact) and their latency histogram ({@link Histograms#encode}, ns, 3 significant digits), so that
 * the report merges the pools of an interval exactly. {@code warmup}: the interval lies in the warm-up, outside the
 * run's statistics.
 */
public record CommitInterval(long fromNanos, long toNanos, long commits, long latencySumNanos, long latencyMaxNanos,
    byte[] latencies, boolean warmup) implements IntervalFact {

  // a histogram's bytes compare by content (a record compares arrays by identity)
  @Override
  public boolean equals(Object o) {
    return o instanceof CommitInterval c && fromNanos == c.fromNanos && toNanos == c.toNanos && commits == c.commits
        && latencySumNanos == c.latencySumNanos && latencyMaxNanos == c.latencyMaxNanos && warmup == c.warmup
        && Arrays.equals(latencies, c.latencies);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(fromNanos) * 31 + Arrays.hashCode(latencies);
  }

  @Override
  public String toString() {
    return "CommitInterval[fromNanos=" + fromNanos + ", toNanos=" + toNanos + ", commits=" + commits
        + ", latencySumNanos=" + latencySumNanos + ", latencyMaxNanos=" + latencyMaxNanos + ", latencies="
        + Base64.getEncoder().encodeToString(latencies) + ", warmup=" + warmup + "]";
  }
}
