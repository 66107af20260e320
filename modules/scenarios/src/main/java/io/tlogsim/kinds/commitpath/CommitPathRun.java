package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.data.DataFileGrowth;
import io.tlogsim.database.data.DataStats;
import io.tlogsim.database.log.FileStats;
import io.tlogsim.database.log.LogCrash;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.Msdb;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.database.session.PoolStats;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.DeviceSummary;
import io.tlogsim.scenario.summary.LogSpaceReport;
import io.tlogsim.scenario.summary.RunFigures;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Runs a commit-path model and reports it: summary.json (DESIGN.md names: commits.*, log.*, devices.*, waits.*,
 * phases[]), the one-screen text, and the tables DBAs know (Informix onstat -l, wait statistics, per-file I/O shaped
 * like sys.dm_io_virtual_file_stats).
 */
public final class CommitPathRun {
  private CommitPathRun() {}

  /** Wait types as summary.json names them. */
  public static final String WRITELOG = "WRITELOG";
  public static final String CPU = "CPU";
  public static final String LOGBUFFER = "LOGBUFFER";

  /** What one finished run measured, for reports that put several runs side by side. */
  public record Outcome(CommitPathModel.Model model, RunOutcome run, PoolStats sessions, LogStats log,
      List<DeviceStats> devices, List<Phases.Phase> phases, double elapsedSeconds) {

    public CommitStats commits() {
      return sessions.commits();
    }
  }

  /** What a finished run of {@code m} measured; the workload's time is until its last session finished. */
  public static Outcome outcome(CommitPathModel.Model m, RunOutcome out, long endNanos) {
    PoolStats sessions = CommitPathModel.sessions(m, out);
    long workloadEnd = Phases.workloadEnd(sessions, m.spec().script().steps().size());
    long end = workloadEnd >= 0 ? workloadEnd : endNanos;
    LogStats log = CommitPathModel.log(m, out);
    if (log.crash() != null) end = Math.min(end, log.crash().atNanos()); // the workload stopped with the server
    return new Outcome(m, out, sessions, log, CommitPathModel.devices(m, out),
        Phases.of(sessions, end), end / 1e9);
  }

  /** A commit-path scenario made ready to run: fresh models on demand, the report from the finished run. */
  public static PreparedRun prepare(String kind, String scenario, Params p, RunControl control,
      CommitPathModel.Spec spec, long end) {
    return prepare(List.of(""), List.of(spec), end, outcomes -> report(kind, scenario, p, control, outcomes.get(0)));
  }

  /**
   * Several databases side by side in one run (independent groups of components, see
   * {@link CommitPathModel#build(List, List)}), reported together from their outcomes, in the order given.
   */
  public static PreparedRun prepare(List<String> names, List<CommitPathModel.Spec> specs, long end,
      Function<List<Outcome>, ScenarioResult> report) {
    List<CommitPathModel.Model> models = CommitPathModel.build(names, specs);
    return new PreparedRun() {
      private boolean first = true;

      @Override
      public Topology topology() {
        return models.get(0).topology();
      }

      @Override
      public List<SimComponent> models() {
        List<SimComponent> ms = first ? models.get(0).components()
            : CommitPathModel.build(names, specs).get(0).components();
        first = false;
        return ms;
      }

      @Override
      public ScenarioResult result(RunOutcome out) {
        List<Outcome> outcomes = new ArrayList<>();
        for (CommitPathModel.Model m : models) outcomes.add(outcome(m, out, end));
        return report.apply(outcomes);
      }
    };
  }

  /** The recovery manager's account of the crash's recovery, or null: none timed (no VLFs, or it did not finish). */
  private static RecoveryManager.Stats recovery(Outcome o) {
    if (o.model().recoveryManager() < 0) return null;
    RecoveryManager.Stats rm = (RecoveryManager.Stats) o.run().results().get(o.model().recoveryManager());
    return rm.recoveries().isEmpty() ? null : rm;
  }

