package io.tlogsim.analysis.calibrate;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.SummaryPaths;
import io.tlogsim.storage.DeviceProfiles;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A calibration as a device profile (HOCON, see {@link DeviceProfiles}), and the same patterns run back through
 * iobench on that profile, for the side-by-side table.
 */
public final class ProfileFile {
  private ProfileFile() {}

  /** The profile's text: the settings of the profile model, then what was measured. */
  public static String render(String name, DiskCalibration.Result r, String host) {
    StringBuilder b = new StringBuilder();
    b.append("# tlogsim device profile '").append(name).append("', written by tlogsim calibrate-device\n");
    b.append("# Use: --set logDevice=profile:").append(name).append(" (commit path), --set device=profile:")
        .append(name).append(" (iobench), or logDevice = \"profile:").append(name).append("\" in a scenario.\n");
    b.append("profile {\n");
    for (DiskCalibration.SizeResult s : r.sizes()) {
      b.append(String.format(Locale.ROOT, "  %s = %.3f   # mean of %,d O_DSYNC writes, one in flight%n",
          DeviceProfiles.latencyKey(s.bytes()), s.meanNanos() / 1e3, s.count()));
    }
    b.append(String.format(Locale.ROOT, "  profileQd8Speedup = %.4f   # %.0f IOPS at 8 in flight x %.1f us alone (4 KB)%n",
        r.qd8Speedup(), r.qd8().iops(), r.size(4096).meanNanos() / 1e3));
    b.append(String.format(Locale.ROOT, "  profileFlushUs = %.3f   # fdatasync with nothing to write%n",
        r.flushMeanNanos() / 1e3));
    b.append("}\n");
    b.append("measured {\n");
    b.append("  path = ").append(quote(r.dir().toAbsolutePath().toString())).append('\n');
    b.append("  host = ").append(quote(host)).append('\n');
    b.append("  at = ").append(quote(Instant.now().toString())).append('\n');
    b.append(String.format(Locale.ROOT, "  wallSeconds = %.1f%n  bytesWritten = %d%n", r.seconds(), r.bytesWritten()));
    b.append("  syncWrites = [\n");
    for (DiskCalibration.SizeResult s : r.sizes()) {
      b.append(String.format(Locale.ROOT,
          "    { bytes = %d, count = %d, meanUs = %.3f, p50Us = %.3f, p99Us = %.3f, mbPerSec = %.3f }%n", s.bytes(),
          s.count(), s.meanNanos() / 1e3, s.p50Nanos() / 1e3, s.p99Nanos() / 1e3, s.mbPerSec()));
    }
    b.append("  ]\n");
    b.append(String.format(Locale.ROOT, "  sequentialMBps = %.3f   # 1 MiB O_DSYNC writes in order%n",
        r.size(1 << 20).mbPerSec()));
    b.append(String.format(Locale.ROOT, "  queueDepth8 { bytes = %d, count = %d, iops = %.1f, meanUs = %.3f }%n",
        r.qd8().bytes(), r.qd8().count(), r.qd8().iops(), r.qd8().meanNanos() / 1e3));
    b.append("}\n");
    return b.toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** One pattern, measured and simulated: mean latency (us) and rate (I/Os per second). */
  public record Row(String pattern, double measuredUs, double simulatedUs, double measuredIops, double simulatedIops) {
    public double latencyError() {
      return simulatedUs / measuredUs - 1;
    }

    public double rateError() {
      return simulatedIops / measuredIops - 1;
    }
  }

  /** Each measured pattern run through iobench on the profile at {@code profile} (sync writes, as measured). */
  public static List<Row> compare(Path profile, DiskCalibration.Result r) {
    List<Row> rows = new ArrayList<>();
    for (DiskCalibration.SizeResult s : r.sizes()) {
      Map<String, Object> sum = iobench(profile, s.bytes(), 1, s.meanNanos());
      rows.add(new Row(String.format(Locale.ROOT, "write %d B sync qd1", s.bytes()), s.meanNanos() / 1e3,
          SummaryPaths.number(sum, "jobs.write.clatUs.mean"), s.count() / s.seconds(),
          SummaryPaths.number(sum, "jobs.write.iops")));
    }
    DiskCalibration.QueueResult q = r.qd8();
    Map<String, Object> sum = iobench(profile, q.bytes(), q.depth(), q.meanNanos());
    rows.add(new Row(String.format(Locale.ROOT, "write %d B sync qd%d", q.bytes(), q.depth()), q.meanNanos() / 1e3,
        SummaryPaths.number(sum, "jobs.write.clatUs.mean"), q.iops(), SummaryPaths.number(sum, "jobs.write.iops")));
    return rows;
  }

  private static Map<String, Object> iobench(Path profile, long bs, int depth, double meanNanos) {
    // long enough for a few thousand I/Os
    double runtime = Math.max(0.05, Math.min(600, 3000 * meanNanos / 1e9));
    String text = "kind = iobench\n";
    Scenario s = ScenarioKinds.loader().loadText("calibrate-check", "calibrate-device", text, Map.of(
        "device", DeviceProfiles.PREFIX + profile.toAbsolutePath(), "rw", "write", "bs", String.valueOf(bs),
        "iodepth", String.valueOf(depth), "sync", "true", "submitUs", "0.001", "runtime", String.format(Locale.ROOT, "%.6f", runtime),
        "size", String.valueOf(Math.max(bs, 64L << 20) / bs * bs)));
    return s.run(new RunControl(s.seed(), 1, null)).summary();
  }
}
