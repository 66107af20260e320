package io.tlogsim.kinds.readpath;

import io.tlogsim.database.logspace.LogFileSpec;
import io.tlogsim.database.logspace.VlfRule;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readpath.LogFiles;
import io.tlogsim.database.script.Step;
import io.tlogsim.kernel.VirtualTime;
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

/**
 * The read path of one SQL Server database (REFERENCE.md 1, 3, 5.2, 5.4, 6): a connection running a script of
 * statements and a DBA's commands (checkpoint, ADD FILE, REMOVE FILE, BACKUP DATABASE, BACKUP LOG) against a database
 * whose log files are cut into VLFs on a log device, and a backup agent reading them to a backup device.
 */
public final class ReadPathKind implements ScenarioKind {
  /** The kinds of the read path: the same parameters, the defaults of their machines (application.conf). */
  public static final List<String> NAMES = List.of("read-path", "stairway", "manyfiles");
  static final long MB = 1L << 20;

  private final String name;

  public ReadPathKind() {
    this(NAMES.get(0));
  }

  public ReadPathKind(String name) {
    this.name = name;
  }

  @Override
  public List<ScenarioKind> variants() {
    return NAMES.stream().map(n -> (ScenarioKind) new ReadPathKind(n)).toList();
  }

  @Override
  public String name() {
    return name;
  }

  /** The client's messages and the error log, stamped with their simulated time. */
  @Override
  public List<String> tables() {
    return List.of("messages", "errorlog");
  }

