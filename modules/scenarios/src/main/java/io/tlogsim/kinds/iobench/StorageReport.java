package io.tlogsim.kinds.iobench;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.summary.DeviceSummary;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.StorageAssembly;
import io.tlogsim.storage.load.IoDirectionStats;
import io.tlogsim.storage.load.IoJobSpec;
import io.tlogsim.storage.load.IoJobStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The printed result of a storage run and its own summary section: jobs as fio reports them (IOPS, bandwidth,
 * completion-latency percentiles); the jobs' latency histograms (latency.hlog, tagged GROUP-read and GROUP-write) and
 * every device's per-second series (devices.csv).
 */
public final class StorageReport {
  private StorageReport() {}

  /** fio's completion-latency percentiles, and the summary names they go under. */
  static final double[] PERCENTILES = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
  static final String[] PERCENTILE_KEYS = {"p1", "p5", "p10", "p20", "p30", "p40", "p50", "p60", "p70", "p80", "p90",
      "p95", "p99", "p995", "p999", "p9995", "p9999"};

  /** Adds a job group's completion-latency histograms under {@code group}-read and {@code group}-write. */
  static void histograms(Map<String, Histogram> into, String group, IoJobStats jobs) {
    if (jobs.read().ios() > 0) into.put(group + "-read", jobs.read().latencies());
    if (jobs.write().ios() > 0) into.put(group + "-write", jobs.write().latencies());
  }

  /** Every device of the assembly, in build order, with its stats. */
  static List<DeviceStats> devices(StorageAssembly a, RunOutcome out) {
    List<DeviceStats> list = new ArrayList<>();
    for (StorageAssembly.Placed p : a.devices()) list.add((DeviceStats) out.results().get(p.id()));
    return list;
  }

  static String runLine(RunControl control, RunOutcome out, long ios) {
    double wall = out.wallNanos() / 1e9;
    return String.format(Locale.ROOT, "run          %.2f wall s on %d threads: %,.0f simulated I/Os per wall s, %,.0f"
        + " events/s, %.4f messages/event, %,d windows", wall, control.threads(), ratio(ios, wall),
        ratio(out.events(), wall), out.messagesPerEvent(), out.windows());
  }

  /** A storage run's result: its summary and text, the jobs' histograms, devices.csv (every device's series). */
  static ScenarioResult result(Map<String, Object> summary, List<String> lines, Map<String, Histogram> histograms,
      List<DeviceStats> devices) {
    return ScenarioResult.of(summary, lines).withHistograms(histograms)
        .withFiles(Map.of("devices.csv", DeviceSummary.devicesCsv(devices)));
  }

