package io.tlogsim.storage;

import java.util.Arrays;

/**
 * A device measured on a real machine ({@code tlogsim calibrate-device}): the mean latency of a synchronous write
 * (O_DSYNC, one in flight) at each measured size, how much faster it serves with 8 requests in flight, and a flush's
 * cost. Writes are durable when they complete (they were measured synchronous); reads are not measured and take a
 * write's time.
 *
 * @param bytes the measured sizes, ascending
 * @param nanos mean latency at each size, ns
 * @param qd8Speedup measured requests per second with 8 in flight x the 4 KB latency at one in flight (1: no gain)
 * @param flushNanos a flush with nothing to write (fdatasync of a clean file)
 * @param latencyCv the measured coefficient of variation of a synchronous write's latency (standard deviation / mean),
 *     applied to every request as a lognormal of mean its latency ({@link LatencySpread}); 0: every request its mean
 */
public record ProfileSpec(long[] bytes, long[] nanos, double qd8Speedup, long flushNanos, long capacityBytes,
    double latencyCv) {

  /** A profile without a measured spread: every request takes its mean latency. */
  public ProfileSpec(long[] bytes, long[] nanos, double qd8Speedup, long flushNanos, long capacityBytes) {
    this(bytes, nanos, qd8Speedup, flushNanos, capacityBytes, 0);
  }

  public ProfileSpec {
    if (bytes.length < 2 || bytes.length != nanos.length) {
      throw new DeviceConfigException("latency", "needs at least two sizes with a latency each");
    }
    for (int i = 0; i < bytes.length; i++) {
      if (nanos[i] <= 0) throw new DeviceConfigException("latency", "must be > 0 ns at " + bytes[i] + " B");
      if (i > 0 && bytes[i] <= bytes[i - 1]) throw new DeviceConfigException("latency", "sizes must ascend");
    }
    if (!(qd8Speedup >= 0.1 && qd8Speedup <= 64)) {
      throw new DeviceConfigException("qd8Speedup", "must be from 0.1 to 64, got " + qd8Speedup);
    }
    if (flushNanos <= 0) throw new DeviceConfigException("flush", "must be > 0 ns, got " + flushNanos);
    if (capacityBytes <= 0) throw new DeviceConfigException("capacity", "must be > 0 bytes");
    DeviceConfigException.range("latencyCv", latencyCv, 0, LatencySpread.MAX_CV,
        " (coefficient of variation: standard deviation / mean)");
    bytes = bytes.clone();
    nanos = nanos.clone();
  }

  /** Latency of one request of {@code size} bytes alone: linear between the measured sizes, extended beyond them. */
  public long serviceNanos(long size) {
    int n = bytes.length;
    if (size <= bytes[0]) return nanos[0];
    int i = 1;
    while (i < n - 1 && bytes[i] < size) i++;
    double f = (double) (size - bytes[i - 1]) / (bytes[i] - bytes[i - 1]);
    return Math.max(1, Math.round(nanos[i - 1] + f * (nanos[i] - nanos[i - 1])));
  }

  /** How much faster a request is served when {@code inFlight} are outstanding: 1 alone, qd8Speedup at 8. */
  public double speedup(int inFlight) {
    if (inFlight <= 1) return 1;
    if (inFlight >= 8) return qd8Speedup;
    return 1 + (qd8Speedup - 1) * (inFlight - 1) / 7.0;
  }

  public long minServiceNanos() {
    long min = Arrays.stream(nanos).min().orElseThrow();
    return Math.max(1, (long) Math.floor(Math.min(min, flushNanos) / Math.max(1, qd8Speedup)));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProfileSpec p && Arrays.equals(bytes, p.bytes) && Arrays.equals(nanos, p.nanos)
        && qd8Speedup == p.qd8Speedup && flushNanos == p.flushNanos && capacityBytes == p.capacityBytes
        && latencyCv == p.latencyCv;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes) * 31 + Arrays.hashCode(nanos);
  }
}
