package io.tlogsim.kinds.readpath;

import static io.tlogsim.kinds.ScenarioRuns.at;
import static io.tlogsim.kinds.ScenarioRuns.num;
import static io.tlogsim.kinds.ScenarioRuns.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.readers.BackupHistory;
import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.BadInputException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The read path's mechanisms on small databases: the log reader, backup history, crash recovery, restore. */
class ReadPathTest {
  // a simple device: every request 1 ms + bytes / 100 MB/s, one at a time, so costs are easy to count
  private static final String[] DEVICE = {"logDevice", "simple", "dataDevice", "simple", "simpleLatencyUs", "1000",
      "simpleMBps", "100", "backupDevice", "ssd", "fullBackupTaken", "true", "cpuRowUs", "0", "cpuStatementUs", "0"};

  private static Map<String, Object> run(String... keys) {
    String[] all = new String[DEVICE.length + keys.length];
    System.arraycopy(DEVICE, 0, all, 0, DEVICE.length);
    System.arraycopy(keys, 0, all, DEVICE.length, keys.length);
    return ScenarioRuns.run("read-path", all);
  }

  /** 64 MB of log in one large update, then a log backup: on a log of 256 KB VLFs, or of 128 MB VLFs. */
  private static Map<String, Object> backup(String initialMB, String preGrowths) {
    return run("logInitialMB", initialMB, "logGrowthMB", "1", "logPreGrowths", preGrowths, "logPreGrowthMB", "1",
        "updateRowLogBytes", "1024", "script", "[{step = large-update, rows = 65536}, {step = backup-log}]");
  }

  @Test
  void eachVlfBoundaryCostsAHeaderReadAndARestartOfTheStream() {
    Map<String, Object> few = backup("1024", "0"); // 8 VLFs of 128 MB: the 64 MB fit in one
    Map<String, Object> many = backup("4", "252"); // 256 MB in 1 MB growths: VLFs of 256 KB
    assertEquals(num(few, "backups[0].pages"), num(many, "backups[0].pages"), "the same log");
    assertEquals(0.0, num(few, "backups[0].vlfBoundaries"));
    long boundaries = (long) num(many, "backups[0].vlfBoundaries");
    assertTrue(boundaries >= 243, "64 MB over the 4 VLFs of 1 MB, then 256 KB ones: " + boundaries);
    assertEquals(boundaries + 1, num(many, "backups[0].headerReads"), "a header per VLF read, the first included");
    // the same bytes; the difference is a header read per VLF (1 ms + 8 KB / 100 MB/s) and the reads cut short at
    // each VLF's end (1 ms each): nothing else
    double extraReads = num(many, "backups[0].reads") - num(few, "backups[0].reads");
    double expected = extraReads * 1e-3 + (boundaries + 1) * (1e-3 + 8192 / 100e6) - (1e-3 + 8192 / 100e6);
    assertTrue(extraReads >= boundaries - 64, "reads end at VLF ends: " + extraReads);
    assertEquals(expected, num(many, "backups[0].seconds") - num(few, "backups[0].seconds"), expected * 0.01);
  }

  @Test
  void aLogBackupTruncatesTheFullModelsLog() {
    Map<String, Object> s = backup("1024", "0");
    assertEquals(0.0, num(s, "backups[0].historySeconds"), 1e-3, "one history row (the log file) costs nothing here");
    assertTrue(num(s, "log.usedPercent") < 30, "the backup freed the VLFs before the current one: " + at(s, "log"));
  }

