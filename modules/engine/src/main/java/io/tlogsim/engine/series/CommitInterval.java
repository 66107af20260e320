package io.tlogsim.engine.series;

import io.tlogsim.kernel.IntervalFact;

/**
 * The commits a session pool saw acknowledged in one report interval [fromNanos, toNanos): how many, their latency
 * sum and maximum (exact) and their latency histogram ({@link Histograms#encode}, ns, 3 significant digits), so that
 * the report merges the pools of an interval exactly. {@code warmup}: the interval lies in the warm-up, outside the
 * run's statistics.
 */
public record CommitInterval(long fromNanos, long toNanos, long commits, long latencySumNanos, long latencyMaxNanos,
    byte[] latencies, boolean warmup) implements IntervalFact {}
