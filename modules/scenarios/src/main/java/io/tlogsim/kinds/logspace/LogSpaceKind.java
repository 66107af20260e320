package io.tlogsim.kinds.logspace;

import io.tlogsim.database.logspace.BackupChain;
import io.tlogsim.database.logspace.LogFileSpec;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.logspace.VlfRule;
import io.tlogsim.database.script.Step;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.commitpath.CommitPathKind;
import io.tlogsim.kinds.commitpath.CommitPathModel;
import io.tlogsim.kinds.commitpath.CommitPathRun;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.Msdb;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.session.SessionPool;
import io.tlogsim.kinds.commitpath.FlushPolicies;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.DeviceParams;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.storage.StorageTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SQL Server's log space on the commit path (REFERENCE.md 1): the commit path's sessions, log manager and devices,
 * with the log in files of VLFs ({@link ManagedLogSpace}) that grow, are truncated, fill up and shrink, and a script
 * that may grow the log, add and remove log files, shrink them and look at DBCC SQLPERF(LOGSPACE).
 */
public final class LogSpaceKind implements ScenarioKind {
  public static final String NAME = "log-space";
  /**
   * The kinds of one SQL Server database: log-space, and the read path's machines as its presets (the same
   * parameters, the defaults of their publications' machines in application.conf).
   */
  public static final List<String> NAMES = List.of(NAME, "read-path", "stairway", "manyfiles");
  private static final long MB = 1L << 20;

  private final String name;

  public LogSpaceKind() {
    this(NAME);
  }

  public LogSpaceKind(String name) {
    this.name = name;
  }

  static final List<ParamSpec> OWN = List.of(
      ParamSpec.choice("sqlServerVersion", List.of("pre-2014", "2014", "2022"),
          "the VLF rule of log creation and growth (2022 also for Azure SQL: growths <= 64 MB are not zeroed)"),
      ParamSpec.choice("recoveryModel", List.of("SIMPLE", "FULL"),
          "SIMPLE: the log is truncated at checkpoint; FULL: only by a log backup"),
      ParamSpec.integer("logFiles", 1, 16, "log files the database is created with, all alike"),
      ParamSpec.integer("logDevices", 1, 8,
          "devices for log files: file k goes to device min(k, logDevices) (log-device, log-device-2, ...)"),
      ParamSpec.decimal("logSizeMB", 0.5, 16_777_216, "initial size of each log file").withUnit("MB"),
      ParamSpec.decimal("logGrowthMB", 0, 16_777_216, "growth increment of each log file (0: see logGrowthPercent)")
          .withUnit("MB"),
      ParamSpec.decimal("logGrowthPercent", 0, 1000, "growth in percent of the file's size (0: by logGrowthMB)"),
      ParamSpec.decimal("logMaxSizeMB", 0, 16_777_216, "maximum size of each log file (0: unlimited)").withUnit("MB"),
      ParamSpec.decimal("rollbackReservationFactor", 0, 100,
          "log an open transaction reserves for its rollback, per byte of the compensation records that would undo"
              + " what it logged (counted as used until it ends)"),
      ParamSpec.decimal("autoCheckpointPercent", 0, 100,
          "SIMPLE: an automatic checkpoint when this percent of the log is used (0: never)"),
      ParamSpec.bool("traceFlag3505", "trace flag 3505: no automatic checkpoints (neither by interval nor at 70%)"),
      ParamSpec.bool("replicationReader", "a replication log reader that has read nothing holds the log (REPLICATION)"),
      ParamSpec.longValue("firstFseqNo", 1, 1L << 40, "FSeqNo of the first VLF used"),
      ParamSpec.decimal("logSpaceSampleMs", 0, 1e7,
          "how often the log's size, space used and VLF count are recorded as facts (0: never)"),
      ParamSpec.decimal("adminStatementUs", 1, 1e9,
          "time of a log administration statement (DBCC, ALTER DATABASE) or of a statement failing with 9002"),
      // backups, restores, recovery, msdb, replication (docs/read-path.md)
      ParamSpec.bool("fullBackupTaken", "a full backup exists when the script starts (the log chain begins)"),
      ParamSpec.decimal("addedFileMB", 0, 16_777_216, "a data file ADD FILE creates (zeroed unless IFI)")
          .withUnit("MB"),
      ParamSpec.integer("fileMetadataWrites", 0, 1000, "the file system's writes when a file is created or dropped"),
      ParamSpec.integer("fileMetadataBytes", 512, 1 << 20, "each of them"),
      ParamSpec.choice("backupDevice", DeviceParams.MODELS, "the backup target's device model"),
      ParamSpec.integer("backupReadKB", 1, 65_536, "a backup's or a reader's largest read").withUnit("KB"),
      ParamSpec.integer("backupReadsInFlight", 1, 1024, "reads outstanding at once"),
      ParamSpec.integer("vlfHeaderBytes", 512, 1 << 20, "a VLF header read"),
      ParamSpec.integer("backupPageBytes", 512, 65_536, "what the completion line counts as a page"),
      ParamSpec.integer("backupStatsPercent", 1, 100, "BACKUP ... WITH STATS: progress every this many percent"),
      ParamSpec.bool("traceFlag3001", "trace flag 3001: no backup history written"),
      ParamSpec.decimal("historyLookupRowUs", 0, 1e7,
          "msdb: CPU per backupfile row a history row's lookup examines"),
      ParamSpec.decimal("historyInsertRowUs", 0, 1e7, "msdb: CPU of one history row's insert"),
      ParamSpec.integer("historyRowsPerPage", 1, 10_000, "msdb: backupfile rows per page"),
      ParamSpec.integer("historyRowLogBytes", 1, 65_536, "msdb: log bytes of one history row"),
      ParamSpec.decimal("redoApplyMBps", 0.001, 1e6, "MB/s of log redo replays (overlapped with its reads)"),
      ParamSpec.decimal("undoApplyMBps", 0.001, 1e6, "MB/s of log undo rolls back (overlapped with its reads)"),
      ParamSpec.integer("recoveryPageReadsInFlight", 1, 1024, "data-page reads redo and undo keep outstanding"),
      ParamSpec.decimal("replicationIntervalSeconds", 0, 1e6,
          "transactional replication: the log reader reads the new log this often (0: no replication)"),
      ParamSpec.decimal("replicationReaderMBps", 0.001, 1e6, "MB/s of log the log reader processes"));

