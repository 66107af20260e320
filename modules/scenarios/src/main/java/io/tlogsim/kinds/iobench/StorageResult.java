package io.tlogsim.kinds.iobench;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.summary.DeviceSummary;
import io.tlogsim.scenario.summary.RunFigures;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.StorageAssembly;
import io.tlogsim.storage.load.IoJobStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The result of a storage run: summary, printed lines, the jobs' completion-latency histograms (latency.hlog, tagged
 * GROUP-read and GROUP-write), and devices.csv (every device's per-second series).
 */
public record StorageResult(Map<String, Object> summary, List<String> humanLines, Map<String, Histogram> histograms,
    Map<String, String> files) implements ScenarioResult {

  /** Adds a job group's completion-latency histograms under {@code group}-read and {@code group}-write. */
  static void histograms(Map<String, Histogram> into, String group, IoJobStats jobs) {
    if (jobs.read().ios() > 0) into.put(group + "-read", jobs.read().latencies());
    if (jobs.write().ios() > 0) into.put(group + "-write", jobs.write().latencies());
  }

  /** The summary's head: scenario, seed, simulated seconds, digest. */
  static Map<String, Object> head(String scenario, RunControl control, double seconds, RunOutcome out) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scenario", scenario);
    s.put("seed", control.seed());
    s.put("simulatedSeconds", seconds);
    s.put("digest", out.digestHex());
    return s;
  }

  /** Every device of the assembly, in build order, with its stats. */
  static List<DeviceStats> devices(StorageAssembly a, RunOutcome out) {
    List<DeviceStats> list = new ArrayList<>();
    for (StorageAssembly.Placed p : a.devices()) list.add((DeviceStats) out.results().get(p.id()));
    return list;
  }

  /** summary.run: threads, wall time, events, windows, messages, and I/Os per wall second. */
  static Map<String, Object> run(RunControl control, RunOutcome out, long ios) {
    double wall = out.wallNanos() / 1e9;
    Map<String, Object> run = RunFigures.of(control, out); // threads, nodes, what crossed between them
    run.put("iosPerWallSecond", StorageReport.round(StorageReport.ratio(ios, wall)));
    return run;
  }

  static String runLine(RunControl control, RunOutcome out, long ios) {
    double wall = out.wallNanos() / 1e9;
    return String.format(Locale.ROOT, "run          %.2f wall s on %d threads: %,.0f simulated I/Os per wall s, %,.0f"
        + " events/s, %.4f messages/event, %,d windows", wall, control.threads(), StorageReport.ratio(ios, wall),
        StorageReport.ratio(out.events(), wall), out.messagesPerEvent(), out.windows());
  }

  static Map<String, String> csv(List<DeviceStats> devices) {
    return Map.of("devices.csv", DeviceSummary.devicesCsv(devices));
  }

  static Map<String, Object> params(Params p) {
    return p.asMap();
  }
}