  static final List<ParamSpec> OWN = List.of(
      ParamSpec.decimal("simulatedSeconds", 0.001, 1e7,
          "simulated time to cover at most (the run ends when the script is done)"),
      ParamSpec.script("script", "what the connection does, step by step (docs/read-path.md)"),
      ParamSpec.choice("recoveryModel", List.of("SIMPLE", "FULL"), "the database's recovery model"),
      ParamSpec.choice("sqlServerVersion", List.of("pre-2014", "2014", "2022"),
          "which VLF rule cuts log creation and growth (REFERENCE.md 1)"),
      ParamSpec.decimal("logInitialMB", 0.0625, 16_777_216, "the log file's size at creation").withUnit("MB"),
      ParamSpec.decimal("logGrowthMB", 0, 16_777_216, "the log file's autogrowth (0: none)").withUnit("MB"),
      ParamSpec.integer("logPreGrowths", 0, 1_000_000,
          "times a script grew the log before the scenario starts (ALTER DATABASE ... MODIFY FILE)"),
      ParamSpec.decimal("logPreGrowthMB", 0, 16_777_216, "each of those growths").withUnit("MB"),
      ParamSpec.decimal("secondLogInitialMB", 0, 16_777_216, "a second log file's size (0: none)").withUnit("MB"),
      ParamSpec.decimal("secondLogGrowthMB", 0, 16_777_216, "the second log file's autogrowth").withUnit("MB"),
      ParamSpec.bool("fullBackupTaken", "a full backup was taken before the scenario starts (the log chain begins)"),
      ParamSpec.decimal("dataFileMB", 0, 16_777_216, "the data file, what BACKUP DATABASE reads").withUnit("MB"),
      ParamSpec.decimal("cpuStatementUs", 0, 1e7, "CPU of one statement, besides its rows"),
      ParamSpec.decimal("cpuRowUs", 0, 1e7, "CPU per row a statement touches"),
      ParamSpec.integer("insertRowLogBytes", 0, 1 << 20, "log bytes per inserted row"),
      ParamSpec.integer("updateRowLogBytes", 0, 1 << 20, "log bytes per updated row"),
      ParamSpec.integer("deleteRowLogBytes", 0, 1 << 20, "log bytes per deleted row"),
      ParamSpec.integer("compensationRowLogBytes", 0, 1 << 20, "log bytes per row a rollback compensates"),
      ParamSpec.integer("beginRecordBytes", 0, 65_536, "the record that begins a transaction"),
      ParamSpec.integer("commitRecordBytes", 1, 65_536, "a commit record"),
      ParamSpec.integer("checkpointRecordBytes", 1, 1 << 20, "the records of a checkpoint"),
      ParamSpec.integer("fileAddLogBytes", 0, 1 << 26, "log bytes of ALTER DATABASE ... ADD FILE"),
      ParamSpec.integer("fileRemoveLogBytes", 0, 1 << 26, "log bytes of ALTER DATABASE ... REMOVE FILE"),
      ParamSpec.integer("logSectorBytes", 512, 65_536, "a flush is rounded up to whole sectors"),
      ParamSpec.integer("logBlockBytes", 512, 16_777_216, "the largest log write"),
      ParamSpec.integer("maxOutstandingWrites", 1, 100_000, "log writes in flight at most"),
      ParamSpec.integer("autoCheckpointPercent", 1, 100, "simple model: a checkpoint when the log is this full"),
      ParamSpec.choice("logDevice", DeviceParams.MODELS, "the log files' device model"),
      ParamSpec.choice("dataDevice", DeviceParams.MODELS, "the data file's device model"),
      ParamSpec.choice("backupDevice", DeviceParams.MODELS, "the backup target's device model"),
      ParamSpec.integer("deviceLinkNs", 1, 1_000_000, "delay of a request to a device"),
      ParamSpec.integer("backupReadKB", 1, 65_536, "the backup's largest read").withUnit("KB"),
      ParamSpec.integer("backupReadsInFlight", 1, 1024, "the backup's reads outstanding at once"),
      ParamSpec.integer("vlfHeaderBytes", 512, 1 << 20, "a VLF header read"),
      ParamSpec.integer("backupPageBytes", 512, 65_536, "what the completion line counts as a page"),
      ParamSpec.integer("backupStatsPercent", 1, 100, "BACKUP ... WITH STATS: progress every this many percent"),
      ParamSpec.decimal("historyRowUs", 0, 1e7, "msdb.backupfile: the first row's cost"),
      ParamSpec.decimal("historyRowGrowthUs", 0, 1e7, "msdb.backupfile: each further row costs this much more"),
      ParamSpec.bool("traceFlag3001", "trace flag 3001: no backup history written"),
      ParamSpec.decimal("redoApplyMBps", 0.001, 1e6, "MB/s of log redo replays (overlapped with its reads)"),
      ParamSpec.decimal("undoApplyMBps", 0.001, 1e6, "MB/s of log undo rolls back (overlapped with its reads)"),
      ParamSpec.decimal("crashAtSeconds", 0, 1e7, "a crash (power loss) at this simulated time (0: none)"),
      ParamSpec.decimal("crashRandomSeconds", 0, 1e7,
          "a crash at a time drawn from the seed, uniformly below this (0: none)"),
      ParamSpec.decimal("replicationIntervalSeconds", 0, 1e6,
          "transactional replication: the log reader reads the new log this often (0: no replication)"),
      ParamSpec.decimal("replicationReaderMBps", 0.001, 1e6, "MB/s of log the log reader processes"));

  static final List<ParamSpec> PARAMS;

  /** The settings of the backup agent and the recovery manager, which the log-space kind's uses too. */
  public static final List<String> AGENT_KEYS = List.of("backupDevice", "backupReadKB", "backupReadsInFlight",
      "vlfHeaderBytes", "backupPageBytes", "backupStatsPercent", "redoApplyMBps", "undoApplyMBps");

  public static List<ParamSpec> agentParams() {
    return OWN.stream().filter(s -> AGENT_KEYS.contains(s.key())).toList();
  }

  /** A backup agent that writes no history rows and replays nothing (BACKUP LOG of the log-space kind). */
  public static BackupAgent.Config logBackupAgent(Params p) {
    return new BackupAgent.Config(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
        p.getInt("vlfHeaderBytes"), p.getInt("backupPageBytes"), 0, 0, true, p.getInt("backupStatsPercent"), 1);
  }

  /** A recovery manager with the read path's settings for reading and applying the log. */
  public static RecoveryManager.Config recoveryConfig(Params p) {
    return new RecoveryManager.Config(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
        p.getInt("vlfHeaderBytes"), p.getDouble("redoApplyMBps"), p.getDouble("undoApplyMBps"));
  }

