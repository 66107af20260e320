package io.tlogsim.scenario.summary;

import io.tlogsim.database.data.DataFileGrowth;
import io.tlogsim.database.data.DataStats;
import io.tlogsim.database.log.FileStats;
import io.tlogsim.database.log.LogCrash;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.Msdb;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * summary.json as DESIGN.md names it, built from the models' typed statistics: every name of the contract is written
 * here once, whichever kind reports it. A kind calls the sections it has, in the order it shows them; a section's
 * builder puts the figures it is given, in the order given. Figures are rounded as the contract's readers expect
 * (three decimals unless a section says otherwise).
 */
public final class Summary {
  private final Map<String, Object> map = new LinkedHashMap<>();

  private Summary() {}

  /**
   * The head: {@code scenario}, {@code kind} (null: not written), {@code seed}, {@code simulatedSeconds},
   * {@code warmupSeconds} (null: not written), {@code digest}.
   */
  public static Summary head(String scenario, String kind, long seed, double simulatedSeconds, Double warmupSeconds,
      String digest) {
    Summary s = new Summary();
    s.map.put("scenario", scenario);
    if (kind != null) s.map.put("kind", kind);
    s.map.put("seed", seed);
    s.map.put("simulatedSeconds", simulatedSeconds);
    if (warmupSeconds != null) s.map.put("warmupSeconds", warmupSeconds);
    s.map.put("digest", digest);
    return s;
  }

  /** The summary as nested maps and lists (what summary.json holds). */
  public Map<String, Object> toMap() {
    return map;
  }

  /** A section of the kind's own (a sweep's rows, fio's jobs): the kind names it. */
  public Summary put(String key, Object value) {
    map.put(key, value);
    return this;
  }

  // ------------------------------------------------------------------------------------------------------ commits

  public Summary commits(Consumer<Commits> figures) {
    Commits c = new Commits();
    figures.accept(c);
    map.put("commits", c.m);
    return this;
  }

  /** {@code commits.*}. */
  public static final class Commits {
    private final Map<String, Object> m = new LinkedHashMap<>();

    public Commits count(long n) {
      m.put("count", n);
      return this;
    }

    public Commits perSecond(double v) {
      m.put("perSecond", round(v));
      return this;
    }

    public Commits warmupSeconds(double s) {
      m.put("warmupSeconds", s);
      return this;
    }

    public Commits latencyUs(CommitStats c) {
      m.put("latencyUs", latency(c));
      return this;
    }

    /** Commits acknowledged once their log was hardened. */
    public Commits durable(long n) {
      m.put("durable", n);
      return this;
    }

    /** Commits acknowledged before their log was hardened. */
    public Commits acknowledgedEarly(long n) {
      m.put("acknowledgedEarly", n);
      return this;
    }

    /** Acknowledged commits a crash lost (0 where every commit waits for its log). */
    public Commits lost(long n) {
      m.put("lost", n);
      return this;
    }

    public Commits acknowledgedNotHardened(long now, long most) {
      m.put("acknowledgedNotHardened", now);
      m.put("maxAcknowledgedNotHardened", most);
      return this;
    }
  }

  /**
   * {@code commits.latencyUs}: min, mean, stddev, p50, p90, p95, p99, p999, max; every figure null when no commit was
   * acknowledged (a mean of 0 would read as a very fast log).
   */
  public static Map<String, Object> latency(CommitStats c) {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean any = c.count() > 0;
    m.put("min", any ? round(c.minLatencyUs()) : null);
    m.put("mean", any ? round(c.meanLatencyUs()) : null);
    m.put("stddev", any ? round(c.stddevLatencyUs()) : null);
    for (int i = 0; i < PERCENTILES.length; i++) {
      m.put(PERCENTILE_KEYS[i], any ? round(c.percentileUs(PERCENTILES[i])) : null);
    }
    m.put("max", any ? round(c.latencyMaxNanos() / 1e3) : null);
    return m;
  }

  private static final double[] PERCENTILES = {50, 90, 95, 99, 99.9};
  private static final String[] PERCENTILE_KEYS = {"p50", "p90", "p95", "p99", "p999"};