  @Test
  void historyRowsAfterEachLogBackupAndTraceFlag3001SkipsThem() {
    String script = "[{step = add-data-file, files = 200}, {step = remove-data-file, files = 200}, {step = backup-log},"
        + " {step = backup-log}, {step = backup-log}]";
    Map<String, Object> s = run("script", script, "logInitialMB", "64", "fileAddLogBytes", "1000",
        "fileRemoveLogBytes", "1000");
    List<?> b = (List<?>) at(s, "backups");
    assertEquals(3, b.size());
    assertEquals(201.0, num(s, "backups[0].historyRows"));
    assertEquals(201.0, num(s, "backups[1].historyRows"), "the second backup writes them again (REFERENCE.md 5.4)");
    assertEquals(1.0, num(s, "backups[2].historyRows"));
    double expected = BackupHistory.writeSeconds(201, 0, 3.749);
    assertEquals(expected, num(s, "backups[0].historySeconds"), 1e-3);
    assertEquals(num(s, "backups[0].seconds") + expected, num(s, "backups[0].returnedSeconds"), 2e-3);
    assertEquals(num(s, "phases[2].seconds"), num(s, "backups[0].returnedSeconds"), 2e-3,
        "the command returns after the history rows");

    Map<String, Object> tf = run("script", script, "logInitialMB", "64", "fileAddLogBytes", "1000",
        "fileRemoveLogBytes", "1000", "traceFlag3001", "true");
    assertEquals(0.0, num(tf, "backups[0].historySeconds"));
    assertEquals(0.0, num(tf, "backups[0].historyRows"));
    assertEquals(num(s, "backups[0].seconds"), num(tf, "backups[0].seconds"), 1e-9, "the backup set is the same");
  }

  @Test
  void simpleModelClearsTheFileListAtCheckpointAndRefusesLogBackups() {
    Map<String, Object> s = run("recoveryModel", "SIMPLE", "script", "[{step = add-data-file, files = 50},"
        + " {step = checkpoint}, {step = backup-database}, {step = backup-log}]");
    assertEquals(2.0, num(s, "backups[0].historyRows"), "the list was cleared: the data and log files' rows");
    assertEquals(1, ((List<?>) at(s, "backups")).size(), "BACKUP LOG is refused (Msg 4208)");
  }

  @Test
  void redoReplaysCommittedWorkSinceTheCheckpointAndUndoRollsBackTheOpenTransaction() {
    String layout = "logInitialMB";
    Map<String, Object> redo = run(layout, "256", "updateRowLogBytes", "1024", "script",
        "[{step = large-update, rows = 20000, statements = 2}, {step = crash}, {step = insert, rows = 10}]");
    assertEquals(1.0, num(redo, "recovery.rolledForward"));
    assertEquals(0.0, num(redo, "recovery.rolledBack"));
    assertEquals(0.0, num(redo, "recovery.undoSeconds"));
    assertTrue(num(redo, "recovery.redoSeconds") > 0.4, "40 MB read at 100 MB/s: " + at(redo, "recovery"));
    assertEquals(8.0, num(redo, "recovery.vlfHeaderReads"), "every VLF header at start-up (256 MB: 8 VLFs)");
    assertEquals(3, ((List<?>) at(redo, "phases")).size(), "the script goes on after recovery");

    Map<String, Object> undo = run(layout, "256", "updateRowLogBytes", "1024", "script",
        "[{step = large-update, rows = 20000, statements = 2, commit = false}, {step = checkpoint}, {step = crash}]");
    assertEquals(0.0, num(undo, "recovery.rolledForward"));
    assertEquals(1.0, num(undo, "recovery.rolledBack"));
    assertTrue(num(undo, "recovery.undoSeconds") > 0.8, "40 MB undone at 50 MB/s: " + at(undo, "recovery"));
    assertTrue(num(undo, "recovery.redoSeconds") < 0.01, "the checkpoint left nothing to redo");
  }

  @Test
  void startUpReadsEveryVlfHeaderBeforeRecoveryStarts() {
    Map<String, Object> many = run("logInitialMB", "1", "logPreGrowths", "999", "logPreGrowthMB", "1", "script",
        "[{step = insert, rows = 10}, {step = crash}]");
    assertEquals(4.0 + 999 * 4, num(many, "recovery.vlfHeaderReads"), "4 VLFs, and 4 per 1 MB growth");
    // 4,000 headers of 8 KB, one at a time: 1 ms + 8 KB / 100 MB/s each
    assertEquals(4000 * (1e-3 + 8192 / 100e6), num(many, "recovery.startDelaySeconds"), 0.05);
  }

