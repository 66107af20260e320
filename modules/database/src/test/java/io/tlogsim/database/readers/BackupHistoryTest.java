package io.tlogsim.database.readers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The backup history's file list (REFERENCE.md 3 and 5.4): what a backup writes, and when entries leave. */
class BackupHistoryTest {

  @Test
  void aBackupListsTheFilesCreatedSinceAndTheNextOneListsThemAgainThenLetsThemGo() {
    BackupHistory h = new BackupHistory(BackupHistory.MAX_ENTRIES);
    for (int f = 0; f < 4000; f++) h.fileCreated(f + 3, 1000 + f);
    assertEquals(4001, h.rows(), "4,000 files and the log file (REFERENCE.md 5.4)");
    h.backupCompleted(0); // the first log backup's range begins at the full backup, before the files
    assertEquals(4001, h.rows(), "a second log backup writes 4,001 rows again (REFERENCE.md 5.4)");
    h.backupCompleted(10_000); // the second one's range begins after them all
    assertEquals(1, h.rows(), "a third writes the log file's row alone");
  }

  @Test
  void aLogBackupAfterEachDropKeepsTheListShort() {
    BackupHistory h = new BackupHistory(BackupHistory.MAX_ENTRIES);
    long lsn = 0;
    long rangeStart = 0;
    int most = 0;
    for (int f = 0; f < 1000; f++) {
      h.fileCreated(f + 3, lsn += 10);
      lsn += 10; // the drop
      most = Math.max(most, h.rows());
      h.backupCompleted(rangeStart);
      rangeStart = lsn; // the next backup's range begins where this one ended
    }
    assertTrue(most <= 3, "at most the previous interval's entry, this one's and the log: " + most);
  }

  @Test
  void atMost32767EntriesTheOldestReplacedAndSimpleModelClearsAtCheckpoint() {
    BackupHistory h = new BackupHistory(BackupHistory.MAX_ENTRIES);
    for (int f = 0; f < 40_000; f++) h.fileCreated(f, f);
    assertEquals(32_767, h.entries());
    assertEquals(40_000 - 32_767, h.replaced());
    h.backupCompleted(40_000 - 32_767 + 1); // only the oldest surviving entry (made at 7,233) is before it
    assertEquals(32_766, h.entries(), "the oldest were replaced, so the oldest left is the one made at 7,233");
    h.clear();
    assertEquals(1, h.rows());
  }

  @Test
  void historyTimeGrowsWithTheSquareOfTheRows() {
    double four = BackupHistory.writeSeconds(4001, 0, 3.749);
    double thirtyTwo = BackupHistory.writeSeconds(32_001, 0, 3.749);
    assertEquals(30.0, four, 0.01, "the calibration of REFERENCE.md 5.4");
    assertEquals(64.0, thirtyTwo / four, 0.1, "eight times the rows, 64 times the time");
    assertEquals(0.002, BackupHistory.writeSeconds(2, 1000, 0), 1e-12, "without growth: linear");
  }

  @Test
  void stateRoundTrips() {
    BackupHistory h = new BackupHistory(5);
    for (int f = 0; f < 8; f++) h.fileCreated(f, f * 10);
    BackupHistory copy = new BackupHistory(5);
    copy.restore(h.state());
    assertEquals(h.state(), copy.state());
    assertEquals(3, copy.replaced());
  }
}
