package io.tlogsim.cli;

import io.tlogsim.database.series.CommitInterval;
import io.tlogsim.database.series.Histograms;
import io.tlogsim.database.series.LogInterval;
import io.tlogsim.journal.RunStore;
import io.tlogsim.journal.StoredFact;
import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.Summary;
import io.tlogsim.storage.DeviceInterval;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * {@code tlogsim replay <run-id> --from A --to B}: the summary, report and series of a window [A, B) of a stored run,
 * from its interval facts (kept at every trace level). A fact that covers an interval [from, to) belongs to the window
 * when the interval starts in it (report intervals are whole: about 1 % of a run each, devices' 1 s); a fact of an
 * instant (a log-space sample) when its time is in it. The figures have the live summary's names (commits.count,
 * commits.latencyUs, log.writes, devices.NAME.writes, ...) so that {@code compare} sets two windows side by side.
 */
final class WindowReplay {
  private WindowReplay() {}

  /** The window's summary (without provenance), its human lines, and its facts for the report. */
  record Window(Map<String, Object> summary, List<String> humanLines, List<RecordedFact> facts) {
    ScenarioResult result() {
      return ScenarioResult.of(summary, humanLines);
    }
  }

  /** Whether an interval fact belongs to window {@code w}: its interval starts in it, or (an instant) its time is. */
  static boolean inWindow(StoredFact f, SimWindow.Nanos w) {
    Object fact = f.fact();
    if (fact instanceof CommitInterval c) return w.contains(c.fromNanos());
    if (fact instanceof LogInterval l) return w.contains(l.fromNanos());
    if (fact instanceof DeviceInterval d) return w.contains(d.fromNanos());
    return w.contains(f.time());
  }

  /** The default directory of a window's files, beside the run's own: {@code <run-id>-window-20-25}. */
  static String dirName(String runId, SimWindow.Nanos w) {
    return runId + "-window-" + FactsTable.seconds(w.fromNanos()) + "-" + FactsTable.seconds(w.toNanos());
  }

  /**
   * Writes the window's summary.json (the run's provenance with the window added), latency.hlog, report and series
   * to {@code dir}; summary.json also to {@code json} when given, the human lines to {@code human} when given.
   */
  static void write(RunStore.StoredRun run, SimWindow.Nanos w, java.nio.file.Path dir, boolean force,
      java.io.PrintWriter json, java.io.PrintWriter human) throws java.io.IOException {
    Runner.checkOut(dir, force);
    Window win = of(run, w);
    Map<String, Object> summary = new LinkedHashMap<>(win.summary());
    Map<String, Object> provenance = new LinkedHashMap<>();
    if (ReplayCommand.provenance(run) instanceof Map<?, ?> p) p.forEach((k, v) -> provenance.put(String.valueOf(k), v));
    provenance.put("replayedWindow", Map.of("fromSeconds", w.fromSeconds(), "toSeconds", w.toSeconds()));
    summary.put("provenance", provenance);
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Path summaryFile = io.tlogsim.analysis.SummaryWriter.write(dir, run.runId(), summary);
    List<java.nio.file.Path> files = ReportFiles.write(dir, run.runId(), summary, win.result(), win.facts(),
        FactsCommand.topology(run.spec()));
    if (json != null) json.print(io.tlogsim.analysis.SummaryWriter.toJson(run.runId(), summary));
    if (human != null) {
      win.humanLines().forEach(human::println);
      Text.paragraph("replayed", "the window, from the journal's interval facts, without simulating")
          .forEach(human::println);
      Text.paragraph("report", ReportFiles.names(files) + " beside summary.json").forEach(human::println);
      human.println("summary      " + summaryFile.toAbsolutePath().normalize());
    }
  }

