package io.tlogsim.scenario.summary;

import io.tlogsim.storage.DeviceSeries;
import io.tlogsim.storage.DeviceStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A device's figures under DESIGN.md's {@code devices.<name>} names ({@code reads, writes, iops, mbPerSec,
 * meanLatencyUs, throttledUs}, and {@code mibPerSec, latencyUs.{p50,p99,max}, bytes.{read,written,zeroed}, flushes,
 * zeroFills, utilPercent, peakIops1s, model, counters}), and every device's per-second series as devices.csv. For any
 * kind that runs storage devices.
 */
public final class DeviceSummary {
  private DeviceSummary() {}

  /**
   * A device over the whole run of {@code seconds}: counts, rates, latency, throttling, utilisation, and its own
   * counters.
   */
  public static Map<String, Object> device(DeviceStats d, double seconds) {
    long ios = d.reads() + d.writes() + d.zeroFills();
    return device(d, seconds, d.reads(), d.writes() + d.zeroFills(), ios, d.bytes());
  }

  /**
   * A device counted over the whole seconds [0, {@code seconds}) of its series only (a device whose load stops before
   * the run ends): counts and rates from the series; latency and throttling over the whole run.
   */
  public static Map<String, Object> deviceWindow(DeviceStats d, int seconds) {
    DeviceSeries s = d.series();
    long reads = 0, writes = 0, bytes = 0;
    for (int i = 0; i < Math.min(seconds, s.seconds()); i++) {
      reads += s.reads()[i];
      writes += s.writes()[i];
      bytes += s.bytes()[i];
    }
    Map<String, Object> m = device(d, seconds, reads, writes, reads + writes, bytes);
    m.put("countedSeconds", seconds);
    return m;
  }

  private static Map<String, Object> device(DeviceStats d, double seconds, long reads, long writes, long ios,
      long bytes) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model", d.model());
    m.put("reads", reads);
    m.put("writes", writes);
    m.put("iops", round(ratio(ios, seconds)));
    m.put("mbPerSec", round(ratio(bytes / 1e6, seconds)));
    m.put("mibPerSec", round(ratio(bytes / (double) (1 << 20), seconds)));
    m.put("meanLatencyUs", round(d.meanLatencyUs()));
    m.put("throttledUs", round(d.throttledNanos() / 1e3));
    Map<String, Object> lat = new LinkedHashMap<>();
    lat.put("p50", round(d.latencyPercentileUs(50)));
    lat.put("p99", round(d.latencyPercentileUs(99)));
    lat.put("max", round(d.latencyMaxNanos() / 1e3));
    m.put("latencyUs", lat);
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("read", d.bytesRead());
    b.put("written", d.bytesWritten());
    b.put("zeroed", d.bytesZeroed());
    m.put("bytes", b);
    m.put("flushes", d.flushes());
    m.put("zeroFills", d.zeroFills());
    m.put("utilPercent", round(ratio(d.busyNanos() / 1e7, seconds)));
    m.put("peakIops1s", peakIops(d.series(), 1, (int) Math.ceil(seconds)));
    if (!d.counters().isEmpty()) m.put("counters", new LinkedHashMap<>(d.counters()));
    return m;
  }

  /** The most I/Os completed in one whole second of [from, to) (the first second holds a throttle's short burst). */
  public static long peakIops(DeviceSeries s, int from, int to) {
    long peak = 0;
    for (int i = from; i < Math.min(to, s.seconds()); i++) peak = Math.max(peak, s.ios(i));
    return peak;
  }

  /** Every device's series as one CSV: device, second, reads, writes, IOPS, MB/s, queue depth, throttled ms. */
  public static String devicesCsv(List<DeviceStats> devices) {
    StringBuilder b = new StringBuilder("device,second,reads,writes,iops,mbPerSec,queueDepth,throttledMs\n");
    for (DeviceStats d : devices) {
      DeviceSeries s = d.series();
      for (int i = 0; i < s.seconds(); i++) {
        b.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%.3f,%.3f,%.3f%n", d.name(), i, s.reads()[i],
            s.writes()[i], s.ios(i), s.mbPerSec(i), s.meanQueueDepth(i), s.throttledNanos()[i] / 1e6));
      }
    }
    return b.toString();
  }

  private static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
