package io.tlogsim.kinds.commitpath;

import static io.tlogsim.kinds.ScenarioRuns.at;
import static io.tlogsim.kinds.ScenarioRuns.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.ScenarioRuns;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log space through whole runs of the built-in scenarios (sessions, log manager, devices). */
class LogSpaceRunsTest {

  @Test
  void twoGrowingLogFilesGrowInTurnWhileTheLogWaitsForTheZeroes() {
    Map<String, Object> s = ScenarioRuns.run("two-log-files");
    assertEquals(12.0, num(s, "log.files[0].vlfs"));
    assertEquals(8.0, num(s, "log.files[1].vlfs"));
    assertEquals(3.0, num(s, "log.growths"));
    assertEquals(3.0, num(s, "waits.PREEMPTIVE_OS_WRITEFILEGATHER.count"), "every growth stalled the log");
    assertTrue(num(s, "waits.PREEMPTIVE_OS_WRITEFILEGATHER.totalMs") > 0);
    assertEquals("LOG_BACKUP", at(s, "log.reuseWait"));
    // the log was written on both drives
    assertTrue(num(s, "devices.log-device.writes") > 0 && num(s, "devices.log-device-2.writes") > 0, s.toString());
  }

  @Test
  void aFullLogFailsAtTheTransactionTheArithmeticPredictsAndTheRunGoesOn() {
    Map<String, Object> s = ScenarioRuns.run("log-full-9002", "logMaxSizeMB", "16");
    // each transaction takes 2,048 B of log (1,800 B of records on whole 512 B sectors); the log manager asks for one
    // 60 KB block ahead: (16 MB - 60 KB) / 2,048 B transactions commit, the next fails (to within the one
    // transaction whose block the last reservation covers)
    assertEquals((16.0 * 1048576 - 61440) / 2048, num(s, "commits.count"), 1.0);
    assertEquals("LOG_BACKUP", at(s, "log.fullReason"));
    assertTrue(num(s, "log.fullErrors") > 0);
    assertEquals("end", at(s, "logspace[0].name"), "the script went on after the errors");

    Map<String, Object> open = ScenarioRuns.run("log-full-9002-open-transaction", "logMaxSizeMB", "16");
    assertEquals("ACTIVE_TRANSACTION", at(open, "log.fullReason"));
    assertEquals(1.0, num(open, "log.fullErrors"));
  }

  @Test
  void inSimpleTheSameLoadFitsBecauseCheckpointsTruncate() {
    Map<String, Object> s = ScenarioRuns.run("log-full-9002", "recoveryModel", "SIMPLE", "logMaxSizeMB", "16");
    assertEquals(0.0, num(s, "log.fullErrors"));
    assertEquals(20000.0, num(s, "commits.count"));
    assertTrue(num(s, "log.checkpoints") > 0);
    assertTrue(num(s, "log.sizeBytes") <= 16 * 1048576);
  }

  @Test
  @SuppressWarnings("unchecked")
  void logBackupsTruncateTheFullLogButNotPastTheLastCheckpoint() {
    Map<String, Object> s = ScenarioRuns.run("log-backup-cadence");
    assertEquals(0.0, num(s, "log.fullErrors"), "log-full-9002's load fits once log backups truncate");
    assertEquals(20000.0, num(s, "commits.count"));
    List<Map<String, Object>> backups = (List<Map<String, Object>>) at(s, "backups");
    assertEquals(3, backups.size());
    // each backup reads what was logged since the last: 5,000 transactions of 2,048 B (see log-full-9002)
    assertEquals(5000.0 * 2048, num(s, "backups[0].bytes"));
    for (Map<String, Object> b : backups) {
      long bytes = ((Number) b.get("bytes")).longValue();
      assertEquals((bytes + 8191) / 8192, ((Number) b.get("pages")).longValue());
      assertTrue(((Number) b.get("headerReads")).longValue() >= 1, "a header read per VLF: " + b);
    }
    // MinLSN holds the log at the last checkpoint (the first comes at 60 s): the backups before it free nothing
    List<String> messages = (List<String>) at(s, "log.messages");
    assertTrue(messages.get(0).contains("0 VLFs freed (log_reuse_wait CHECKPOINT)"), messages.toString());
    assertTrue(messages.get(2).matches(".*, [1-9][0-9]* VLFs freed\\.$"), messages.toString());
  }

  @Test
  void aCrashMidStatementIsRecoveredThroughTheLogsVlfsAndRollsTheStatementBack() {
    var sc = ScenarioRuns.scenario("log-full-9002-open-transaction", "crashAtSeconds", "1.5");
    Map<String, Object> s = ScenarioRuns.run(sc, 42, 2);
    assertEquals(1.0, num(s, "recovery.rolledBack"), "the INSERT ... SELECT under way");
    assertEquals(0.0, num(s, "commits.lost"));
    assertEquals(num(s, "log.vlfs"), num(s, "recovery.vlfHeaderReads"), "start-up reads every VLF's header");
    for (String phase : List.of("startDelaySeconds", "analysisSeconds", "redoSeconds", "undoSeconds")) {
      assertTrue(num(s, "recovery." + phase) > 0, phase + ": " + s.get("recovery"));
    }
    assertEquals(s.get("digest"), ScenarioRuns.run(sc, 42, 1).get("digest"));
    assertEquals(s.get("recovery"), ScenarioRuns.run(sc, 42, 1).get("recovery"));
  }

  @Test
  void aDataFileGrowsAsItsRowsDoAndItsZeroingStallsTheLogUnlessInstantInitialization() {
    // 100,000 rows of 50 per 8 KB page: 2,000 pages (16,384,000 B) in a file of 10 MB, so it starts at the table's
    // size; the update grows every row by 200 B: 20,000,000 B more, 5 growths of 4 MB
    String[] base = {"tableRows", "100000", "rowsPerPage", "50", "dataFileMB", "10", "dataGrowthMB", "4",
        "logSizeMB", "64", "cpuUpdateRowUs", "0", // the statement is all log and growth: the stalls show
        "script", "[{ step = large-update, rows = 100000, growBytes = 200, name = update }]"};
    Map<String, Object> zeroed = ScenarioRuns.run("log-space", base);
    assertEquals(5.0, num(zeroed, "data.growths"));
    assertEquals(5.0 * 4 * 1048576, num(zeroed, "data.zeroedBytes"));
    assertEquals((16_384_000 + 5.0 * 4 * 1048576) / 1048576, num(zeroed, "data.sizeMB"), 0.01);
    assertTrue(num(zeroed, "data.growthStallMs") > 0);

    String[] ifi = Arrays.copyOf(base, base.length + 2);
    ifi[base.length] = "instantFileInitialization";
    ifi[base.length + 1] = "true";
    Map<String, Object> instant = ScenarioRuns.run("log-space", ifi);
    assertEquals(5.0, num(instant, "data.growths"));
    assertEquals(0.0, num(instant, "data.zeroedBytes"));
    assertEquals(0.0, num(instant, "data.growthStallMs"));
    assertTrue(num(instant, "phases[0].seconds") < num(zeroed, "phases[0].seconds"),
        "zeroing made the update wait: " + zeroed.get("phases") + " vs " + instant.get("phases"));
  }

  @Test
  void sameDigestOnOneAndTwoThreads() {
    var sc = ScenarioRuns.scenario("two-log-files");
    assertEquals(ScenarioRuns.run(sc, 42, 1).get("digest"), ScenarioRuns.run(sc, 42, 2).get("digest"));
  }
}
