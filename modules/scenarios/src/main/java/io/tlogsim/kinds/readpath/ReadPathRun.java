package io.tlogsim.kinds.readpath;

import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.BackupProtocol;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readers.RecoveryProtocol;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.readpath.Database;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.DeviceParams;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.DeviceSummary;
import io.tlogsim.scenario.summary.RunFigures;
import io.tlogsim.storage.DeviceProtocol;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.StorageAssembly;
import io.tlogsim.storage.StorageTables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The read path's run: the database (its connection and log files), the backup agent, and the log, data and backup
 * devices, built on the storage models; and its report (summary.json's backups[], phases[], log.*, commits.*,
 * devices.*; the client's messages and the error log as tables).
 */
public final class ReadPathRun {
  private ReadPathRun() {}

  /** Component ids of one built run. */
  record Built(Topology topology, List<SimComponent> models, int database, int agent, int recovery, int replication,
      int[] devices) {}

  static Built build(Params p) {
    StorageAssembly a = new StorageAssembly();
    long link = p.getInt("deviceLinkNs");
    int db = a.component("database", List.of(DeviceProtocol.COMPLETIONS, BackupProtocol.REPLIES,
        RecoveryProtocol.REPLIES, ReplicationLogReader.REPLIES), List.of(DeviceProtocol.REQUESTS,
        BackupProtocol.REQUESTS, RecoveryProtocol.REQUESTS, ReplicationLogReader.REQUESTS));
    int agent = a.component("backup-agent", List.of(BackupProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(BackupProtocol.REPLIES, DeviceProtocol.REQUESTS));
    int recovery = a.component("recovery-manager", List.of(RecoveryProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(RecoveryProtocol.REPLIES, DeviceProtocol.REQUESTS));
    int replication = a.component("log-reader", List.of(ReplicationLogReader.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(ReplicationLogReader.REPLIES, DeviceProtocol.REQUESTS));
    StorageAssembly.Placed logDev = a.device("log-device", DeviceParams.setup(p.getString("logDevice"), p,
        StorageTables.premium()));
    StorageAssembly.Placed dataDev = a.device("data-device", DeviceParams.setup(p.getString("dataDevice"), p,
        StorageTables.premium()));
    StorageAssembly.Placed backupDev = a.device("backup-device", DeviceParams.setup(p.getString("backupDevice"), p,
        StorageTables.premium()));
    int dbToLog = a.connect(db, logDev, 0, link);
    int dbToAgent = a.link(db, agent, BackupProtocol.REQUESTS_PORT, link);
    int agentToDb = a.link(agent, db, BackupProtocol.REPLIES_PORT, link);
    int agentToLog = a.connect(agent, logDev, BackupProtocol.DEVICE_PORT, link);
    int agentToData = a.connect(agent, dataDev, BackupProtocol.DEVICE_PORT, link);
    int agentToBackup = a.connect(agent, backupDev, BackupProtocol.DEVICE_PORT, link);
    int dbToRecovery = a.link(db, recovery, RecoveryProtocol.REQUESTS_PORT, link);
    int recoveryToDb = a.link(recovery, db, RecoveryProtocol.REPLIES_PORT, link);
    int recoveryToLog = a.connect(recovery, logDev, RecoveryProtocol.DEVICE_PORT, link);
    int dbToReader = a.link(db, replication, ReplicationLogReader.REQUESTS_PORT, link);
    int readerToDb = a.link(replication, db, Database.REPLICATION_PORT, link);
    int readerToLog = a.connect(replication, logDev, ReplicationLogReader.DEVICE_PORT, link);

    a.setModel(db, new Database(databaseConfig(p), p.getScript("script"), ReadPathKind.logFilesAtStart(p), dbToLog,
        dbToAgent, dbToRecovery, dbToReader, link));
    a.setModel(replication, new ReplicationLogReader(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
        p.getInt("vlfHeaderBytes"), p.getDouble("replicationReaderMBps"), readerToLog, readerToDb, link));
    a.setModel(recovery, new RecoveryManager(ReadPathKind.recoveryConfig(p), recoveryToLog, recoveryToDb, link));
    a.setModel(agent, new BackupAgent(agentConfig(p), new int[] {agentToLog, agentToData}, agentToBackup, agentToDb,
        link));
    List<Integer> devices = new ArrayList<>();
    for (StorageAssembly.Placed d : a.devices()) devices.add(d.id());
    return new Built(a.topology(), a.models(), db, agent, recovery, replication,
        devices.stream().mapToInt(Integer::intValue).toArray());
  }

  static Database.Config databaseConfig(Params p) {
    return new Database.Config(p.getString("recoveryModel").equals("FULL"), p.getInt("logSectorBytes"),
        p.getInt("logBlockBytes"), p.getInt("maxOutstandingWrites"), VirtualTime.micros(p.getDouble("cpuStatementUs")),
        VirtualTime.micros(p.getDouble("cpuRowUs")), p.getInt("insertRowLogBytes"), p.getInt("updateRowLogBytes"),
        p.getInt("deleteRowLogBytes"), p.getInt("compensationRowLogBytes"), p.getInt("beginRecordBytes"),
        p.getInt("commitRecordBytes"), p.getInt("checkpointRecordBytes"), p.getInt("fileAddLogBytes"),
        p.getInt("fileRemoveLogBytes"), ReadPathKind.mb(p.getDouble("dataFileMB")), p.getInt("autoCheckpointPercent"),
        p.getBoolean("traceFlag3001"), p.getBoolean("fullBackupTaken"),
        VirtualTime.seconds(p.getDouble("crashAtSeconds")), VirtualTime.seconds(p.getDouble("crashRandomSeconds")),
        VirtualTime.seconds(p.getDouble("replicationIntervalSeconds")));
  }

  static BackupAgent.Config agentConfig(Params p) {
    return new BackupAgent.Config(p.getInt("backupReadKB") * 1024, p.getInt("backupReadsInFlight"),
        p.getInt("vlfHeaderBytes"), p.getInt("backupPageBytes"), p.getDouble("historyRowUs"),
        p.getDouble("historyRowGrowthUs"), p.getBoolean("traceFlag3001"), p.getInt("backupStatsPercent"),
        p.getDouble("redoApplyMBps"));
  }

  static PreparedRun prepare(String kind, String scenario, Params p, RunControl control) {
    Built built = build(p);
    return new PreparedRun() {
      private boolean first = true;

      @Override
      public Topology topology() {
        return built.topology();
      }

      @Override
      public List<SimComponent> models() {
        List<SimComponent> ms = first ? built.models() : build(p).models();
        first = false;
        return ms;
      }

      @Override
      public ScenarioResult result(RunOutcome out) {
        return report(kind, scenario, p, control, built, out);
      }
    };
  }

  static ScenarioResult report(String kind, String scenario, Params p, RunControl control, Built b, RunOutcome out) {
    Database.Stats db = (Database.Stats) out.results().get(b.database());
    BackupAgent.Stats agent = (BackupAgent.Stats) out.results().get(b.agent());
    RecoveryManager.Stats rm = (RecoveryManager.Stats) out.results().get(b.recovery());
    List<DeviceStats> devices = new ArrayList<>();
    for (int id : b.devices()) devices.add((DeviceStats) out.results().get(id));
    Script script = p.getScript("script");
    long end = db.scriptEnd() >= 0 ? db.scriptEnd() : VirtualTime.seconds(p.getDouble("simulatedSeconds"));
    double seconds = end / 1e9;
    double wall = out.wallNanos() / 1e9;

    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scenario", scenario);
    s.put("kind", kind);
    s.put("seed", control.seed());
    s.put("simulatedSeconds", round(seconds, 9));
    s.put("digest", out.digestHex());
    Map<String, Object> commits = new LinkedHashMap<>();
    commits.put("count", db.commits());
    // every commit of the read path's connection waits for its log to harden: a crash loses none
    commits.put("lost", 0L);
    s.put("commits", commits);

    s.put("backups", backups(agent, p.getInt("backupPageBytes")));

    if (!agent.restores().isEmpty()) {
      Map<String, Object> rs = new LinkedHashMap<>();
      double total = 0, zero = 0, dataCopy = 0, logRestore = 0;
      for (BackupAgent.Restore r : agent.restores()) {
        total += r.seconds();
        zero += r.zeroInitSeconds();
        if (r.type().equals("restore-database")) dataCopy += r.seconds() - r.zeroInitSeconds();
        else logRestore += r.seconds();
      }
      rs.put("seconds", round(total, 3));
      rs.put("zeroInitSeconds", round(zero, 3));
      rs.put("dataCopySeconds", round(dataCopy, 3));
      rs.put("logRestoreSeconds", round(logRestore, 3));
      rs.put("zeroedBytes", agent.restores().stream().mapToLong(BackupAgent.Restore::zeroedBytes).sum());
      rs.put("count", agent.restores().size());
      s.put("restore", rs);
    }

    if (!rm.recoveries().isEmpty()) s.put("recovery", recovery(rm));

    Map<String, Object> log = new LinkedHashMap<>();
    log.put("writes", db.logWrites());
    log.put("bytes", db.logBytes());
    log.put("vlfs", db.vlfs());
    log.put("sizeBytes", db.logSizeBytes());
    log.put("usedPercent", round(db.logSizeBytes() > 0 ? db.usedBytes() * 100.0 / db.logSizeBytes() : 0, 3));
    log.put("growths", db.growths() - p.getInt("logPreGrowths")); // during the run (the DBA's pre-growths apart)
    log.put("zeroedBytes", db.zeroedBytes());
    log.put("fullErrors", db.fullErrors());
    log.put("reuseWait", db.reuseWait());
    log.put("endLsn", db.endLsn());
    s.put("log", log);

    Map<String, Object> history = new LinkedHashMap<>();
    history.put("filesCreated", db.filesCreated());
    history.put("entries", db.historyEntries());
    history.put("replaced", db.historyReplaced());
    s.put("backupHistory", history);

    if (p.getDouble("replicationIntervalSeconds") > 0) {
      ReplicationLogReader.Stats rl = (ReplicationLogReader.Stats) out.results().get(b.replication());
      Map<String, Object> repl = new LinkedHashMap<>();
      repl.put("passes", rl.passes());
      repl.put("bytesRead", rl.bytesRead());
      s.put("replication", repl);
    }

    Map<String, Object> dm = new LinkedHashMap<>();
    for (DeviceStats d : devices) dm.put(d.name(), DeviceSummary.device(d, seconds));
    s.put("devices", dm);

    List<Map<String, Object>> phases = new ArrayList<>();
    for (int i = 0; i < script.steps().size(); i++) {
      Step st = script.steps().get(i);
      if (db.phaseStart()[i] < 0) continue;
      boolean ended = db.phaseEnd()[i] >= 0;
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", st.name());
      m.put("startSeconds", round(db.phaseStart()[i] / 1e9, 6));
      m.put("seconds", round(((ended ? db.phaseEnd()[i] : end) - db.phaseStart()[i]) / 1e9, 6));
      if (!ended) m.put("ended", false);
      phases.add(m);
    }
    s.put("phases", phases);

    Map<String, Object> run = RunFigures.of(control, out); // threads, nodes, what crossed between them
    s.put("run", run);
    s.put("params", p.asMap());

    List<String> lines = new ArrayList<>(Text.lines("scenario", scenario + " (" + kind + ")", "seed " + control.seed(),
        String.format(Locale.ROOT, "%.3f simulated s", seconds), p.getString("recoveryModel") + " recovery model"));
    lines.addAll(Text.lines("log", Text.plural(db.vlfs(), "VLF") + " in " + Text.count(db.logSizeBytes() >> 20)
        + " MB", String.format(Locale.ROOT, "%.1f%% used", db.usedBytes() * 100.0 / Math.max(1, db.logSizeBytes())),
        Text.plural(db.logWrites(), "write"), Text.plural(db.growths() - p.getInt("logPreGrowths"), "growth"),
        Text.plural(db.fullErrors(), "log-full error")));
    for (BackupAgent.Backup bk : agent.backups()) {
      lines.addAll(Text.lines("backup", bk.type() + ": " + Text.count(bk.pages()) + " pages",
          String.format(Locale.ROOT, "%.3f s", bk.seconds()), Text.count(bk.boundaries()) + " VLF boundaries",
          bk.historyRows() > 0 ? Text.count(bk.historyRows()) + " history rows in "
              + String.format(Locale.ROOT, "%.3f s", bk.historySeconds()) : "no history rows"));
    }
    // a statement the server refused (BACKUP LOG without a full backup: Msg 4214) is said here, not only in the tables
    for (BackupAgent.Message m : db.errorLog()) {
      if (m.text().startsWith("Msg ")) {
        lines.addAll(Text.paragraph("error", String.format(Locale.ROOT, "at %.3f s: ", m.timeNanos() / 1e9)
            + m.text()));
      }
    }
    List<String> phaseItems = new ArrayList<>();
    for (Map<String, Object> ph : phases) {
      phaseItems.add(ph.get("name") + " " + String.format(Locale.ROOT, "%.3f s", (Double) ph.get("seconds"))
          + (ph.containsKey("ended") ? " (not ended)" : ""));
    }
    for (RecoveryManager.Recovery r : rm.recoveries()) {
      lines.addAll(Text.lines("recovery", String.format(Locale.ROOT, "crash at %.3f s", r.crashNanos() / 1e9),
          String.format(Locale.ROOT, "start-up %.3f s (%s)", r.startDelayNanos() / 1e9,
              Text.plural(r.headerReads(), "VLF header")),
          String.format(Locale.ROOT, "analysis %.3f s", r.analysisNanos() / 1e9),
          String.format(Locale.ROOT, "redo %.3f s", r.redoNanos() / 1e9),
          String.format(Locale.ROOT, "undo %.3f s", r.undoNanos() / 1e9),
          r.rolledForward() + " rolled forward", r.rolledBack() + " rolled back"));
    }
    for (BackupAgent.Restore r : agent.restores()) {
      lines.addAll(Text.lines("restore", r.type() + ": " + String.format(Locale.ROOT, "%.3f s", r.seconds()),
          String.format(Locale.ROOT, "zero-init %.3f s (%s MB)", r.zeroInitSeconds(),
              Text.count(r.zeroedBytes() >> 20)),
          Text.count(r.copiedBytes() >> 20) + " MB copied"));
    }
    lines.addAll(Text.lines("phases", phaseItems));
    lines.addAll(Text.lines("run", String.format(Locale.ROOT, "%.2f wall s", wall), Text.plural(out.windows(),
        "window")));
    lines.add("digest       " + out.digestHex());

    Map<String, List<String>> tables = new LinkedHashMap<>();
    tables.put("messages", timeline(agent.messages()));
    List<BackupAgent.Message> errorLog = new ArrayList<>(db.errorLog());
    errorLog.addAll(rm.errorLog());
    errorLog.sort(Comparator.comparingLong(BackupAgent.Message::timeNanos));
    tables.put("errorlog", timeline(errorLog));
    return new Result(s, lines, tables);
  }

  /** Lines stamped with their virtual time, as the error log shows them. */
  static List<String> timeline(List<BackupAgent.Message> messages) {
    List<String> out = new ArrayList<>();
    for (BackupAgent.Message m : messages) {
      out.add(String.format(Locale.ROOT, "%12.3f s  %s", m.timeNanos() / 1e9, m.text()));
    }
    return out;
  }

  record Result(Map<String, Object> summary, List<String> humanLines, Map<String, List<String>> tables)
      implements ScenarioResult {}

  /** summary.json's recovery: the first recovery's phases (REFERENCE.md 3) and how many there were. */
  public static Map<String, Object> recovery(RecoveryManager.Stats rm) {
    RecoveryManager.Recovery r = rm.recoveries().get(0);
    Map<String, Object> rec = new LinkedHashMap<>();
    rec.put("crashSeconds", round(r.crashNanos() / 1e9, 6));
    rec.put("startDelaySeconds", round(r.startDelayNanos() / 1e9, 3));
    rec.put("analysisSeconds", round(r.analysisNanos() / 1e9, 3));
    rec.put("redoSeconds", round(r.redoNanos() / 1e9, 3));
    rec.put("undoSeconds", round(r.undoNanos() / 1e9, 3));
    rec.put("seconds", round((r.startDelayNanos() + r.analysisNanos() + r.redoNanos() + r.undoNanos()) / 1e9, 3));
    rec.put("rolledForward", r.rolledForward());
    rec.put("rolledBack", r.rolledBack());
    rec.put("vlfHeaderReads", r.headerReads());
    rec.put("bytesRead", r.bytesRead());
    rec.put("vlfBoundaries", r.boundaries());
    rec.put("count", rm.recoveries().size());
    return rec;
  }

  /** summary.json's backups[]: one entry per backup set the agent wrote (MB/sec as the completion line has it). */
  public static List<Map<String, Object>> backups(BackupAgent.Stats agent, int pageBytes) {
    List<Map<String, Object>> backups = new ArrayList<>();
    for (BackupAgent.Backup bk : agent.backups()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", bk.type());
      m.put("pages", bk.pages());
      m.put("seconds", round(bk.seconds(), 3));
      m.put("mbPerSec", round(bk.seconds() > 0 ? bk.pages() * (double) pageBytes / (1 << 20) / bk.seconds() : 0, 3));
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
    return backups;
  }

  static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