  /**
   * Commits the sessions were told were done and the hardened log does not hold (REFERENCE.md 3). A session's commits
   * are logged and acknowledged in order, so each side is a prefix of its commits: the lost are the acknowledged beyond
   * the hardened, less those that failed with 9002 (the model acknowledges a commit that does not wait before the log
   * takes it; those were never going to be logged).
   */
  public static long lost(long[] acknowledged, long[] hardened, long[] failedUnwaited) {
    long lost = 0;
    for (int s = 0; s < acknowledged.length; s++) {
      lost += Math.max(0, acknowledged[s] - hardened[s] - failedUnwaited[s]);
    }
    return lost;
  }

  /** The summary, text and tables of one run. */
  public static ScenarioResult report(String kind, String scenario, Params p, RunControl control, Outcome o) {
    double seconds = o.elapsedSeconds();
    double wall = o.run().wallNanos() / 1e9;
    CommitStats c = o.commits();
    LogStats log = o.log();
    PoolStats ps = o.sessions();
    double warmup = o.model().spec().workload().warmupNanos() / 1e9;
    double perSecond = ratio(c.count(), seconds - warmup); // the commits counted are those after the warm-up
    double pagesPerWrite = ratio(log.pages(), log.writes());
    double recordsPerPage = ratio(log.records(), log.pages());

    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scenario", scenario);
    s.put("kind", kind);
    s.put("seed", control.seed());
    s.put("simulatedSeconds", Math.round(seconds * 1e9) / 1e9);
    s.put("warmupSeconds", warmup);
    s.put("digest", o.run().digestHex());

    Map<String, Object> commits = new LinkedHashMap<>();
    commits.put("count", c.count());
    commits.put("perSecond", round(perSecond));
    commits.put("warmupSeconds", warmup);
    commits.put("latencyUs", latency(c));
    commits.put("durable", log.durableCommits());
    commits.put("acknowledgedEarly", log.lazyCommits());
    LogCrash crash = log.crash();
    long lost = crash == null ? 0 : lost(ps.acknowledgedAtCrash(), crash.hardenedCommits(), crash.failedUnwaited());
    commits.put("lost", lost);
    commits.put("acknowledgedNotHardened", log.ackedNotHardened());
    commits.put("maxAcknowledgedNotHardened", log.maxAckedNotHardened());
    s.put("commits", commits);

    Map<String, Object> l = new LinkedHashMap<>();
    l.put("records", log.records());
    l.put("pages", log.pages());
    l.put("writes", log.writes());
    l.put("pagesPerWrite", round(pagesPerWrite));
    l.put("recordsPerPage", round(recordsPerPage));
    l.put("bytes", log.bytesWritten());
    l.put("recordBytes", log.recordBytes());
    l.put("pageBytes", log.pageBytes());
    l.put("blockPages", log.blockPages());
    l.put("policy", log.policy());
    l.put("flushRequests", log.flushRequests());
    l.put("checkpoints", log.checkpoints());
    s.put("log", l);

    Map<String, Object> devices = new LinkedHashMap<>();
    for (DeviceStats d : o.devices()) devices.put(d.name(), DeviceSummary.device(d, seconds));
    s.put("devices", devices);

    List<Map<String, Object>> files = new ArrayList<>();
    for (FileStats.Snapshot f : log.files()) {
      Map<String, Object> fm = new LinkedHashMap<>();
      fm.put("fileId", f.fileId());
      fm.put("name", f.name());
      fm.put("type", f.type());
      fm.put("reads", f.reads());
      fm.put("bytesRead", f.bytesRead());
      fm.put("ioStallReadMs", round(f.readStallNanos() / 1e6));
      fm.put("writes", f.writes());
      fm.put("bytesWritten", f.bytesWritten());
      fm.put("ioStallWriteMs", round(f.writeStallNanos() / 1e6));
      fm.put("writesPerSecond", round(ratio(f.writes(), seconds)));
      fm.put("mbWrittenPerSecond", round(ratio(f.bytesWritten() / 1e6, seconds)));
      files.add(fm);
    }
    s.put("files", files);

    Map<String, Object> waits = new LinkedHashMap<>();
    waits.put(WRITELOG, wait(log.writelogCount(), log.writelogNanos(), log.writelogMaxNanos()));
    waits.put(CPU, wait(ps.cpuWaits(), ps.cpuWaitNanos(), ps.cpuMaxWaitNanos()));
    waits.put(LOGBUFFER, wait(log.logBufferWaits(), log.logBufferWaitNanos(), -1));
    s.put("waits", waits);

    Map<String, Object> cpu = new LinkedHashMap<>();
    int cores = o.model().spec().workload().cores();
    cpu.put("cores", cores);
    cpu.put("busySeconds", round(ps.cpuBusyNanos() / 1e9));
    cpu.put("utilization", cores == 0 ? null : round(ratio(ps.cpuBusyNanos() / 1e9, seconds * cores)));
    cpu.put("statements", ps.statements());
    cpu.put("rows", ps.rows());
    s.put("cpu", cpu);

    DataStats data = log.data();
    if (data != null) {
      Map<String, Object> dm = new LinkedHashMap<>();
      dm.put("lazyWrites", data.lazyWrites());
      dm.put("checkpointWrites", data.checkpointWrites());
      dm.put("checkpoints", data.checkpoints());
      dm.put("dirtyPagesAtEnd", data.dirtyPagesAtEnd());
      if (log.dataGrowth() != null) {
        DataFileGrowth.Stats g = log.dataGrowth();
        dm.put("sizeMB", round(g.sizeBytes() / (double) (1 << 20)));
        dm.put("usedMB", round(g.usedBytes() / (double) (1 << 20)));
        dm.put("growths", g.growths());
        dm.put("zeroedBytes", g.zeroedBytes());
        dm.put("growthStallMs", round(g.stallNanos() / 1e6));
      }
      s.put("data", dm);
    }
    BackupAgent.Stats agentStats = o.model().backupAgent() < 0 ? null
        : (BackupAgent.Stats) o.run().results().get(o.model().backupAgent());
    if (agentStats != null) {
      s.put("backups", ReadersReport.backups(agentStats, p.getInt("backupPageBytes")));
      if (!agentStats.restores().isEmpty()) s.put("restore", ReadersReport.restore(agentStats));
    }
    if (o.model().msdb() >= 0) {
      s.put("backupHistory", ReadersReport.history((Msdb.Stats) o.run().results().get(o.model().msdb())));
    }
    if (o.model().replicationReader() >= 0) {
      s.put("replication", ReadersReport.replication((ReplicationLogReader.Stats) o.run().results()
          .get(o.model().replicationReader())));
    }
    if (crash != null) {
      Map<String, Object> cm = new LinkedHashMap<>();
      cm.put("atSeconds", crash.atNanos() / 1e9);
      cm.put("logBytesLost", crash.logBytesLost());
      cm.put("commitsLost", lost);
      cm.put("commitRecordsNotHardened", crash.unhardenedCommits());
      cm.put("commitsWaitingForBuffer", crash.pendingCommits());
      cm.put("acknowledgedOnTheirWay", ps.inFlightAtCrash());
      s.put("crash", cm);
      RecoveryManager.Stats timed = recovery(o);
      if (timed != null) { // the log space said what recovery reads: timed through the storage models
        s.put("recovery", ReadersReport.recovery(timed));
      } else {
        Map<String, Object> rm = new LinkedHashMap<>();
        rm.put("rolledForward", crash.rolledForward());
        rm.put("rolledBack", crash.rolledBack());
        if (o.model().recoveryManager() >= 0) rm.put("finished", false); // timed, but the run ended first
        s.put("recovery", rm);
      }
    }
    if (crash == null && recovery(o) != null) s.put("recovery", ReadersReport.recovery(recovery(o))); // a crash step
    if (crash == null && recovery(o) == null && o.model().recoveryManager() >= 0
        && o.model().spec().script().has(io.tlogsim.database.script.Step.Type.CRASH)) {
      Map<String, Object> rm = new LinkedHashMap<>();
      rm.put("finished", false); // the run ended before recovery did
      s.put("recovery", rm);
    }
    s.put("phases", Phases.toSummary(o.phases()));

    Map<String, Object> run = RunFigures.of(control, o.run()); // threads, nodes, what crossed between them
    run.put("pools", o.model().pools());
    run.put("commitsPerWallSecond", round(ratio(c.count(), wall)));
    s.put("run", run);
    s.put("params", p.asMap());

    int sessions = o.model().spec().sessions();
    List<String> lines = new ArrayList<>(Text.lines("scenario", scenario + " (" + kind + ")", "seed " + control.seed(),
        String.format(Locale.ROOT, "%.3f simulated s", seconds), Text.plural(sessions, "session"),
        "flush policy " + log.policy()));
    if (c.count() == 0) {
      lines.addAll(Text.lines("commits", "none acknowledged"));
    } else {
      lines.addAll(Text.lines("commits", Text.count(c.count()) + " (" + String.format(Locale.ROOT, "%,.1f/s", perSecond)
          + ")", "mean " + Text.latencyUs(c.meanLatencyUs()), "p50 " + Text.latencyUs(c.percentileUs(50)),
          "p99 " + Text.latencyUs(c.percentileUs(99)), "max " + Text.latencyUs(c.latencyMaxNanos() / 1e3)));
    }
    if (warmup > 0) {
      lines.addAll(Text.paragraph("warm-up", "the first " + Text.number(warmup) + " simulated s are left out of the"
          + " commit figures (log, device, wait and CPU figures cover the whole run)"));
    }
    if (log.lazyCommits() > 0) {
      lines.addAll(Text.lines("", Text.count(log.lazyCommits()) + " acknowledged before hardening",
          "at most " + Text.count(log.maxAckedNotHardened()) + " exposed at once",
          Text.count(log.ackedNotHardened()) + " at the end"));
    }
    if (o.model().backupAgent() >= 0) {
      BackupAgent.Stats agent = (BackupAgent.Stats) o.run().results().get(o.model().backupAgent());
      for (BackupAgent.Message m : agent.messages()) {
        if (m.text().contains("successfully processed")) lines.addAll(Text.paragraph("backup", m.text()));
      }
    }
    if (crash != null) {
      lines.addAll(Text.lines("crash", "power lost at " + Text.latencyUs(crash.atNanos() / 1e3) + " simulated",
          Text.plural(lost, "acknowledged commit") + " lost", Text.plural(crash.logBytesLost(), "log byte")
          + " not hardened"));
      RecoveryManager.Stats timed = recovery(o);
      List<String> items = new ArrayList<>(List.of("rolls forward " + Text.plural(crash.rolledForward(), "commit"),
          "rolls back " + Text.plural(crash.rolledBack(), "transaction")));
      if (timed == null && o.model().recoveryManager() >= 0) {
        items.add("not finished when the run ended (give simulatedSeconds more room after the crash)");
      }
      if (timed != null) {
        RecoveryManager.Recovery r = timed.recoveries().get(0);
        items.addAll(List.of("start-up " + Text.latencyUs(r.startDelayNanos() / 1e3) + " ("
            + Text.plural(r.headerReads(), "VLF header") + ")", "analysis " + Text.latencyUs(r.analysisNanos() / 1e3),
            "redo " + Text.latencyUs(r.redoNanos() / 1e3), "undo " + Text.latencyUs(r.undoNanos() / 1e3)));
      }
      lines.addAll(Text.lines("recovery", items.toArray(new String[0])));
    }
    if (crash == null && recovery(o) != null) lines.addAll(ReadersReport.recoveryLines(recovery(o).recoveries().get(0)));
    if (agentStats != null) for (BackupAgent.Restore r : agentStats.restores()) lines.addAll(ReadersReport.restoreLines(r));
    lines.addAll(Text.lines("log", Text.plural(log.records(), "record") + " in " + Text.plural(log.writes(), "write"),
        String.format(Locale.ROOT, "%.1f pages/write", pagesPerWrite),
        String.format(Locale.ROOT, "%.2f records/page", recordsPerPage), Text.plural(log.bytesWritten(), "byte")));
    for (DeviceStats d : o.devices()) {
      if (d.name().matches(".*-m\\d+")) continue; // a RAID's members: in summary.json
      lines.addAll(Text.lines("device", d.name() + ": " + d.model(),
          Text.whole(ratio(d.reads() + d.writes(), seconds)) + " IOPS",
          String.format(Locale.ROOT, "%.2f MB/s", ratio(d.bytesWritten() / 1e6, seconds)),
          "mean latency " + Text.latencyUs(d.meanLatencyUs())));
    }
    lines.addAll(Text.lines("waits", "WRITELOG " + Text.count(log.writelogCount()) + " ("
        + Text.latencyUs(log.writelogNanos() / 1e3) + ")", "CPU " + Text.count(ps.cpuWaits()) + " ("
        + Text.latencyUs(ps.cpuWaitNanos() / 1e3) + ")", "LOGBUFFER " + Text.count(log.logBufferWaits()) + " ("
        + Text.latencyUs(log.logBufferWaitNanos() / 1e3) + ")"));
    if (data != null) {
      lines.addAll(Text.lines("data", Text.count(data.lazyWrites()) + " lazy-writer page writes",
          Text.count(data.checkpointWrites()) + " checkpoint page writes", Text.plural(data.checkpoints(), "checkpoint"),
          Text.count(data.dirtyPagesAtEnd()) + " pages dirty at the end"));
      DataFileGrowth.Stats g = log.dataGrowth();
      if (g != null && g.growths() > 0) {
        lines.addAll(Text.lines("", "the file grew " + Text.plural(g.growths(), "time") + " to "
            + Text.whole(g.sizeBytes() / (double) (1 << 20)) + " MB", g.zeroedBytes() == 0 ? "not zeroed (IFI)"
            : "zeroing stalled the log " + Text.latencyUs(g.stallNanos() / 1e3)));
      }
    }
    List<String> phaseItems = new ArrayList<>();
    for (Phases.Phase f : o.phases()) {
      phaseItems.add(f.name() + " " + String.format(Locale.ROOT, "%.3f s", f.seconds()) + (f.ended() ? "" : " (not ended)"));
    }
    lines.addAll(Text.lines("phases", phaseItems));
    lines.addAll(Text.lines("run", String.format(Locale.ROOT, "%.2f wall s on %s", wall,
        Text.plural(control.threads(), "thread")), Text.plural(o.run().windows(), "window"),
        Text.whole(ratio(o.run().events(), wall)) + " events/s",
        String.format(Locale.ROOT, "%.4f messages/event", o.run().messagesPerEvent())));
    lines.add("digest       " + o.run().digestHex());

    Map<String, List<String>> tables = new LinkedHashMap<>();
    tables.put("onstat", onstat(log));
    tables.put("waits", waitTable(log, ps));
    tables.put("filestats", fileTable(log));
    if (agentStats != null) tables.put("messages", ReadersReport.timeline(agentStats.messages()));
    if (o.model().recoveryManager() >= 0) {
      tables.put("errorlog", ReadersReport.timeline(((RecoveryManager.Stats) o.run().results()
          .get(o.model().recoveryManager())).errorLog()));
    }
    if (log.logSpace() instanceof ManagedLogSpace.Report space) { // SQL Server's log space (kind log-space)
      List<String> digest = new ArrayList<>(lines.subList(lines.size() - 1, lines.size()));
      lines.remove(lines.size() - 1);
      LogSpaceReport.addTo(space, scenario, s, lines, tables);
      lines.addAll(digest);
    }
    return new Result(s, lines, tables, Map.of("commits", c.latencies()));
  }