  /** fio's view of a job group: per direction I/Os, IOPS, bandwidth and completion latency. */
  public static Map<String, Object> jobs(IoJobStats j, double seconds) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("read", direction(j.read(), seconds));
    m.put("write", direction(j.write(), seconds));
    m.put("submitted", j.submitted());
    return m;
  }

  private static Map<String, Object> direction(IoDirectionStats d, double seconds) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ios", d.ios());
    m.put("iops", round(ratio(d.ios(), seconds)));
    m.put("bytes", d.bytes());
    m.put("mbPerSec", round(ratio(d.bytes() / 1e6, seconds)));
    m.put("mibPerSec", round(ratio(d.bytes() / (double) (1 << 20), seconds)));
    Map<String, Object> clat = new LinkedHashMap<>();
    clat.put("min", round(d.latencyMinNanos() / 1e3));
    clat.put("mean", round(d.meanUs()));
    clat.put("stddev", round(d.stddevUs()));
    for (int i = 0; i < PERCENTILES.length; i++) clat.put(PERCENTILE_KEYS[i], round(d.percentileUs(PERCENTILES[i])));
    clat.put("max", round(d.latencyMaxNanos() / 1e3));
    m.put("clatUs", clat);
    return m;
  }

  /** The result the way fio prints it, for one job group on one device. */
  static List<String> fioLines(String group, IoJobSpec spec, IoJobStats j, DeviceStats dev, double seconds) {
    List<String> out = new ArrayList<>();
    out.add(String.format(Locale.ROOT, "%s: (g=0): rw=%s, bs=(R) %dB-%dB, (W) %dB-%dB, ioengine=tlogsim, iodepth=%d,"
        + " numjobs=%d%s", group, spec.rw(), spec.blockBytes(), spec.blockBytes(), spec.blockBytes(), spec.blockBytes(),
        spec.iodepth(), spec.numjobs(), spec.rateIops() > 0
            ? ", rate_iops=" + io.tlogsim.scenario.Text.plain(spec.rateIops()) : ""));
    long ms = Math.round(seconds * 1000);
    if (j.read().ios() > 0) out.addAll(direction("read", j.read(), seconds, ms));
    if (j.write().ios() > 0) out.addAll(direction("write", j.write(), seconds, ms));
    out.add("Run status group 0 (all jobs):");
    if (j.read().ios() > 0) out.add(status("READ", j.read(), seconds, ms));
    if (j.write().ios() > 0) out.add(status("WRITE", j.write(), seconds, ms));
    out.add("Disk stats (read/write):");
    out.add(String.format(Locale.ROOT, "  %s: ios=%d/%d, util=%.2f%%, throttled=%.0fus  (%s)", dev.name(), dev.reads(),
        dev.writes() + dev.zeroFills(), ratio(dev.busyNanos() / 1e7, seconds), dev.throttledNanos() / 1e3,
        dev.model()));
    return out;
  }

  private static List<String> direction(String name, IoDirectionStats d, double seconds, long ms) {
    List<String> out = new ArrayList<>();
    double bw = ratio(d.bytes(), seconds);
    out.add(String.format(Locale.ROOT, "  %s: IOPS=%s, BW=%s (%s)(%s/%dmsec)", name, count(ratio(d.ios(), seconds)),
        binary(bw, "/s"), decimal(bw, "/s"), binary(d.bytes(), ""), ms));
    boolean msec = d.latencyMaxNanos() >= 10_000_000;
    String unit = msec ? "msec" : "usec";
    double div = msec ? 1e3 : 1;
    out.add(String.format(Locale.ROOT, "    clat (%s): min=%s, max=%s, avg=%.2f, stdev=%.2f", unit,
        plain(d.latencyMinNanos() / 1e3 / div), plain(d.latencyMaxNanos() / 1e3 / div), d.meanUs() / div,
        d.stddevUs() / div));
    out.add(String.format(Locale.ROOT, "    clat percentiles (%s):", unit));
    String[] cells = new String[PERCENTILES.length];
    int width = 1;
    for (int i = 0; i < PERCENTILES.length; i++) {
      cells[i] = plain(d.percentileUs(PERCENTILES[i]) / div);
      width = Math.max(width, cells[i].length());
    }
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < PERCENTILES.length; i++) {
      if (i % 4 == 0) line.append(i == 0 ? "     |" : "     |");
      line.append(String.format(Locale.ROOT, " %5.2fth=[%" + width + "s]", PERCENTILES[i], cells[i]));
      if (i % 4 == 3 || i == PERCENTILES.length - 1) {
        out.add(line.append(i == PERCENTILES.length - 1 ? "" : ",").toString());
        line.setLength(0);
      } else {
        line.append(',');
      }
    }
    return out;
  }

  private static String status(String name, IoDirectionStats d, double seconds, long ms) {
    double bw = ratio(d.bytes(), seconds);
    return String.format(Locale.ROOT, "  %5s: bw=%s (%s), io=%s (%s), run=%d-%dmsec", name, binary(bw, "/s"),
        decimal(bw, "/s"), binary(d.bytes(), ""), decimal(d.bytes(), ""), ms, ms);
  }

  /** fio's IOPS: plain below 10,000, else three significant digits with k or M. */
  static String count(double v) {
    if (v < 10_000) return String.valueOf(Math.round(v));
    if (v < 1e6) return sig3(v / 1e3) + "k";
    return sig3(v / 1e6) + "M";
  }

  static String binary(double bytes, String per) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1000 && u < units.length - 1) {
      bytes /= 1024;
      u++;
    }
    return sig3(bytes) + units[u] + per;
  }

  static String decimal(double bytes, String per) {
    String[] units = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < units.length - 1) {
      bytes /= 1000;
      u++;
    }
    return sig3(bytes) + units[u] + per;
  }

  /** Three significant digits, as fio prints rates and sizes (99.99 is "100"). */
  static String sig3(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) return String.valueOf(Math.round(v));
    double r = new java.math.BigDecimal(v).round(new java.math.MathContext(3)).doubleValue();
    if (r >= 100) return String.valueOf(Math.round(r));
    if (r >= 10) return String.format(Locale.ROOT, "%.1f", r);
    return String.format(Locale.ROOT, "%.2f", r);
  }

  /** A latency in fio's style: whole units when large, else two decimals. */
  private static String plain(double v) {
    return v >= 100 ? String.valueOf(Math.round(v)) : String.format(Locale.ROOT, "%.2f", v);
  }

  static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
