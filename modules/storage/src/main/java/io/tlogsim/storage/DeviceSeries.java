package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;

/**
 * A device's run second by second: entry s covers [s, s+1) seconds of simulated time. Reads and writes (and bytes)
 * count the requests that completed in the second; queueNanos is the integral of the requests outstanding over the
 * second (divided by 1 s: the mean queue depth); throttledNanos the throttling delay of requests admitted in it.
 */
public record DeviceSeries(long[] reads, long[] writes, long[] bytes, long[] queueNanos, long[] throttledNanos)
    implements CborSerializable {

  public int seconds() {
    return reads.length;
  }

  public long ios(int s) {
    return reads[s] + writes[s];
  }

  public double meanQueueDepth(int s) {
    return queueNanos[s] / 1e9;
  }

  /** MB/s in second s (10^6 bytes). */
  public double mbPerSec(int s) {
    return bytes[s] / 1e6;
  }
}
