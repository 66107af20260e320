package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;

/** What a device did in a run: counts, bytes, time busy, and the sum of request latencies (queue + service). */
public record DeviceStats(String name, long reads, long writes, long bytesWritten, long busyNanos,
    long latencySumNanos, long throttledNanos) implements CborSerializable {

  public double meanLatencyUs() {
    long n = reads + writes;
    return n == 0 ? 0 : latencySumNanos / (double) n / 1e3;
  }
}