  static Window of(RunStore.StoredRun run, SimWindow.Nanos w) {
    List<RecordedFact> facts = new ArrayList<>();
    long commits = 0, sum = 0, max = 0, warmupCommits = 0;
    long coveredFrom = Long.MAX_VALUE, coveredTo = Long.MIN_VALUE;
    Histogram latencies = new Histogram(3);
    latencies.setAutoResize(true);
    long writes = 0, pages = 0, bytes = 0;
    boolean anyLog = false;
    TreeMap<String, long[]> devices = new TreeMap<>(); // reads, writes, bytes, throttledNanos, nanos
    TreeMap<String, double[]> queue = new TreeMap<>(); // queue depth x nanos
    for (StoredFact f : run.facts()) {
      if (!(f.fact() instanceof IntervalFact) || !inWindow(f, w)) continue;
      facts.add(new RecordedFact(f.time(), f.component(), f.fact()));
      if (f.fact() instanceof CommitInterval c) {
        coveredFrom = Math.min(coveredFrom, c.fromNanos());
        coveredTo = Math.max(coveredTo, c.toNanos());
        if (c.warmup()) { // outside the run's statistics, as live
          warmupCommits += c.commits();
          continue;
        }
        commits += c.commits();
        sum += c.latencySumNanos();
        max = Math.max(max, c.latencyMaxNanos());
        if (c.commits() > 0) Histograms.addTo(latencies, c.latencies());
      } else if (f.fact() instanceof LogInterval l) {
        anyLog = true;
        writes += l.writes();
        pages += l.pages();
        bytes += l.bytes();
      } else if (f.fact() instanceof DeviceInterval d) {
        long[] m = devices.computeIfAbsent(d.device(), k -> new long[5]);
        long dt = d.toNanos() - d.fromNanos();
        m[0] += d.reads();
        m[1] += d.writes();
        m[2] += d.bytes();
        m[3] += d.throttledNanos();
        m[4] += dt;
        queue.computeIfAbsent(d.device(), k -> new double[1])[0] += d.queueDepth() * dt;
      }
    }
    double seconds = (w.toNanos() - w.fromNanos()) / 1e9;
    double covered = coveredTo > coveredFrom ? (coveredTo - coveredFrom) / 1e9 : seconds;

    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scenario", run.spec().scenario());
    s.put("seed", run.spec().seed());
    // the report draws up to simulatedSeconds: the window's end, in the run's time
    s.put("simulatedSeconds", w.toSeconds());
    Map<String, Object> win = new LinkedHashMap<>();
    win.put("fromSeconds", w.fromSeconds());
    win.put("toSeconds", w.toSeconds());
    win.put("seconds", Summary.round(seconds, 9));
    win.put("commitIntervalsFromSeconds", coveredTo > coveredFrom ? coveredFrom / 1e9 : null);
    win.put("commitIntervalsToSeconds", coveredTo > coveredFrom ? coveredTo / 1e9 : null);
    win.put("rule", "interval facts whose interval starts in [fromSeconds, toSeconds); instants whose time is in it");
    s.put("window", win);
    s.put("digest", run.outcome() == null ? null : run.outcome().toRunOutcome().digestHex());
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("count", commits);
    c.put("perSecond", Summary.round(commits / covered));
    if (warmupCommits > 0) c.put("warmupCommitsLeftOut", warmupCommits);
    Map<String, Object> lat = new LinkedHashMap<>();
    boolean any = commits > 0;
    lat.put("min", any ? Summary.round(latencies.getMinValue() / 1e3) : null);
    lat.put("mean", any ? Summary.round(sum / (double) commits / 1e3) : null);
    double[] pc = {50, 90, 95, 99, 99.9};
    String[] keys = {"p50", "p90", "p95", "p99", "p999"};
    for (int i = 0; i < pc.length; i++) {
      lat.put(keys[i], any ? Summary.round(Math.min(latencies.getValueAtPercentile(pc[i]), max) / 1e3) : null);
    }
    lat.put("max", any ? Summary.round(max / 1e3) : null);
    c.put("latencyUs", lat);
    s.put("commits", c);
    if (anyLog) {
      Map<String, Object> log = new LinkedHashMap<>();
      log.put("writes", writes);
      log.put("pages", pages);
      log.put("bytes", bytes);
      log.put("pagesPerWrite", writes == 0 ? 0.0 : Summary.round(pages / (double) writes));
      s.put("log", log);
    }
    if (!devices.isEmpty()) {
      Map<String, Object> devs = new LinkedHashMap<>();
      devices.forEach((name, m) -> {
        double dt = m[4] / 1e9;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("reads", m[0]);
        d.put("writes", m[1]);
        d.put("iops", dt == 0 ? 0.0 : Summary.round((m[0] + m[1]) / dt));
        d.put("mbPerSec", dt == 0 ? 0.0 : Summary.round(m[2] / 1e6 / dt));
        d.put("bytes", m[2]);
        d.put("meanQueueDepth", m[4] == 0 ? 0.0 : Summary.round(queue.get(name)[0] / m[4]));
        d.put("throttledUs", Summary.round(m[3] / 1e3));
        d.put("seconds", Summary.round(dt, 9));
        devs.put(name, d);
      });
      s.put("devices", devs);
    }

    List<String> lines = new ArrayList<>();
    lines.addAll(Text.lines("window", "[" + Text.number(w.fromSeconds()) + ", " + Text.number(w.toSeconds())
        + ") simulated s of " + run.runId() + " (" + run.spec().scenario() + ")"));
    lines.addAll(Text.lines("commits", Text.count(commits) + (any ? String.format(Locale.ROOT, " (%,.1f/s), latency "
        + "mean %s, p99 %s, max %s", commits / covered, Text.latencyUs((Double) lat.get("mean")),
        Text.latencyUs((Double) lat.get("p99")), Text.latencyUs((Double) lat.get("max"))) : "")));
    if (anyLog) lines.addAll(Text.lines("log", Text.count(writes) + " writes, " + Text.count(pages) + " pages"));
    devices.forEach((name, m) -> lines.addAll(Text.lines("device", name + ": " + Text.count(m[1]) + " writes, "
        + Text.count(m[0]) + " reads")));
    return new Window(s, lines, facts);
  }
}