  @Test
  void aCrashAtARandomTimeIsDrawnFromTheSeed() {
    String[] keys = {"crashRandomSeconds", "1", "script", "[{step = insert, rows = 100000}]"};
    Map<String, Object> a = run(keys);
    Map<String, Object> b = run(keys);
    assertEquals(at(a, "recovery"), at(b, "recovery"));
    assertEquals(at(a, "digest"), at(b, "digest"));
    double t = num(a, "recovery.crashSeconds");
    assertTrue(t > 0 && t < 1, "crash at " + t);
    assertEquals(false, ((Map<?, ?>) ((List<?>) at(a, "phases")).get(0)).get("ended"), "the insert loop was cut");
    assertEquals(0.0, num(a, "commits.lost"), "every commit waited for its log");
  }

  @Test
  void restoreZeroInitializesEveryLogFileBeforeCopying() {
    String script = "[{step = backup-database}, {step = large-update, rows = 1000}, {step = backup-log},"
        + " {step = restore-database, recovery = false}, {step = restore-log}]";
    Map<String, Object> one = run("fullBackupTaken", "false", "logInitialMB", "100", "dataFileMB", "10", "script",
        script);
    Map<String, Object> two = run("fullBackupTaken", "false", "logInitialMB", "100", "dataFileMB", "10",
        "secondLogInitialMB", "200", "script", script);
    assertEquals(100 * 0.01048576 + 0.001, num(one, "restore.zeroInitSeconds"), 0.01, "100 MiB at 10^8 B/s, a request");
    assertEquals(300 * 0.01048576 + 0.002, num(two, "restore.zeroInitSeconds"), 0.01, "200 MiB more: a second file");
    assertEquals(num(one, "restore.dataCopySeconds"), num(two, "restore.dataCopySeconds"), 1e-6);
    assertNull(at(one, "recovery"), "no crash, no recovery");
  }

  @Test
  void aSlowReplicationLogReaderHoldsTruncationAndTheLogGrows() {
    String[] keys = {"recoveryModel", "SIMPLE", "logInitialMB", "4", "logGrowthMB", "1", "insertRowLogBytes", "4000",
        "script", "[{step = insert, rows = 5000, commitEvery = 10}]"};
    Map<String, Object> alone = run(keys);
    assertEquals(0.0, num(alone, "log.growths"), "checkpoints at 70% keep the simple model's log in 4 MB");
    assertEquals("NOTHING", at(alone, "log.reuseWait"));

    String[] slow = new String[keys.length + 4];
    System.arraycopy(keys, 0, slow, 0, keys.length);
    System.arraycopy(new String[] {"replicationIntervalSeconds", "0.5", "replicationReaderMBps", "0.5"}, 0, slow,
        keys.length, 4);
    Map<String, Object> held = run(slow);
    assertTrue(num(held, "log.growths") > 5, "the reader held truncation: " + at(held, "log"));
    assertEquals("REPLICATION", at(held, "log.reuseWait"));
    assertTrue(num(held, "replication.passes") >= 1, "passes " + at(held, "replication"));

    slow[slow.length - 1] = "1000";
    Map<String, Object> fast = run(slow);
    assertTrue(num(fast, "log.growths") < num(held, "log.growths"), "a fast reader holds it less: " + at(fast, "log"));
  }

  @Test
  void badScriptsAreRefusedWithTheKeyNamed() {
    BadInputException e = assertThrows(BadInputException.class, () -> ScenarioRuns.scenario("read-path", "script",
        "[{step = commit-loop, thinkMeanUs = 10}]"));
    assertTrue(e.getMessage().contains("script") && e.getMessage().contains("commit-loop"), e.getMessage());
    e = assertThrows(BadInputException.class, () -> ScenarioRuns.scenario("read-path", "script",
        "[{step = insert, seconds = 10}]"));
    assertTrue(e.getMessage().contains("rows"), e.getMessage());
    e = assertThrows(BadInputException.class, () -> ScenarioRuns.scenario("commit-path", "script",
        "[{step = backup-log}]"));
    assertTrue(e.getMessage().contains("read-path"), e.getMessage());
    e = assertThrows(BadInputException.class, () -> ScenarioRuns.scenario("read-path", "script",
        "[{step = add-data-file}]"));
    assertTrue(e.getMessage().contains("files"), e.getMessage());
  }
}