  static final List<ParamSpec> PARAMS = concat();

  static final List<String> TABLES = List.of("onstat", "waits", "filestats", "loginfo", "logspace", "messages",
      "errorlog");

  private static List<ParamSpec> concat() {
    List<ParamSpec> out = new ArrayList<>(CommitPathKind.paramSpecs());
    out.addAll(OWN);
    return List.copyOf(out);
  }

  /** log-space and its presets, one kind each (registered once, as {@code io.tlogsim.kinds.logspace.LogSpaceKind}). */
  @Override
  public List<ScenarioKind> variants() {
    return NAMES.stream().map(n -> (ScenarioKind) new LogSpaceKind(n)).toList();
  }

  @Override
  public String name() {
    return name;
  }

  /** The commit path's tables, DBCC LOGINFO and DBCC SQLPERF(LOGSPACE). */
  @Override
  public List<String> tables() {
    return TABLES;
  }

  @Override
  public List<ParamSpec> params() {
    return PARAMS;
  }

  /** The commit path's flush policies' settings ({@link FlushPolicies}). */
  @Override
  public Map<String, Default> defaults() {
    return FlushPolicies.defaults();
  }

  @Override
  public void validate(Params p) {
    new CommitPathKind(NAME).validate(p);
    refuseFlushLockInSessions(CommitPathKind.spec(p));
    if (p.getInt("logPageHeaderBytes") != 0) {
      throw BadInputException.about("logPageHeaderBytes", "must be 0 for SQL Server's log (its 512 B sectors hold"
          + " records only), got " + p.getInt("logPageHeaderBytes"));
    }
    if (!p.getBoolean("flushClosesPage")) {
      throw BadInputException.about("flushClosesPage", "must be true for SQL Server's log (a flush ends its sector)");
    }
    if (p.getDouble("logGrowthMB") > 0 && p.getDouble("logGrowthPercent") > 0) {
      throw BadInputException.about("logGrowthPercent", "give logGrowthMB or logGrowthPercent, not both (got "
          + p.getDouble("logGrowthMB") + " MB and " + p.getDouble("logGrowthPercent") + "%)");
    }
    double max = p.getDouble("logMaxSizeMB");
    if (max > 0 && max < p.getDouble("logSizeMB")) {
      throw BadInputException.about("logMaxSizeMB", "must be 0 (unlimited) or at least logSizeMB ("
          + p.getDouble("logSizeMB") + "), got " + max);
    }
    if (p.getInt("logDevices") > p.getInt("logFiles")) {
      throw BadInputException.about("logDevices", "must be at most logFiles (" + p.getInt("logFiles") + "), got "
          + p.getInt("logDevices"));
    }
    for (Step st : p.getScript("script").steps()) {
      if (st.type() == Step.Type.BACKUP_LOG && !p.getString("recoveryModel").equals("FULL")) {
        throw BadInputException.about("script", "step '" + st.name() + "': BACKUP LOG needs recoveryModel = FULL"
            + " (SQL Server's Msg 4208: not allowed while the recovery model is SIMPLE)");
      }
      if (readsOrRestores(st.type())) DeviceParams.setup(p.getString("backupDevice"), p, StorageTables.premium());
      if (st.type() == Step.Type.CRASH && p.getInt("sessions") != 1) {
        throw BadInputException.about("script", "step '" + st.name() + "': a crash step (SHUTDOWN WITH NOWAIT) needs"
            + " sessions = 1 (the script's one connection waits for recovery), got " + p.getInt("sessions"));
      }
      if (st.type() == Step.Type.ADD_LOG_FILE && st.given().get("device") instanceof Number n
          && n.intValue() > p.getInt("logDevices")) {
        throw BadInputException.about("script", "step '" + st.name() + "': device " + n + " does not exist (logDevices"
            + " = " + p.getInt("logDevices") + ")");
      }
    }
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  /**
   * With host costs, flushPolicy = postgresql puts WALWriteLock in the sessions (SessionPool's WalWriteLock); a commit
   * failed by 9002 and its rollback are not in that lock's model: refused (before anything is run or journaled).
   */
  private static CommitPathModel.Spec refuseFlushLockInSessions(CommitPathModel.Spec spec) {
    if (SessionPool.chargesHostCosts(spec.workload()) && spec.policy().get().flushLock() != null) {
      throw BadInputException.about("flushPolicy", "postgresql with host costs (its WALWriteLock held by the sessions)"
          + " is not modelled on a log space that can fill; use another flushPolicy or host = none");
    }
    return spec;
  }

  /** The commit path's components with this log space. */
  public static CommitPathModel.Spec spec(Params p, String database) {
    CommitPathModel.Spec base = refuseFlushLockInSessions(CommitPathKind.spec(p));
    boolean tf3505 = p.getBoolean("traceFlag3505");
    if (tf3505 && base.data() != null) { // no automatic checkpoint by recovery interval either
      base = base.withData(base.data().withCheckpointIntervalNanos(0));
    }
    int files = p.getInt("logFiles");
    int devices = p.getInt("logDevices");
    List<LogFileSpec> specs = new ArrayList<>();
    for (int k = 1; k <= files; k++) {
      int device = Math.min(k, devices);
      specs.add(new LogFileSpec(database + "_log" + (k == 1 ? "" : String.valueOf(k)), mb(p, "logSizeMB"),
          mb(p, "logGrowthMB"), p.getDouble("logGrowthPercent"), mb(p, "logMaxSizeMB"),
          CommitPathModel.logDevice(device)));
    }
    VlfRule rule = VlfRule.of(p.getString("sqlServerVersion"));
    BackupChain.Files fileCosts = new BackupChain.Files(p.getBoolean("instantFileInitialization"),
        mb(p, "addedFileMB"), p.getInt("fileMetadataWrites"), p.getInt("fileMetadataBytes"),
        p.getBoolean("fullBackupTaken"));
    boolean replicates = p.getDouble("replicationIntervalSeconds") > 0;
    ManagedLogSpace.RecoveryModel model = ManagedLogSpace.RecoveryModel.valueOf(p.getString("recoveryModel"));
    List<Step> steps = base.script().steps();
    double autoCheckpoint = tf3505 ? 0 : p.getDouble("autoCheckpointPercent");
    int sessions = base.sessions();
    long sample = VirtualTime.micros(p.getDouble("logSpaceSampleMs") * 1000);
    return base.withLogSpace(names -> new ManagedLogSpace(new ManagedLogSpace.Config(database, rule, specs, names,
        model, p.getDouble("rollbackReservationFactor"), autoCheckpoint, p.getBoolean("replicationReader") || replicates,
        sessions, steps, p.getLong("firstFseqNo"), sample, VirtualTime.micros(p.getDouble("adminStatementUs"))))
        .withFiles(fileCosts), devices);
  }

  private static long mb(Params p, String key) {
    return Math.round(p.getDouble(key) * MB);
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    return CommitPathRun.prepare(name, scenarioName, p, control, runSpec(p, scenarioName, control.seed()),
        endTimeNanos(p));
  }

  private static boolean readsOrRestores(Step.Type t) {
    return t == Step.Type.BACKUP_LOG || t == Step.Type.BACKUP_DATABASE || t == Step.Type.RESTORE_DATABASE
        || t == Step.Type.RESTORE_LOG;
  }

  /**
   * Everything a run of seed {@code seed} needs: the components with this log space, its crash, its backup agent and
   * msdb, its recovery manager, its replication log reader.
   */
  public static CommitPathModel.Spec runSpec(Params p, String database, long seed) {
    CommitPathModel.Spec spec = spec(p, database).withCrashAt(CommitPathKind.crashNanos(p, seed));
    boolean backs = p.getScript("script").steps().stream().anyMatch(st -> readsOrRestores(st.type()));
    CommitPathModel.Replication replication = p.getDouble("replicationIntervalSeconds") <= 0 ? null
        : new CommitPathModel.Replication(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
            p.getInt("vlfHeaderBytes"), p.getDouble("replicationReaderMBps"),
            VirtualTime.seconds(p.getDouble("replicationIntervalSeconds")));
    return spec.withReaders(new CommitPathModel.LogReaders(backs ? agent(p) : null,
        backs ? DeviceParams.setup(p.getString("backupDevice"), p, StorageTables.premium()) : null,
        recovery(p), backs && !p.getBoolean("traceFlag3001") ? msdb(p) : null, replication));
  }

  /** The backup agent: it reads and writes at the log's and the backup device's pace; msdb writes the history. */
  static BackupAgent.Config agent(Params p) {
    return new BackupAgent.Config(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
        p.getInt("vlfHeaderBytes"), p.getInt("backupPageBytes"), 0, 0, p.getBoolean("traceFlag3001"),
        p.getInt("backupStatsPercent"), p.getDouble("redoApplyMBps"));
  }

  static RecoveryManager.Config recovery(Params p) {
    return new RecoveryManager.Config(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
        p.getInt("vlfHeaderBytes"), p.getDouble("redoApplyMBps"), p.getDouble("undoApplyMBps"),
        p.getInt("recoveryPageReadsInFlight"));
  }

  /** msdb's backupfile table, its log on the data device as SQL Server's log is written (REFERENCE.md 2). */
  static Msdb.Config msdb(Params p) {
    return new Msdb.Config(p.getDouble("historyLookupRowUs"), p.getDouble("historyInsertRowUs"),
        p.getInt("historyRowsPerPage"), p.getInt("historyRowLogBytes"), p.getInt("commitRecordBytes"),
        p.getInt("logBlockBytes"), p.getInt("logPageBytes"), p.getInt("maxOutstandingWrites"),
        p.getInt("dataPageBytes"), 4);
  }
}
