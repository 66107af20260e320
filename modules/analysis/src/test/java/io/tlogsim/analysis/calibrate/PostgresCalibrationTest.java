package io.tlogsim.analysis.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** calibrate-postgres runs pg_test_fsync where the server's flushes are issued: on the postmaster's cores. */
class PostgresCalibrationTest {
  private static final Path TASKSET = Path.of("/usr/bin/taskset");

  @Test
  void pgTestFsyncIsPinnedToTheServersCoresWhenTheyAreNotThisProcesss() {
    List<String> notes = new ArrayList<>();
    assertEquals(List.of("/usr/bin/taskset", "-c", "0"), PostgresCalibration.pinToServer("0", "0-1", TASKSET, notes));
    assertEquals(List.of("pg_test_fsync ran on the server's cores (taskset -c 0)"), notes);
  }

  @Test
  void theSameCoresWrittenOtherwiseNeedNoPinning() {
    List<String> notes = new ArrayList<>();
    assertEquals(List.of(), PostgresCalibration.pinToServer("0,1", "0-1", TASKSET, notes));
    assertTrue(notes.isEmpty(), notes.toString());
  }

  @Test
  void withoutTasksetItRunsUnpinnedAndSaysSo() {
    List<String> notes = new ArrayList<>();
    assertEquals(List.of(), PostgresCalibration.pinToServer("1", "0-1", null, notes));
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).contains("not the server's (1)") && notes.get(0).contains("taskset"), notes.get(0));
  }
}
