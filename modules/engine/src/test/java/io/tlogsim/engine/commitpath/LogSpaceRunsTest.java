package io.tlogsim.engine.commitpath;

import static io.tlogsim.engine.commitpath.CommitPathRuns.at;
import static io.tlogsim.engine.commitpath.CommitPathRuns.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log space through whole runs of the built-in scenarios (sessions, log manager, devices). */
class LogSpaceRunsTest {

  @Test
  void twoGrowingLogFilesGrowInTurnWhileTheLogWaitsForTheZeroes() {
    Map<String, Object> s = CommitPathRuns.run("two-log-files");
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
    Map<String, Object> s = CommitPathRuns.run("log-full-9002", "logMaxSizeMB", "16");
    // each transaction takes 2,048 B of log (1,800 B of records on whole 512 B sectors); the log manager asks for one
    // 60 KB block ahead: (16 MB - 60 KB) / 2,048 B transactions commit, the next fails (to within the one
    // transaction whose block the last reservation covers)
    assertEquals((16.0 * 1048576 - 61440) / 2048, num(s, "commits.count"), 1.0);
    assertEquals("LOG_BACKUP", at(s, "log.fullReason"));
    assertTrue(num(s, "log.fullErrors") > 0);
    assertEquals("end", at(s, "logspace[0].name"), "the script went on after the errors");

    Map<String, Object> open = CommitPathRuns.run("log-full-9002-open-transaction", "logMaxSizeMB", "16");
    assertEquals("ACTIVE_TRANSACTION", at(open, "log.fullReason"));
    assertEquals(1.0, num(open, "log.fullErrors"));
  }

  @Test
  void inSimpleTheSameLoadFitsBecauseCheckpointsTruncate() {
    Map<String, Object> s = CommitPathRuns.run("log-full-9002", "recoveryModel", "SIMPLE", "logMaxSizeMB", "16");
    assertEquals(0.0, num(s, "log.fullErrors"));
    assertEquals(20000.0, num(s, "commits.count"));
    assertTrue(num(s, "log.checkpoints") > 0);
    assertTrue(num(s, "log.sizeBytes") <= 16 * 1048576);
  }

  @Test
  void sameDigestOnOneAndTwoThreads() {
    var sc = CommitPathRuns.scenario("two-log-files");
    assertEquals(CommitPathRuns.run(sc, 42, 1).get("digest"), CommitPathRuns.run(sc, 42, 2).get("digest"));
  }
}
