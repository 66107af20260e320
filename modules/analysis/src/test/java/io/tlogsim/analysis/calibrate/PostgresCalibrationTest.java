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

  @Test
  void pgTestFsyncRunsFromEachOfTheServersCoresAlone() {
    List<String> notes = new ArrayList<>();
    var runs = PostgresCalibration.fsyncRuns(true, "0-1", "0-1", TASKSET, notes);
    assertEquals(List.of(new PostgresCalibration.FsyncRun("0", List.of("/usr/bin/taskset", "-c", "0")),
        new PostgresCalibration.FsyncRun("1", List.of("/usr/bin/taskset", "-c", "1"))), runs);
    assertTrue(notes.isEmpty(), notes.toString());
  }

  @Test
  void coresThisProcessMayNotUseAreLeftOutAndNamed() {
    List<String> notes = new ArrayList<>();
    var runs = PostgresCalibration.fsyncRuns(true, "0-3", "0-2", TASKSET, notes);
    assertEquals(List.of("0", "1", "2"), runs.stream().map(PostgresCalibration.FsyncRun::cpus).toList());
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).contains("3 of the server's 4") && notes.get(0).contains("may not run on 3"), notes.get(0));
  }

  @Test
  void onceWhereEachCoreCannotBeMeasuredSayingWhy() {
    List<String> notes = new ArrayList<>();
    // asked for once: the set, as before, and no note
    assertEquals(List.of(new PostgresCalibration.FsyncRun("0-1", List.of())),
        PostgresCalibration.fsyncRuns(false, "0-1", "0-1", TASKSET, notes));
    assertTrue(notes.isEmpty(), notes.toString());
    // a server on one core: its core, pinned when this process's differ, no note beyond pinToServer's
    assertEquals(List.of(new PostgresCalibration.FsyncRun("0", List.of("/usr/bin/taskset", "-c", "0"))),
        PostgresCalibration.fsyncRuns(true, "0", "0-1", TASKSET, notes));
    assertEquals(List.of("pg_test_fsync ran on the server's cores (taskset -c 0)"), notes);
    // no taskset, same cores: once, on them, one note why
    notes.clear();
    assertEquals(List.of(new PostgresCalibration.FsyncRun("0-1", List.of())),
        PostgresCalibration.fsyncRuns(true, "0-1", "0-1", null, notes));
    assertEquals(1, notes.size());
    assertTrue(notes.get(0).contains("not from each alone") && notes.get(0).contains("taskset"), notes.get(0));
    // no taskset, other cores: on this process's cores, and pinToServer's one note (not two)
    notes.clear();
    assertEquals(List.of(new PostgresCalibration.FsyncRun("2-3", List.of())),
        PostgresCalibration.fsyncRuns(true, "0-1", "2-3", null, notes));
    assertEquals(1, notes.size(), notes.toString());
    // this process on one of the server's cores: once, pinned to the server's set
    notes.clear();
    assertEquals(List.of(new PostgresCalibration.FsyncRun("0-1", List.of("/usr/bin/taskset", "-c", "0-1"))),
        PostgresCalibration.fsyncRuns(true, "0-1", "1", TASKSET, notes));
    assertEquals(2, notes.size(), notes.toString());
    assertTrue(notes.get(1).contains("only one of them (its Cpus_allowed_list is 1)"), notes.get(1));
    // the server not visible here: once, unpinned, its cores unknown
    notes.clear();
    assertEquals(List.of(new PostgresCalibration.FsyncRun("", List.of())),
        PostgresCalibration.fsyncRuns(true, null, "0-1", TASKSET, notes));
    assertTrue(notes.get(0).contains("not visible"), notes.toString());
  }
}