  static {
    List<ParamSpec> all = new ArrayList<>(OWN);
    all.addAll(DeviceParams.specs(StorageTables.premium(), false));
    PARAMS = List.copyOf(all);
  }

  @Override
  public List<ParamSpec> params() {
    return PARAMS;
  }

  @Override
  public void validate(Params p) {
    for (String key : List.of("logDevice", "dataDevice", "backupDevice")) {
      DeviceParams.setup(p.getString(key), p, StorageTables.premium());
    }
    if (p.getInt("logSectorBytes") % 512 != 0) {
      throw BadInputException.about("logSectorBytes", "must be a multiple of 512, got " + p.getInt("logSectorBytes"));
    }
    if (p.getInt("logBlockBytes") % p.getInt("logSectorBytes") != 0) {
      throw BadInputException.about("logBlockBytes", "must be a whole number of sectors of "
          + p.getInt("logSectorBytes") + " B, got " + p.getInt("logBlockBytes"));
    }
    if (p.getInt("logPreGrowths") > 0 && p.getDouble("logPreGrowthMB") <= 0) {
      throw BadInputException.about("logPreGrowthMB", "must be > 0 when logPreGrowths is " + p.getInt("logPreGrowths"));
    }
    double total = p.getDouble("logInitialMB") + p.getInt("logPreGrowths") * p.getDouble("logPreGrowthMB");
    if (total * MB > LogFiles.FILE_SPACING || p.getDouble("secondLogInitialMB") * MB > LogFiles.FILE_SPACING) {
      throw BadInputException.about("logInitialMB", "a log file holds at most " + (LogFiles.FILE_SPACING / MB)
          + " MB before growth here, got " + (long) total + " MB");
    }
    for (Step st : p.getScript("script").steps()) {
      switch (st.type()) {
        case INSERT, UPDATE, DELETE -> {
          if (st.rows() == 0) {
            throw BadInputException.about("script", "step '" + st.name() + "': the read path's loops take rows, not"
                + " seconds");
          }
          if (st.random()) {
            throw BadInputException.about("script", "step '" + st.name() + "': access = random is not modelled by"
                + " the read path (no data pages): leave it sequential");
          }
        }
        case LARGE_UPDATE, THINK, CHECKPOINT, ADD_DATA_FILE, REMOVE_DATA_FILE, BACKUP_DATABASE, BACKUP_LOG, CRASH,
            RESTORE_DATABASE, RESTORE_LOG -> { }
        default -> throw BadInputException.about("script", "step '" + st.type().word + "' is not one of the read"
            + " path's (insert, update, delete, large-update, think, checkpoint, add-data-file, remove-data-file,"
            + " backup-database, backup-log, crash, restore-database, restore-log)");
      }
    }
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  /** The log files as declared, before the scenario's pre-growths. */
  static List<LogFileSpec> logFiles(Params p) {
    List<LogFileSpec> specs = new ArrayList<>();
    specs.add(new LogFileSpec("log", mb(p.getDouble("logInitialMB")), mb(p.getDouble("logGrowthMB")), 0, 0, "log"));
    if (p.getDouble("secondLogInitialMB") > 0) {
      specs.add(new LogFileSpec("log2", mb(p.getDouble("secondLogInitialMB")), mb(p.getDouble("secondLogGrowthMB")),
          0, 0, "log"));
    }
    return specs;
  }

  /** The database's log files as the scenario starts: created, then grown by the DBA's script. */
  static LogFiles logFilesAtStart(Params p) {
    LogFiles log = new LogFiles(VlfRule.of(p.getString("sqlServerVersion")), logFiles(p));
    long g = mb(p.getDouble("logPreGrowthMB"));
    for (int i = 0; i < p.getInt("logPreGrowths"); i++) log.growBy(log.layout().files().get(0), g);
    return log;
  }

  static long mb(double v) {
    return Math.round(v * MB);
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    return ReadPathRun.prepare(name, scenarioName, p, control);
  }
}
