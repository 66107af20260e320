package io.tlogsim.kinds.readpath;

import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.BackupProtocol;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readers.RecoveryProtocol;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.readpath.Database;
import io.tlogsim.database.script.Script;
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
import io.tlogsim.scenario.summary.Summary;
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
    return PreparedRun.of(() -> build(p), Built::topology, Built::models,
        (built, out) -> report(kind, scenario, p, control, built, out));
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

    List<Summary.Phase> phases = new ArrayList<>();
    for (int i = 0; i < script.steps().size(); i++) {
      if (db.phaseStart()[i] < 0) continue;
      boolean ended = db.phaseEnd()[i] >= 0;
      phases.add(new Summary.Phase(script.steps().get(i).name(), db.phaseStart()[i], ended ? db.phaseEnd()[i] : end,
          ended));
    }
    // every commit of the read path's connection waits for its log to harden: a crash loses none
    Summary summary = Summary.head(scenario, kind, control.seed(), Summary.round(seconds, 9), null, out.digestHex())
        .commits(c -> c.count(db.commits()).lost(0))
        .backups(agent, p.getInt("backupPageBytes"))
        .restore(agent.restores());
    if (!rm.recoveries().isEmpty()) summary.recovery(rm);
    double usedPercent = Summary.round(db.logSizeBytes() > 0 ? db.usedBytes() * 100.0 / db.logSizeBytes() : 0);
    summary.log(l -> l.writes(db.logWrites()).bytes(db.logBytes()).vlfs(db.vlfs()).sizeBytes(db.logSizeBytes())
            .usedPercent(usedPercent)
            .growths(db.growths() - p.getInt("logPreGrowths")) // during the run (the DBA's pre-growths apart)
            .zeroedBytes(db.zeroedBytes()).fullErrors(db.fullErrors()).reuseWait(db.reuseWait()).endLsn(db.endLsn()))
        .put("backupHistory", Params.ordered("filesCreated", db.filesCreated(), "entries", db.historyEntries(),
            "replaced", db.historyReplaced()));
    if (p.getDouble("replicationIntervalSeconds") > 0) {
      ReplicationLogReader.Stats rl = (ReplicationLogReader.Stats) out.results().get(b.replication());
      summary.put("replication", Params.ordered("passes", rl.passes(), "bytesRead", rl.bytesRead()));
    }
    Map<String, Object> s = summary.devices(devices, seconds)
        .phases(phases)
        .run(control, out)
        .params(p)
        .toMap();

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
    for (Summary.Phase ph : phases) {
      phaseItems.add(ph.name() + " " + String.format(Locale.ROOT, "%.3f s", Summary.round(ph.seconds(), 6))
          + (ph.ended() ? "" : " (not ended)"));
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
    return ScenarioResult.of(s, lines).withTables(tables);
  }

  /** Lines stamped with their virtual time, as the error log shows them. */
  static List<String> timeline(List<BackupAgent.Message> messages) {
    List<String> out = new ArrayList<>();
    for (BackupAgent.Message m : messages) {
      out.add(String.format(Locale.ROOT, "%12.3f s  %s", m.timeNanos() / 1e9, m.text()));
    }
    return out;
  }

}