  // ---------------------------------------------------------------------------------------------------------- log

  public Summary log(Consumer<Log> figures) {
    Log l = new Log();
    figures.accept(l);
    map.put("log", l.m);
    return this;
  }

  /** {@code log.*}. */
  public static final class Log {
    private final Map<String, Object> m = new LinkedHashMap<>();

    /** What a log manager wrote: records, pages, writes, pagesPerWrite, recordsPerPage, bytes. */
    public Log written(LogStats log) {
      m.put("records", log.records());
      m.put("pages", log.pages());
      m.put("writes", log.writes());
      m.put("pagesPerWrite", round(ratio(log.pages(), log.writes())));
      m.put("recordsPerPage", round(ratio(log.records(), log.pages())));
      m.put("bytes", log.bytesWritten());
      return this;
    }

    /** How it wrote: record bytes, page and block size, its policy, flush requests, checkpoints. */
    public Log manager(LogStats log) {
      m.put("recordBytes", log.recordBytes());
      m.put("pageBytes", log.pageBytes());
      m.put("blockPages", log.blockPages());
      m.put("policy", log.policy());
      m.put("flushRequests", log.flushRequests());
      m.put("checkpoints", log.checkpoints());
      return this;
    }

    /** A managed log space at the end: its VLFs, size, use, why it cannot be reused, growths, 9002 errors, files. */
    public Log space(ManagedLogSpace.Report r) {
      vlfs(r.vlfs()).sizeBytes(r.sizeBytes());
      m.put("sizeMB", round(r.sizeBytes() / (double) MIB));
      m.put("usedBytes", r.usedBytes());
      usedPercent(r.usedPercent()).reuseWait(r.reuseWait()).growths(r.growths()).zeroedBytes(r.zeroedBytes())
          .fullErrors(r.fullErrors());
      m.put("firstFullErrorSeconds", r.firstFullNanos() < 0 ? null : round(r.firstFullNanos() / 1e9));
      m.put("fullReason", r.fullErrors() == 0 ? null : r.lastFullReason());
      // a rollback's compensation or end records the full log could not place: 0 when reservations cover rollbacks
      m.put("rollbackWritesNotLogged", r.rollbackWritesNotLogged());
      List<Map<String, Object>> files = new ArrayList<>();
      for (long[] f : r.files()) {
        Map<String, Object> fm = new LinkedHashMap<>();
        fm.put("fileId", f[0]);
        fm.put("sizeBytes", f[1]);
        fm.put("vlfs", f[2]);
        files.add(fm);
      }
      m.put("files", files);
      m.put("messages", r.messages());
      return this;
    }

    public Log writes(long n) {
      m.put("writes", n);
      return this;
    }

    public Log bytes(long n) {
      m.put("bytes", n);
      return this;
    }

    public Log vlfs(long n) {
      m.put("vlfs", n);
      return this;
    }

    public Log sizeBytes(long n) {
      m.put("sizeBytes", n);
      return this;
    }

    public Log usedPercent(double v) {
      m.put("usedPercent", v);
      return this;
    }

    /** Growths during the run. */
    public Log growths(long n) {
      m.put("growths", n);
      return this;
    }

    /** Bytes of log zero-initialized (growths, new files). */
    public Log zeroedBytes(long n) {
      m.put("zeroedBytes", n);
      return this;
    }

    /** Statements that failed with 9002 (the log is full). */
    public Log fullErrors(long n) {
      m.put("fullErrors", n);
      return this;
    }

    /** Why the log cannot be reused (log_reuse_wait_desc). */
    public Log reuseWait(String why) {
      m.put("reuseWait", why);
      return this;
    }

    public Log endLsn(long lsn) {
      m.put("endLsn", lsn);
      return this;
    }
  }

