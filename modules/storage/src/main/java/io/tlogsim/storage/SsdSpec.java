package io.tlogsim.storage;

/**
 * An SSD: per-request latency by kind, a flush latency with and without power-loss protection, the interface's
 * bandwidth, and how many requests it serves in parallel (its channels).
 *
 * @param latencyCv coefficient of variation of every read, write and flush latency (a lognormal of mean the figure:
 *     {@link LatencySpread}); 0: exactly the figures
 * @param powerLossProtection true: a flush costs {@code flushPlpNanos} (the drive's cache survives a power loss, so
 *     nothing has to reach flash); false: {@code flushNoPlpNanos} (the cache is written to flash)
 */
public record SsdSpec(long readNanos, long writeNanos, long flushPlpNanos, long flushNoPlpNanos,
    boolean powerLossProtection, double mbPerSec, int channels, long capacityBytes, double latencyCv) {

  /** A drive whose latencies are exactly these. */
  public SsdSpec(long readNanos, long writeNanos, long flushPlpNanos, long flushNoPlpNanos, boolean powerLossProtection,
      double mbPerSec, int channels, long capacityBytes) {
    this(readNanos, writeNanos, flushPlpNanos, flushNoPlpNanos, powerLossProtection, mbPerSec, channels, capacityBytes,
        0);
  }

  public SsdSpec {
    DeviceConfigException.range("readLatencyUs", readNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("writeLatencyUs", writeNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("flushPlpUs", flushPlpNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("flushNoPlpUs", flushNoPlpNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("mbPerSec", mbPerSec, 0.001, 1e6, " MB/s");
    DeviceConfigException.range("channels", channels, 1, 1024, "");
    DeviceConfigException.range("latencyCv", latencyCv, 0, LatencySpread.MAX_CV,
        " (coefficient of variation: standard deviation / mean)");
    DeviceConfigException.range("capacityGiB", capacityBytes / (double) (1L << 30), 1.0 / 1024, 1 << 20, " GiB");
  }

  public long flushNanos() {
    return powerLossProtection ? flushPlpNanos : flushNoPlpNanos;
  }
}
