package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What a device did in a run, counting the requests that completed by the end of the run: counts and bytes per kind,
 * time with at least one request outstanding, request latency (arrival to completion: queueing, throttling and
 * service) as sum, maximum and histogram, time spent throttled, and the per-second series.
 *
 * @param model what the device is ("ssd", "hdd", "premium P20", "raid 10 of 4 hdd")
 * @param busyNanos time with at least one request outstanding (fio's util)
 * @param latencyHistogram latencies in ns, an HdrHistogram in its compressed form (3 significant digits)
 * @param counters what only this kind of device counts, by name in name order (a RAID controller's back-end I/Os,
 *     a cloud disk's log-rate throttling, the time its burst credits ran out)
 */
public record DeviceStats(String name, String model, long reads, long writes, long flushes, long zeroFills,
    long bytesRead, long bytesWritten, long bytesZeroed, long busyNanos, long latencySumNanos, long latencyMaxNanos,
    long throttledNanos, byte[] latencyHistogram, DeviceSeries series, SortedMap<String, Long> counters)
    implements CborSerializable {

  public DeviceStats {
    counters = Collections.unmodifiableSortedMap(new TreeMap<>(counters));
  }

  /** A counter of this device, or 0. */
  public long counter(String key) {
    return counters.getOrDefault(key, 0L);
  }

  /** Requests of every kind that completed. */
  public long requests() {
    return reads + writes + flushes + zeroFills;
  }

  /** Bytes moved by reads, writes and zero-fills. */
  public long bytes() {
    return bytesRead + bytesWritten + bytesZeroed;
  }

  public double meanLatencyUs() {
    long n = requests();
    return n == 0 ? 0 : latencySumNanos / (double) n / 1e3;
  }

  public Histogram latencies() {
    return LatencyHistograms.decode(latencyHistogram);
  }

  /** A latency percentile in us, bounded by the exact maximum (a histogram bucket's top may exceed it). */
  public double latencyPercentileUs(double percentile) {
    if (requests() == 0) return 0;
    return Math.min(latencies().getValueAtPercentile(percentile), latencyMaxNanos) / 1e3;
  }
}