  /** {@code logspace[]}: each DBCC SQLPERF(LOGSPACE) a script took. */
  public Summary logSpaceSamples(ManagedLogSpace.Report r) {
    List<Map<String, Object>> perf = new ArrayList<>();
    long previous = -1;
    for (ManagedLogSpace.SqlPerf p : r.sqlPerf()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("seconds", round(p.atNanos() / 1e9));
      m.put("secondsSincePrevious", previous < 0 ? null : round((p.atNanos() - previous) / 1e9));
      previous = p.atNanos();
      m.put("vlfs", p.vlfs());
      m.put("sizeMB", round(p.sizeBytes() / (double) MIB));
      m.put("usedPercent", p.usedPercent());
      m.put("peakUsedPercent", p.peakUsedPercent());
      m.put("reuseWait", p.reuseWait());
      perf.add(m);
    }
    map.put("logspace", perf);
    return this;
  }

  // ------------------------------------------------------------------------------------------------------ devices

  /** {@code devices.<name>}: every device over the run of {@code seconds} ({@link DeviceSummary#device}). */
  public Summary devices(List<DeviceStats> devices, double seconds) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (DeviceStats d : devices) m.put(d.name(), DeviceSummary.device(d, seconds));
    map.put("devices", m);
    return this;
  }

  /** {@code devices.<name>} as given (devices counted over windows of their own: {@link DeviceSummary#deviceWindow}). */
  public Summary devices(Map<String, Object> devices) {
    map.put("devices", devices);
    return this;
  }

  /** {@code files[]}: per file, I/O shaped like sys.dm_io_virtual_file_stats. */
  public Summary files(List<FileStats.Snapshot> files, double seconds) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (FileStats.Snapshot f : files) {
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
      out.add(fm);
    }
    map.put("files", out);
    return this;
  }

  // -------------------------------------------------------------------------------------------------- waits, cpu

  public Summary waits(Consumer<Waits> figures) {
    Waits w = new Waits();
    figures.accept(w);
    map.put("waits", w.m);
    return this;
  }

  /** {@code waits.<TYPE>}: count, totalMs and, where it is kept, maxMs. */
  public static final class Waits {
    private final Map<String, Object> m = new LinkedHashMap<>();

    /** A wait type; {@code maxNanos} < 0: its longest wait is not kept. */
    public Waits type(String type, long count, long nanos, long maxNanos) {
      Map<String, Object> w = new LinkedHashMap<>();
      w.put("count", count);
      w.put("totalMs", round(nanos / 1e6));
      if (maxNanos >= 0) w.put("maxMs", round(maxNanos / 1e6));
      m.put(type, w);
      return this;
    }
  }

  /** {@code cpu}: the host's cores (0: as many as needed, no utilization), their busy time, statements and rows. */
  public Summary cpu(int cores, long busyNanos, double seconds, long statements, long rows) {
    Map<String, Object> cpu = new LinkedHashMap<>();
    cpu.put("cores", cores);
    cpu.put("busySeconds", round(busyNanos / 1e9));
    cpu.put("utilization", cores == 0 ? null : round(ratio(busyNanos / 1e9, seconds * cores)));
    cpu.put("statements", statements);
    cpu.put("rows", rows);
    map.put("cpu", cpu);
    return this;
  }

  /**
   * {@code cpu.hostCosts}: what waiting for flushes cost the host (docs/commit-path.md, Host costs), from the pools'
   * counts (wakes, idle wakes, flushes, wake CPU ns, sleep CPU ns, flush CPU ns, sleeps, second sleeps, commit_delay
   * sleeps); nothing when null (no host
   * costs). Call after {@link #cpu}.
   */
  @SuppressWarnings("unchecked")
  public Summary hostCosts(long[] c) {
    if (c == null) return this;
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("wakes", c[0]);
    h.put("sleeps", c[6]);
    if (c.length > 7) h.put("secondSleeps", c[7]); // PostgreSQL's WALWriteLock: a woken commit not flushed sleeps again
    h.put("idleWakes", c[1]);
    h.put("flushes", c[2]);
    h.put("flushCpuMs", round(c[5] / 1e6));
    h.put("wakeCpuMs", round(c[3] / 1e6));
    h.put("sleepCpuMs", round(c[4] / 1e6));
    if (c.length > 8) h.put("commitDelays", c[8]); // the lock holder slept commit_delay
    ((Map<String, Object>) map.get("cpu")).put("hostCosts", h);
    return this;
  }

  /** {@code data}: the data file's page writes and checkpoints, and its growth when modelled (null: not). */
  public Summary data(DataStats data, DataFileGrowth.Stats growth) {
    Map<String, Object> dm = new LinkedHashMap<>();
    dm.put("lazyWrites", data.lazyWrites());
    dm.put("checkpointWrites", data.checkpointWrites());
    dm.put("checkpoints", data.checkpoints());
    dm.put("dirtyPagesAtEnd", data.dirtyPagesAtEnd());
    if (growth != null) {
      dm.put("sizeMB", round(growth.sizeBytes() / (double) MIB));
      dm.put("usedMB", round(growth.usedBytes() / (double) MIB));
      dm.put("growths", growth.growths());
      dm.put("zeroedBytes", growth.zeroedBytes());
      dm.put("growthStallMs", round(growth.stallNanos() / 1e6));
    }
    map.put("data", dm);
    return this;
  }

  // ------------------------------------------------------------------------------ backups, restore, crash, recovery

  /** {@code backups[]}: one entry per backup set the agent wrote (MB/sec as the completion line has it). */
  public Summary backups(BackupAgent.Stats agent, int pageBytes) {
    List<Map<String, Object>> backups = new ArrayList<>();
    for (BackupAgent.Backup bk : agent.backups()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", bk.type());
      m.put("pages", bk.pages());
      m.put("seconds", round(bk.seconds(), 3));
      m.put("mbPerSec", round(bk.seconds() > 0 ? bk.pages() * (double) pageBytes / MIB / bk.seconds() : 0, 3));
      m.put("historySeconds", round(bk.historySeconds(), 3));
      m.put("historyRows", bk.historyRows());
      m.put("returnedSeconds", round(bk.seconds() + bk.historySeconds(), 3));
      m.put("startSeconds", round(bk.startNanos() / 1e9, 6));
      m.put("bytes", bk.bytes());
      m.put("reads", bk.reads());
      m.put("headerReads", bk.headerReads());
      m.put("vlfBoundaries", bk.boundaries());
      backups.add(m);
    }
    map.put("backups", backups);
    return this;
  }

  /**
   * {@code restore}: the restores' time, what zero-initialization took of it (the files the backup lists, zeroed
   * first), what zeroing the files the replay created took, the pages redone, what was zeroed (none: not written).
   */
  public Summary restore(List<BackupAgent.Restore> restores) {
    return restore(restores, null);
  }

  /**
   * The same, with {@code restore.recovery}: the recovery that ended a restore WITH RECOVERY (null: none), its phases
   * as {@code recovery} gives a crash's (redo is the replay's, counted in the restore: 0 here).
   */
  public Summary restore(List<BackupAgent.Restore> restores, RecoveryManager.Recovery recovered) {
    if (restores.isEmpty()) return this;
    Map<String, Object> rs = new LinkedHashMap<>();
    double total = 0, zero = 0, dataCopy = 0, logRestore = 0, replayZero = 0;
    long pages = 0;
    for (BackupAgent.Restore r : restores) {
      total += r.seconds();
      zero += r.zeroInitSeconds();
      replayZero += r.replayZeroNanos() / 1e9;
      pages += r.pagesRedone();
      if (r.type().equals("restore-database")) dataCopy += r.seconds() - r.zeroInitSeconds();
      else logRestore += r.seconds();
    }
    rs.put("seconds", round(total, 3));
    rs.put("zeroInitSeconds", round(zero, 3));
    rs.put("dataCopySeconds", round(dataCopy, 3));
    rs.put("logRestoreSeconds", round(logRestore, 3));
    rs.put("replayZeroSeconds", round(replayZero, 3));
    rs.put("zeroedBytes", restores.stream().mapToLong(BackupAgent.Restore::zeroedBytes).sum());
    rs.put("pagesRedone", pages);
    rs.put("count", restores.size());
    if (recovered != null) rs.put("recovery", recoveryMap(recovered, 1));
    map.put("restore", rs);
    return this;
  }

  /**
   * {@code backupHistory}: the rows msdb's backupfile holds ({@code entries}, as before msdb was simulated, and
   * {@code tableRows}), its pages, and each backup's history: its rows, the rows there before, its time, the rows its
   * lookups examined, msdb's log and page writes.
   */
  public Summary backupHistory(Msdb.Stats msdb) {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("entries", msdb.tableRows());
    h.put("tableRows", msdb.tableRows());
    h.put("pages", msdb.pages());
    List<Map<String, Object>> each = new ArrayList<>();
    for (Msdb.History x : msdb.histories()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("backup", x.backup());
      m.put("rows", x.rows());
      m.put("rowsBefore", x.rowsBefore());
      m.put("seconds", round(x.nanos() / 1e9, 3));
      m.put("rowsExamined", x.rowsExamined());
      m.put("logWrites", x.logWrites());
      m.put("pageWrites", x.pageWrites());
      each.add(m);
    }
    h.put("histories", each);
    map.put("backupHistory", h);
    return this;
  }

  /** {@code replication}: the log reader's passes and what they read. */
  public Summary replication(ReplicationLogReader.Stats r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("passes", r.passes());
    m.put("bytesRead", r.bytesRead());
    map.put("replication", m);
    return this;
  }

  /**
   * {@code crash}: when the power was lost, the log it lost, the acknowledged commits lost ({@code lost}), and the
   * commits that were on their way ({@code acknowledgedOnTheirWay}: acknowledged by the log manager, not yet by
   * their session).
   */
  public Summary crash(LogCrash crash, long lost, long acknowledgedOnTheirWay) {
    Map<String, Object> cm = new LinkedHashMap<>();
    cm.put("atSeconds", crash.atNanos() / 1e9);
    cm.put("logBytesLost", crash.logBytesLost());
    cm.put("commitsLost", lost);
    cm.put("commitRecordsNotHardened", crash.unhardenedCommits());
    cm.put("commitsWaitingForBuffer", crash.pendingCommits());
    cm.put("acknowledgedOnTheirWay", acknowledgedOnTheirWay);
    map.put("crash", cm);
    return this;
  }

  /**
   * {@code recovery}: the first recovery's phases as the recovery manager timed them (REFERENCE.md 3), what each read,
   * the data pages redo read and redid, the compensation records undo wrote, and how many recoveries.
   */
  public Summary recovery(RecoveryManager.Stats rm) {
    long crashes = rm.recoveries().stream().filter(r -> r.purpose() == io.tlogsim.database.readers.RecoveryPlan.CRASH).count();
    map.put("recovery", recoveryMap(rm.firstAfterCrash(), crashes));
    return this;
  }

  private static Map<String, Object> recoveryMap(RecoveryManager.Recovery r, long count) {
    Map<String, Object> rec = new LinkedHashMap<>();
    rec.put(r.afterRestore() ? "startSeconds" : "crashSeconds", round(r.crashNanos() / 1e9, 6)); // restore: it began
    rec.put("startDelaySeconds", round(r.startDelayNanos() / 1e9, 3));
    rec.put("analysisSeconds", round(r.analysisNanos() / 1e9, 3));
    rec.put("redoSeconds", round(r.redoNanos() / 1e9, 3));
    rec.put("undoSeconds", round(r.undoNanos() / 1e9, 3));
    rec.put("seconds", round((r.startDelayNanos() + r.analysisNanos() + r.redoNanos() + r.undoNanos()) / 1e9, 3));
    rec.put("rolledForward", r.rolledForward());
    rec.put("rolledBack", r.rolledBack());
    rec.put("vlfHeaderReads", r.headerReads());
    rec.put("bytesRead", r.bytesRead());
    rec.put("analysisBytes", r.analysisBytes());
    rec.put("redoBytes", r.redoBytes());
    rec.put("undoBytes", r.undoBytes());
    rec.put("vlfBoundaries", r.boundaries());
    rec.put("pagesRead", r.pagesRead());
    rec.put("pagesRedone", r.pagesApplied());
    rec.put("compensationRecords", r.compensationRecords());
    // a crash during a rollback after 9002: the compensation records it had hardened, which redo redid and undo
    // went on from (compensationRecords are those undo wrote)
    rec.put("compensationRecordsFound", r.compensationRecordsFound());
    rec.put("count", count);
    rec.put("finished", true);
    return rec;
  }

  /**
   * {@code rollbacks}: the statements rolled back after error 9002, each an undo by the recovery manager (its log read
   * backward, its compensation records written): how many, their time in all and the longest, what they read and wrote.
   */
  public Summary rollbacks(List<RecoveryManager.Recovery> rollbacks) {
    Map<String, Object> rb = new LinkedHashMap<>();
    long nanos = 0, max = 0, bytes = 0, clrs = 0;
    for (RecoveryManager.Recovery r : rollbacks) {
      nanos += r.undoNanos();
      max = Math.max(max, r.undoNanos());
      bytes += r.undoBytes();
      clrs += r.compensationRecords();
    }
    rb.put("count", rollbacks.size());
    rb.put("seconds", round(nanos / 1e9, 3));
    rb.put("maxSeconds", round(max / 1e9, 3));
    rb.put("logBytesRead", bytes);
    rb.put("compensationRecords", clrs);
    map.put("rollbacks", rb);
    return this;
  }

  /** {@code recovery.finished = false}: a crash step's recovery had not ended when the run did. */
  public Summary recoveryNotFinished() {
    Map<String, Object> rm = new LinkedHashMap<>();
    rm.put("finished", false);
    map.put("recovery", rm);
    return this;
  }

  /**
   * {@code recovery} untimed: what the crash leaves to roll forward and back; {@code unfinished}: a recovery manager
   * was timing it and the run ended first.
   */
  public Summary recovery(LogCrash crash, boolean unfinished) {
    Map<String, Object> rm = new LinkedHashMap<>();
    rm.put("rolledForward", crash.rolledForward());
    rm.put("rolledBack", crash.rolledBack());
    if (unfinished) rm.put("finished", false);
    map.put("recovery", rm);
    return this;
  }

  // ------------------------------------------------------------------------------------------------------- phases

  /** One phase of a script: its step's name, when it started, and when it ended (the run's end if it did not). */
  public record Phase(String name, long startNanos, long endNanos, boolean ended) {
    public double seconds() {
      return (endNanos - startNanos) / 1e9;
    }
  }

  /** {@code phases[]}: name, startSeconds, seconds (and ended = false when the run ended first), to the microsecond. */
  public Summary phases(List<Phase> phases) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Phase p : phases) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("startSeconds", round(p.startNanos() / 1e9, 6));
      m.put("seconds", round(p.seconds(), 6));
      if (!p.ended()) m.put("ended", false);
      out.add(m);
    }
    map.put("phases", out);
    return this;
  }

  // ------------------------------------------------------------------------------------------------- run, params

  /** {@code run}: how the run was run and the simulator's own figures ({@link RunFigures}), and the kind's. */
  public Summary run(RunControl control, RunOutcome out, Consumer<Run> more) {
    Run r = new Run(RunFigures.of(control, out), out);
    more.accept(r);
    map.put("run", r.m);
    return this;
  }

  public Summary run(RunControl control, RunOutcome out) {
    return run(control, out, r -> {});
  }

  /** {@code run.*} beyond {@link RunFigures}: what a kind counts per wall second. */
  public static final class Run {
    private final Map<String, Object> m;
    private final double wallSeconds;

    private Run(Map<String, Object> figures, RunOutcome out) {
      this.m = figures;
      this.wallSeconds = out.wallNanos() / 1e9;
    }

    public Run pools(int n) {
      m.put("pools", n);
      return this;
    }

    public Run commitsPerWallSecond(long commits) {
      m.put("commitsPerWallSecond", round(ratio(commits, wallSeconds)));
      return this;
    }

    public Run iosPerWallSecond(long ios) {
      m.put("iosPerWallSecond", round(ratio(ios, wallSeconds)));
      return this;
    }
  }

  /** {@code params}: every parameter's value as the run used it. */
  public Summary params(Params p) {
    map.put("params", p.asMap());
    return this;
  }

  // ------------------------------------------------------------------------------------------------------ numbers

  private static final long MIB = 1L << 20;

  /** a / b, or 0 when b is 0. */
  public static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  /** Three decimals. */
  public static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  public static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