  /** A result built from another's summary and text, keeping its latency histograms. */
  public static ScenarioResult result(Map<String, Object> summary, List<String> lines,
      Map<String, List<String>> tables, ScenarioResult from) {
    return new Result(summary, lines, tables, from.histograms());
  }

  record Result(Map<String, Object> summary, List<String> humanLines, Map<String, List<String>> tables,
      Map<String, Histogram> histograms) implements ScenarioResult {}

  /** Informix's onstat -l, the logical-logging part: the log buffer and what was written. */
  static List<String> onstat(LogStats log) {
    List<String> t = new ArrayList<>();
    t.add("Logical Logging");
    t.add("Buffer bufused  bufsize  numrecs    numpages   numwrits   recs/pages pages/io");
    t.add(String.format(Locale.ROOT, "  L-1  %-7d %-8d %-10d %-10d %-10d %-10.1f %.1f", 0, log.blockPages(),
        log.records(), log.pages(), log.writes(), ratio(log.records(), log.pages()),
        ratio(log.pages(), log.writes())));
    return t;
  }

  /** Wait statistics shaped like sys.dm_os_wait_stats. */
  static List<String> waitTable(LogStats log, PoolStats ps) {
    List<String> t = new ArrayList<>();
    t.add(String.format(Locale.ROOT, "%-12s %20s %14s %17s %12s", "wait_type", "waiting_tasks_count", "wait_time_ms",
        "max_wait_time_ms", "avg_wait_ms"));
    t.add(waitRow(WRITELOG, log.writelogCount(), log.writelogNanos(), log.writelogMaxNanos()));
    t.add(waitRow(CPU, ps.cpuWaits(), ps.cpuWaitNanos(), ps.cpuMaxWaitNanos()));
    t.add(waitRow(LOGBUFFER, log.logBufferWaits(), log.logBufferWaitNanos(), -1));
    return t;
  }

