package io.tlogsim.kinds.logspace;

import io.tlogsim.database.logspace.LogFileSpec;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.logspace.VlfRule;
import io.tlogsim.database.script.Step;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.commitpath.CommitPathKind;
import io.tlogsim.kinds.commitpath.CommitPathModel;
import io.tlogsim.kinds.commitpath.CommitPathRun;
import io.tlogsim.kinds.commitpath.FlushPolicies;
import io.tlogsim.kinds.readpath.ReadPathKind;
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
  private static final long MB = 1L << 20;

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
          "time of a log administration statement (DBCC, ALTER DATABASE) or of a statement failing with 9002"));

  static final List<ParamSpec> PARAMS = concat();

  static final List<String> TABLES = List.of("onstat", "waits", "filestats", "loginfo", "logspace");

  private static List<ParamSpec> concat() {
    List<ParamSpec> out = new ArrayList<>(CommitPathKind.paramSpecs());
    out.addAll(OWN);
    out.addAll(ReadPathKind.agentParams()); // BACKUP LOG's agent
    return List.copyOf(out);
  }

  @Override
  public String name() {
    return NAME;
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
      if (st.type() == Step.Type.BACKUP_LOG) DeviceParams.setup(p.getString("backupDevice"), p, StorageTables.premium());
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

  /** The commit path's components with this log space. */
  public static CommitPathModel.Spec spec(Params p, String database) {
    CommitPathModel.Spec base = CommitPathKind.spec(p);
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
    ManagedLogSpace.RecoveryModel model = ManagedLogSpace.RecoveryModel.valueOf(p.getString("recoveryModel"));
    List<Step> steps = base.script().steps();
    double autoCheckpoint = tf3505 ? 0 : p.getDouble("autoCheckpointPercent");
    int sessions = base.sessions();
    long sample = VirtualTime.micros(p.getDouble("logSpaceSampleMs") * 1000);
    return base.withLogSpace(names -> new ManagedLogSpace(new ManagedLogSpace.Config(database, rule, specs, names,
        model, p.getDouble("rollbackReservationFactor"), autoCheckpoint, p.getBoolean("replicationReader"), sessions,
        steps, p.getLong("firstFseqNo"), sample, VirtualTime.micros(p.getDouble("adminStatementUs")))), devices);
  }

  private static long mb(Params p, String key) {
    return Math.round(p.getDouble(key) * MB);
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    return CommitPathRun.prepare(NAME, scenarioName, p, control, runSpec(p, scenarioName, control.seed()),
        endTimeNanos(p));
  }

  /** Everything a run of seed {@code seed} needs: the components with this log space, its crash, its backup agent. */
  public static CommitPathModel.Spec runSpec(Params p, String database, long seed) {
    CommitPathModel.Spec spec = spec(p, database).withCrashAt(CommitPathKind.crashNanos(p, seed));
    boolean backs = p.getScript("script").has(Step.Type.BACKUP_LOG);
    return spec.withReaders(new CommitPathModel.LogReaders(backs ? ReadPathKind.logBackupAgent(p) : null,
        backs ? DeviceParams.setup(p.getString("backupDevice"), p, StorageTables.premium()) : null,
        ReadPathKind.recoveryConfig(p)));
  }
}
