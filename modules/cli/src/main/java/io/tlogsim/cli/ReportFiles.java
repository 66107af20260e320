package io.tlogsim.cli;

import io.tlogsim.analysis.LatencyLog;
import io.tlogsim.analysis.SummaryWriter;
import io.tlogsim.analysis.report.RunReport;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.database.series.CommitInterval;
import io.tlogsim.database.series.Histograms;
import io.tlogsim.journal.StoredFact;
import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The files beside summary.json that come from a run's result and facts: the kind's own series (a storage run's
 * devices.csv), report.html and a CSV per time series. Live runs, replays and {@code tlogsim report} write them
 * through here from the same inputs, so a replay gives the live run's bytes.
 */
final class ReportFiles {
  private ReportFiles() {}

  /**
   * Writes the files and returns them in name order.
   *
   * @param summary summary.json as written (with its runId and provenance)
   * @param topology the run's topology, for the components' names (null: a run whose topology is not known here)
   */
  static List<Path> write(Path dir, String runId, Map<String, Object> summary, ScenarioResult result,
      List<RecordedFact> facts, Topology topology) throws IOException {
    return write(dir, runId, summary, result, facts, topology, List.of());
  }

  /** As above, with the simulated times (s) of the run's checkpoints, marked on the report's timeline. */
  static List<Path> write(Path dir, String runId, Map<String, Object> summary, ScenarioResult result,
      List<RecordedFact> facts, Topology topology, List<Double> checkpoints) throws IOException {
    List<String> names = new ArrayList<>();
    for (int id = 0; topology != null && id < topology.components(); id++) names.add(topology.name(id));
    return write(dir, runId, summary, result, facts, names, checkpoints);
  }

  /** As above, with the components' names by id (a run on a cluster, whose topology was made there). */
  static List<Path> write(Path dir, String runId, Map<String, Object> summary, ScenarioResult result,
      List<RecordedFact> facts, List<String> components) throws IOException {
    return write(dir, runId, summary, result, facts, components, List.of());
  }

  private static List<Path> write(Path dir, String runId, Map<String, Object> summary, ScenarioResult result,
      List<RecordedFact> facts, List<String> components, List<Double> checkpoints) throws IOException {
    TreeMap<String, String> files = new TreeMap<>(result.files());
    files.putAll(RunReport.files(new RunReport.Input(runId, SummaryWriter.withRunId(runId, summary),
        result.humanLines(), result.tables(), facts,
        id -> id < components.size() ? components.get(id) : "component-" + id, checkpoints)));
    List<Path> written = new ArrayList<>();
    for (Map.Entry<String, String> f : files.entrySet()) {
      written.add(Files.writeString(dir.resolve(f.getKey()), f.getValue()));
    }
    List<LatencyLog.Interval> intervals = latencyIntervals(summary, facts, components);
    if (!intervals.isEmpty()) LatencyLog.writeIntervals(dir, runId, intervals); // in place of the whole run's
    return written;
  }

  /**
   * The commits' latencies per report interval and database (the pools of an interval merged), for latency.hlog;
   * empty when the run's sessions record no CommitInterval facts.
   */
  static List<LatencyLog.Interval> latencyIntervals(Map<String, Object> summary, List<RecordedFact> facts,
      List<String> components) {
    long end = RunReport.runEndNanos(summary);
    TreeMap<String, TreeMap<Long, Object[]>> byDb = new TreeMap<>(); // db -> from -> {to, warmup, histogram}
    for (RecordedFact f : facts) {
      if (!(f.fact() instanceof CommitInterval c)) continue;
      String name = f.component() < components.size() ? components.get(f.component()) : "";
      String db = name.lastIndexOf('/') < 0 ? "" : name.substring(0, name.lastIndexOf('/'));
      Object[] m = byDb.computeIfAbsent(db, k -> new TreeMap<>()).computeIfAbsent(c.fromNanos(), k -> {
        Histogram h = new Histogram(3);
        h.setAutoResize(true);
        return new Object[] {c.toNanos(), c.warmup(), h};
      });
      if (c.commits() > 0) Histograms.addTo((Histogram) m[2], c.latencies());
    }
    List<LatencyLog.Interval> out = new ArrayList<>();
    boolean one = byDb.size() == 1;
    byDb.forEach((db, intervals) -> intervals.forEach((from, m) -> {
      if (from >= end && ((Histogram) m[2]).getTotalCount() == 0) return; // past the run's end, empty
      boolean warmup = (Boolean) m[1];
      String tag = one ? (warmup ? "warmup" : null) : (db.isEmpty() ? "commits" : db) + (warmup ? "-warmup" : "");
      out.add(new LatencyLog.Interval(tag, from / 1e9, Math.min((Long) m[0], end) / 1e9, (Histogram) m[2]));
    }));
    return out;
  }

  /** The interval facts of a stored run, as the kernel handed them out (a full trace's other facts left aside). */
  static List<RecordedFact> intervalFacts(List<StoredFact> stored) {
    List<RecordedFact> out = new ArrayList<>();
    for (StoredFact f : stored) {
      if (f.fact() instanceof IntervalFact) out.add(new RecordedFact(f.time(), f.component(), f.fact()));
    }
    return out;
  }

  /**
   * The interval facts of a stored run, streamed from its journal: a full trace's other facts (millions) are read and
   * dropped one by one, never held.
   */
  static List<RecordedFact> intervalFacts(io.tlogsim.journal.RunStore store, String runId) {
    List<RecordedFact> out = new ArrayList<>();
    store.facts(runId, f -> {
      if (f.fact() instanceof IntervalFact) out.add(new RecordedFact(f.time(), f.component(), f.fact()));
    });
    return out;
  }

  /**
   * The simulated times (s) of run {@code runId}'s checkpoints in {@code journal}, for the timeline: the live run and
   * its replay read them from the same place, so that both write the same report.
   */
  static List<Double> checkpointSeconds(io.tlogsim.journal.Journal journal, String runId) {
    List<Double> out = new ArrayList<>();
    io.tlogsim.journal.RunState state = journal.store().state(runId);
    for (long t : journal.store().checkpointTimes(runId, state)) out.add(Math.round(t / 1e3) / 1e6);
    return out;
  }

  /** "report.html, commit-intervals.csv, ..." for the summary's last lines. */
  static String names(List<Path> files) {
    List<String> names = new ArrayList<>();
    for (Path p : files) if (p.getFileName().toString().equals(RunReport.FILE)) names.add(RunReport.FILE);
    for (Path p : files) if (!p.getFileName().toString().equals(RunReport.FILE)) names.add(p.getFileName().toString());
    return String.join(", ", names);
  }
}
