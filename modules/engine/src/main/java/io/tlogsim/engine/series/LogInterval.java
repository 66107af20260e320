package io.tlogsim.engine.series;

import io.tlogsim.kernel.IntervalFact;

/**
 * A log manager's writes issued in one report interval [fromNanos, toNanos): how many, their pages and bytes, and
 * the histogram of their sizes in bytes ({@link Histograms#encode}), from which the report draws the flush-size
 * histogram.
 */
public record LogInterval(long fromNanos, long toNanos, long writes, long pages, long bytes,
    byte[] writeBytes) implements IntervalFact {}
