package io.tlogsim.storage;

import io.tlogsim.kernel.IntervalFact;

/**
 * One second of a device, recorded as a fact when the second is over (so that the report and the journal can draw
 * IOPS, MB/s and queue depth over time): requests completed in [fromNanos, toNanos), their bytes, the mean number of
 * requests outstanding, and the throttling delay of the requests admitted in it.
 */
public record DeviceInterval(String device, long fromNanos, long toNanos, long reads, long writes, long bytes,
    double queueDepth, long throttledNanos) implements IntervalFact {}
