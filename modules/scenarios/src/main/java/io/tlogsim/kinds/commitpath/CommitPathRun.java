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
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.RunFigures;
import io.tlogsim.scenario.summary.Summary;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

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
      List<DeviceStats> devices, List<Summary.Phase> phases, double elapsedSeconds) {

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
    return PreparedRun.of(() -> CommitPathModel.build(names, specs), models -> models.get(0).topology(),
        models -> models.get(0).components(), (models, out) -> {
          List<Outcome> outcomes = new ArrayList<>();
          for (CommitPathModel.Model m : models) outcomes.add(outcome(m, out, end));
          return report.apply(outcomes);
        });
  }

  /** The recovery manager's account of the crash's recovery, or null: none timed (no VLFs, or it did not finish). */
  private static RecoveryManager.Stats recovery(Outcome o) {
    RecoveryManager.Stats rm = recoveries(o);
    return rm == null || rm.firstAfterCrash() == null ? null : rm;
  }

  /** The recovery manager's account of every recovery (a crash's, a restore's), or null: no recovery manager. */
  private static RecoveryManager.Stats recoveries(Outcome o) {
    if (o.model().recoveryManager() < 0) return null;
    return (RecoveryManager.Stats) o.run().results().get(o.model().recoveryManager());
  }

  /**
   * Commits the sessions were told were done and the hardened log does not hold (REFERENCE.md 3). A session's commits
   * are logged and acknowledged in order, so each side is a prefix of its commits: the lost are the acknowledged beyond
   * the hardened (a commit that failed with 9002 is neither: its session was told FAILED; one hardened before its
   * session was told is hardened and not acknowledged, hence the floor at 0).
   */
  public static long lost(long[] acknowledged, long[] hardened) {
    long lost = 0;
    for (int s = 0; s < acknowledged.length; s++) {
      lost += Math.max(0, acknowledged[s] - hardened[s]);
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

    LogCrash crash = log.crash();
    long lost = crash == null ? 0 : lost(ps.acknowledgedAtCrash(), crash.hardenedCommits());
    DataStats data = log.data();
    int cores = o.model().spec().workload().cores();
    RecoveryManager.Stats timed = crash == null ? null : recovery(o);
    // SQL Server's log space (kind log-space): its VLFs, growths and 9002 errors
    ManagedLogSpace.Report space = log.logSpace() instanceof ManagedLogSpace.Report r ? r : null;
    Summary summary = Summary.head(scenario, kind, control.seed(), Math.round(seconds * 1e9) / 1e9, warmup,
            o.run().digestHex())
        .commits(k -> k.count(c.count()).perSecond(perSecond).warmupSeconds(warmup).latencyUs(c)
            .durable(log.durableCommits()).acknowledgedEarly(log.lazyCommits()).lost(lost)
            .acknowledgedNotHardened(log.ackedNotHardened(), log.maxAckedNotHardened()));
    if (ps.arrivals() != null) summary.put("arrivals", arrivals(p, ps.arrivals(), seconds));
    summary.log(l -> {
          l.written(log).manager(log);
          if (space != null) l.space(space);
        })
        .devices(o.devices(), seconds)
        .files(log.files(), seconds)
        .waits(w -> {
          w.type(WRITELOG, log.writelogCount(), log.writelogNanos(), log.writelogMaxNanos())
            .type(CPU, ps.cpuWaits(), ps.cpuWaitNanos(), ps.cpuMaxWaitNanos())
            .type(LOGBUFFER, log.logBufferWaits(), log.logBufferWaitNanos(), -1);
          if (space != null) { // sessions wait while a growth is zeroed
            w.type(LogSpaceReport.ZEROING_WAIT, space.growthStalls(), space.growthStallNanos(),
                space.growthStallMaxNanos());
          }
        })
        .cpu(cores, ps.cpuBusyNanos(), seconds, ps.statements(), ps.rows())
        .hostCosts(ps.hostCosts());
    if (data != null) summary.data(data, log.dataGrowth());
    BackupAgent.Stats agentStats = o.model().backupAgent() < 0 ? null
        : (BackupAgent.Stats) o.run().results().get(o.model().backupAgent());
    if (agentStats != null) {
      summary.backups(agentStats, p.getInt("backupPageBytes")).restore(agentStats.restores(),
          recoveries(o) == null ? null : recoveries(o).firstAfterRestore());
    }
    if (o.model().msdb() >= 0) summary.backupHistory((Msdb.Stats) o.run().results().get(o.model().msdb()));
    if (o.model().replicationReader() >= 0) {
      summary.replication((ReplicationLogReader.Stats) o.run().results().get(o.model().replicationReader()));
    }
    if (crash != null) {
      summary.crash(crash, lost, crash.lazyOnTheirWay());
      if (timed != null) { // the log space said what recovery reads: timed through the storage models
        summary.recovery(timed);
      } else {
        summary.recovery(crash, o.model().recoveryManager() >= 0); // timed, but the run ended first
      }
    }
    if (crash == null && recovery(o) != null) summary.recovery(recovery(o)); // a crash step
    if (recoveries(o) != null && !recoveries(o).rollbacks().isEmpty()) summary.rollbacks(recoveries(o).rollbacks());
    if (crash == null && recovery(o) == null && o.model().recoveryManager() >= 0
        && o.model().spec().script().has(io.tlogsim.database.script.Step.Type.CRASH)) {
      summary.recoveryNotFinished(); // the run ended before recovery did
    }
    summary.phases(o.phases())
        .run(control, o.run(), r -> r.pools(o.model().pools()).commitsPerWallSecond(c.count()))
        .params(p);
    if (space != null) summary.logSpaceSamples(space);
    Map<String, Object> s = summary.toMap();

    int sessions = o.model().spec().sessions();
    List<String> lines = new ArrayList<>(Text.lines("scenario", scenario + " (" + kind + ")", "seed " + control.seed(),
        String.format(Locale.ROOT, "%.3f simulated s", seconds), Text.plural(sessions, "session"),
        "flush policy " + (p.asMap().containsKey("flushPolicy") ? PolicyWords.of(p) : log.policy())));
    if (c.count() == 0) {
      lines.addAll(Text.lines("commits", "none acknowledged"));
    } else {
      lines.addAll(Text.lines("commits", Text.count(c.count()) + " (" + String.format(Locale.ROOT, "%,.1f/s", perSecond)
          + ")", "mean " + Text.latencyUs(c.meanLatencyUs()), "p50 " + Text.latencyUs(c.percentileUs(50)),
          "p90 " + Text.latencyUs(c.percentileUs(90)), "p99 " + Text.latencyUs(c.percentileUs(99)), "max " + Text.latencyUs(c.latencyMaxNanos() / 1e3)));
    }
    if (ps.arrivals() != null) {
      long[] a = ps.arrivals();
      lines.addAll(Text.lines("arrivals", Text.number(p.getDouble("arrivalRate")) + "/s asked (Poisson)",
          Text.count(a[0]) + " scheduled", Text.count(a[1]) + " late",
          "lag mean " + Text.latencyUs(a[0] == 0 ? 0 : a[2] / (double) a[0] / 1e3), "max " + Text.latencyUs(a[3] / 1e3)));
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
      List<String> items = new ArrayList<>(List.of("rolls forward " + Text.plural(crash.rolledForward(), "commit"),
          "rolls back " + Text.plural(crash.rolledBack(), "transaction")));
      if (timed == null && o.model().recoveryManager() >= 0) {
        items.add("not finished when the run ended (give simulatedSeconds more room after the crash)");
      }
      if (timed != null) {
        RecoveryManager.Recovery r = timed.firstAfterCrash();
        // what recovery rolled back: a transaction whose rollback after 9002 a crash interrupted is one (the ledger
        // counted it as rolled back when its statement failed)
        items.set(1, "rolls back " + Text.plural(r.rolledBack(), "transaction"));
        if (r.compensationRecordsFound() > 0) {
          items.add("found " + Text.plural(r.compensationRecordsFound(), "compensation record")
              + " of a rollback the crash interrupted");
        }
        items.addAll(List.of("start-up " + Text.latencyUs(r.startDelayNanos() / 1e3) + " ("
            + Text.plural(r.headerReads(), "VLF header") + ")", "analysis " + Text.latencyUs(r.analysisNanos() / 1e3),
            "redo " + Text.latencyUs(r.redoNanos() / 1e3), "undo " + Text.latencyUs(r.undoNanos() / 1e3)));
      }
      lines.addAll(Text.lines("recovery", items.toArray(new String[0])));
    }
    if (space != null) { // a refused statement (Msg 4214, 4208, 3023...; not the 9002s, counted below) is said here
      for (String m : space.messages()) {
        int at = m.indexOf(" s: Msg ");
        if (at > 0 && !m.contains("Msg 9002")) lines.addAll(Text.paragraph("error", "at " + m.substring(0, at + 2)
            + m.substring(at + 2)));
      }
    }
    if (crash == null && recovery(o) != null) lines.addAll(ReadersReport.recoveryLines(recovery(o).firstAfterCrash()));
    RecoveryManager.Recovery restored = recoveries(o) == null ? null : recoveries(o).firstAfterRestore();
    if (restored != null) lines.addAll(ReadersReport.recoveryLines("restore", restored));
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
      String cap = io.tlogsim.scenario.summary.DeviceWords.capNote(d, seconds);
      if (!cap.isEmpty()) lines.addAll(Text.paragraph("", cap));
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
    for (Summary.Phase f : o.phases()) {
      phaseItems.add(f.name() + " " + String.format(Locale.ROOT, "%.3f s", f.seconds()) + (f.ended() ? "" : " (not ended)"));
    }
    lines.addAll(Text.lines("phases", phaseItems));
    List<String> run = new ArrayList<>(List.of(String.format(Locale.ROOT, "%.2f wall s on %s", wall,
        Text.plural(control.threads(), "thread")), Text.plural(o.run().windows(), "window"),
        Text.whole(ratio(o.run().events(), wall)) + " events/s",
        String.format(Locale.ROOT, "%.4f messages/event", o.run().messagesPerEvent())));
    if (RunFigures.busyText(o.run()) != null) run.add(RunFigures.busyText(o.run()));
    lines.addAll(Text.lines("run", run));
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
    if (space != null) {
      List<String> digest = new ArrayList<>(lines.subList(lines.size() - 1, lines.size()));
      lines.remove(lines.size() - 1);
      LogSpaceReport.addTo(space, scenario, lines, tables);
      lines.addAll(digest);
    }
    return ScenarioResult.of(s, lines).withTables(tables).withHistograms(Map.of("commits", c.latencies()));
  }

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

  /** {@code arrivals.*}: the rate asked, the starts scheduled, how many came late and by how much (schedule lag). */
  private static Map<String, Object> arrivals(Params p, long[] a, double seconds) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ratePerSecond", p.getDouble("arrivalRate"));
    m.put("scheduled", a[0]);
    m.put("scheduledPerSecond", round(ratio(a[0], seconds)));
    m.put("late", a[1]);
    m.put("lagMeanUs", a[0] == 0 ? null : round(a[2] / (double) a[0] / 1e3));
    m.put("lagMaxUs", round(a[3] / 1e3));
    return m;
  }

  static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

}