  private static String waitRow(String type, long count, long nanos, long maxNanos) {
    return String.format(Locale.ROOT, "%-12s %20d %14.1f %17s %12.3f", type, count, nanos / 1e6,
        maxNanos < 0 ? "-" : String.format(Locale.ROOT, "%.1f", maxNanos / 1e6), count == 0 ? 0 : nanos / 1e6 / count);
  }

  /** Per-file I/O shaped like sys.dm_io_virtual_file_stats. */
  static List<String> fileTable(LogStats log) {
    List<String> t = new ArrayList<>();
    t.add(String.format(Locale.ROOT, "%-7s %-5s %-5s %12s %17s %16s %13s %20s %17s %11s", "file_id", "type", "name",
        "num_of_reads", "num_of_bytes_read", "io_stall_read_ms", "num_of_writes", "num_of_bytes_written",
        "io_stall_write_ms", "io_stall_ms"));
    for (FileStats.Snapshot f : log.files()) {
      t.add(String.format(Locale.ROOT, "%-7d %-5s %-5s %12d %17d %16.1f %13d %20d %17.1f %11.1f", f.fileId(), f.type(),
          f.name(), f.reads(), f.bytesRead(), f.readStallNanos() / 1e6, f.writes(), f.bytesWritten(),
          f.writeStallNanos() / 1e6, (f.readStallNanos() + f.writeStallNanos()) / 1e6));
    }
    return t;
  }

  /** commits.latencyUs as DESIGN.md names it; every figure null when no commit was acknowledged. */
  public static Map<String, Object> latency(CommitStats c) {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean any = c.count() > 0;
    m.put("min", any ? round(c.minLatencyUs()) : null);
    m.put("mean", any ? round(c.meanLatencyUs()) : null);
    m.put("stddev", any ? round(c.stddevLatencyUs()) : null);
    for (String[] pct : new String[][] {{"p50", "50"}, {"p90", "90"}, {"p95", "95"}, {"p99", "99"}, {"p999", "99.9"}}) {
      m.put(pct[0], any ? round(c.percentileUs(Double.parseDouble(pct[1]))) : null);
    }
    m.put("max", any ? round(c.latencyMaxNanos() / 1e3) : null);
    return m;
  }

  private static Map<String, Object> wait(long count, long nanos, long maxNanos) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", count);
    m.put("totalMs", round(nanos / 1e6));
    if (maxNanos >= 0) m.put("maxMs", round(maxNanos / 1e6));
    return m;
  }

  static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

}
