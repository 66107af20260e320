package io.tlogsim.database.logspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.script.Step;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The log space's rules (REFERENCE.md 1) on a host that records what the space asks of it. */
class ManagedLogSpaceTest {
  private static final long MB = 1L << 20;

  /** A log manager stand-in: zero-fills are recorded and completed when the test says. */
  static final class FakeHost implements LogSpace.Host {
    long now;
    final List<long[]> zeroes = new ArrayList<>(); // device, offset, bytes, file, tag
    int ready;
    final List<Integer> adminDone = new ArrayList<>();

    @Override
    public long now() {
      return now;
    }

    @Override
    public void zero(int device, long deviceOffset, long bytes, int fileId, long tag) {
      zeroes.add(new long[] {device, deviceOffset, bytes, fileId, tag});
    }

    @Override
    public void spaceReady() {
      ready++;
    }

    @Override
    public long hardenedLsn() {
      return Long.MAX_VALUE; // every write completes at once here
    }

    @Override
    public void adminDone(int session) {
      adminDone.add(session);
    }
  }

  private static ManagedLogSpace space(VlfRule rule, ManagedLogSpace.RecoveryModel model, List<Step> script,
      LogFileSpec... files) {
    List<Step> steps = script == null ? List.of() : script;
    return new ManagedLogSpace(new ManagedLogSpace.Config("db", rule, List.of(files), List.of("log-device",
        "log-device-2"), model, 3.6, 70, false, 2, steps, 1, 0, 1_000_000));
  }

  /** A log administration step as a script gives it: its type and keys (the log space carries it out from them). */
  private static Step admin(Step.Type type, Object... keyValues) {
    Map<String, Object> given = new LinkedHashMap<>();
    given.put("step", type.word);
    for (int i = 0; i < keyValues.length; i += 2) given.put((String) keyValues[i], keyValues[i + 1]);
    return new Step(type, type.word, 0, 0, 1, 0, false, false, 0, false, given);
  }

  private static LogFileSpec file(String name, long size, long growth, long max, String device) {
    return new LogFileSpec(name, size, growth, 0, max, device);
  }

  /** Writes {@code bytes} at the end of the log, asking for room first (and completing any growth's zero-fill). */
  private static List<LogSpace.Segment> write(ManagedLogSpace s, FakeHost h, long bytes) {
    long end = s.layout().endLsn();
    for (int round = 0; !s.reserve(h, end + bytes); round++) {
      assertFalse(s.full(), "the log is full");
      assertTrue(round < 100 && !h.zeroes.isEmpty(), "refused without a growth to wait for");
      while (!h.zeroes.isEmpty()) s.onZeroDone(h, h.zeroes.remove(0)[4]);
    }
    return s.place(end, bytes);
  }

  @Test
  void aGrowthIsZeroedOnItsDeviceWhileTheLogWaitsUnless2022ExemptsIt() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 4 * MB, 2 * MB, 0, "log-device"));
    s.place(0, 4 * MB - 512);
    assertFalse(s.reserve(h, 4 * MB + 60 * 1024), "no room: the log grows and waits for the zeroes");
    assertFalse(s.full());
    assertEquals(1, h.zeroes.size());
    assertEquals(List.of(0L, 4 * MB, 2 * MB, 2L), List.of(h.zeroes.get(0)[0], h.zeroes.get(0)[1],
        h.zeroes.get(0)[2], h.zeroes.get(0)[3]));
    h.now = 5_000_000;
    assertFalse(s.reserve(h, 4 * MB + 60 * 1024), "still zeroing");
    s.onZeroDone(h, h.zeroes.remove(0)[4]);
    assertEquals(1, h.ready, "appends go on once the zeroes are on the device");
    assertTrue(s.reserve(h, 4 * MB + 60 * 1024));
    assertEquals(8, s.layout().vlfCount());
    assertEquals(1, s.report().growthStalls());
    assertEquals(5_000_000, s.report().growthStallNanos());

    FakeHost h2 = new FakeHost();
    ManagedLogSpace azure = space(VlfRule.SQL_2022, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 4 * MB, 64 * MB, 0, "log-device"));
    azure.place(0, 4 * MB - 512);
    assertTrue(azure.reserve(h2, 4 * MB + 60 * 1024), "2022: a 64 MB growth is not zeroed");
    assertTrue(h2.zeroes.isEmpty());
    assertEquals(2, azure.layout().vlfCount());
  }

  @Test
  void simpleTruncatesAtCheckpointAndTheLogWrapsToTheFirstVlf() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.SIMPLE, null,
        file("db_log", 4 * MB, 0, 0, "log-device")); // 4 VLFs of 1 MB, no growth
    write(s, h, 3 * MB + 512);
    assertEquals(ManagedLogSpace.CHECKPOINT, s.reuseWait());
    assertTrue(s.takeCheckpointRequest(), "SIMPLE: a checkpoint at 70% used");
    s.onCheckpoint(h, 3 * MB + 512);
    assertEquals(ManagedLogSpace.NOTHING, s.reuseWait());
    write(s, h, MB - 512);
    List<LogSpace.Segment> wrapped = write(s, h, 4096);
    assertEquals(List.of(new LogSpace.Segment(0, 0, 2, 4096)), wrapped, "the first VLF is reused");
    assertEquals(4, s.layout().vlfCount(), "no growth");
    assertEquals(5, s.layout().file(2).vlfs().get(0).fseqNo());
  }

  @Test
  void fullGrowsInsteadUntilALogBackupTruncatesThroughTheHook() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 4 * MB, 4 * MB, 0, "log-device"));
    write(s, h, 3 * MB + 512);
    s.onCheckpoint(h, 3 * MB + 512);
    assertEquals(ManagedLogSpace.LOG_BACKUP, s.reuseWait(), "FULL: a checkpoint does not truncate");
    assertFalse(s.takeCheckpointRequest(), "no 70% checkpoint in FULL");
    write(s, h, MB);
    assertEquals(8, s.layout().vlfCount(), "it grew instead");
    assertEquals(3, s.truncateUpTo(3 * MB + 512), "a log backup up to here frees the first three VLFs");
    assertEquals(3 * MB, s.activeStartLsn());
    assertEquals(ManagedLogSpace.LOG_BACKUP, s.reuseWait(), "the fourth still holds log not backed up");
    assertEquals(0, s.truncateUpTo(5 * MB), "MinLSN: the last checkpoint is still in the fourth VLF");
    assertEquals(ManagedLogSpace.CHECKPOINT, s.reuseWait());
  }

  @Test
  void reservationCountsAsUsedUntilCommitOrRollback() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 34 * MB, 0, 0, "log-device"));
    s.begin(0, 0);
    write(s, h, MB);
    s.logged(0, MB, false, MB / 2); // undo records half the size of what was logged
    assertEquals(MB + Math.round(MB / 2 * 3.6), s.usedNow());
    s.end(0); // commit
    assertEquals(MB, s.usedNow(), "released on commit");

    s.begin(1, MB);
    write(s, h, MB);
    s.logged(1, MB, false, MB);
    long reserved = Math.round(MB * 3.6);
    assertEquals(2 * MB + reserved, s.usedNow());
    write(s, h, MB);
    s.logged(1, MB, true, 0); // the rollback's compensation records use the reservation
    assertEquals(3 * MB + reserved - MB, s.usedNow());
    s.end(1);
    assertEquals(3 * MB, s.usedNow(), "released on rollback");
  }

  @Test
  void aLogThatCannotGrowFailsWith9002AndItsReason() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 2 * MB, 1 * MB, 4 * MB, "log-device"));
    write(s, h, 4 * MB - 4096); // grown twice to its maximum
    assertEquals(4 * MB, s.layout().totalSize());
    assertFalse(s.reserve(h, 4 * MB + 60 * 1024));
    assertTrue(s.full());
    s.failed(h, 0);
    assertEquals(1, s.report().fullErrors());
    assertEquals("0.000 s: Msg 9002: The transaction log for database 'db' is full due to 'LOG_BACKUP'.",
        s.report().messages().get(0));

    FakeHost h2 = new FakeHost();
    ManagedLogSpace open = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 2 * MB, 1 * MB, 4 * MB, "log-device"));
    open.begin(1, 0); // a transaction open since the first VLF
    write(open, h2, 4 * MB - 4096);
    assertFalse(open.reserve(h2, 4 * MB + 60 * 1024));
    assertTrue(open.full());
    assertEquals(ManagedLogSpace.ACTIVE_TRANSACTION, open.reuseWait());
  }

  @Test
  void twoLogFilesAreFilledInSequenceEachOnItsDevice() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 2 * MB, 0, 0, "log-device"), file("db_log2", 2 * MB, 0, 0, "log-device-2"));
    List<LogSpace.Segment> a = write(s, h, 2 * MB - 4096);
    assertEquals(0, a.get(0).device());
    List<LogSpace.Segment> b = write(s, h, 8192); // across the end of file 2 into file 3
    assertEquals(List.of(new LogSpace.Segment(0, 2 * MB - 4096, 2, 4096), new LogSpace.Segment(1, 0, 3, 4096)), b);
  }

  @Test
  void shrinkAndRemoveFileGiveTheRealMessages() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.PRE_2014, ManagedLogSpace.RecoveryModel.SIMPLE,
        List.of(admin(Step.Type.GROW_LOG, "mb", 4), admin(Step.Type.SHRINK_FILE, "file", 2, "targetMB", 4),
            admin(Step.Type.ADD_LOG_FILE, "file", "db_log2", "sizeMB", 2, "device", 2),
            admin(Step.Type.REMOVE_FILE, "file", 3), admin(Step.Type.SHRINK_FILE, "file", 2, "targetMB", 1)),
        file("db_log", 4 * MB, 0, 0, "log-device"));
    assertFalse(s.admin(h, 0, 0), "the growth is zeroed first");
    s.onZeroDone(h, h.zeroes.remove(0)[4]);
    assertEquals(List.of(0), h.adminDone);
    assertEquals(8 * MB, s.layout().totalSize());
    assertTrue(s.admin(h, 0, 1));
    assertEquals(4 * MB, s.layout().totalSize(), "the inactive VLFs at the end are gone");
    assertTrue(s.report().messages().get(0).endsWith("DBCC SHRINKFILE (2, 4): file 2 is now 4 MB in 4 VLFs."));

    assertFalse(s.admin(h, 0, 2)); // ADD LOG FILE: zeroed on the second device
    assertEquals(1, h.zeroes.get(0)[0]);
    s.onZeroDone(h, h.zeroes.remove(0)[4]);
    write(s, h, 4 * MB + 4096); // into the new file: it holds active log
    assertTrue(s.admin(h, 0, 3));
    assertTrue(s.report().messages().get(1).endsWith("REMOVE FILE 3: The file 'db_log2' cannot be removed because"
        + " it is not empty."), s.report().messages().get(1));
    assertTrue(s.admin(h, 0, 4));
    assertTrue(s.report().messages().get(2).endsWith("DBCC SHRINKFILE (2, 1): Cannot shrink log file 2 (db_log)"
        + " because the logical log file located at the end of the file is in use."), s.report().messages().get(2));
  }

  @Test
  void aSnapshotRestoresTheSameLayout() {
    FakeHost h = new FakeHost();
    ManagedLogSpace s = space(VlfRule.SQL_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 2 * MB, 2 * MB, 0, "log-device"), file("db_log2", 2 * MB, 2 * MB, 0, "log-device-2"));
    s.begin(0, 0);
    write(s, h, 9 * MB);
    ManagedLogSpace copy = space(VlfRule.SQL_2014, ManagedLogSpace.RecoveryModel.FULL, null,
        file("db_log", 2 * MB, 2 * MB, 0, "log-device"), file("db_log2", 2 * MB, 2 * MB, 0, "log-device-2"));
    copy.restore(s.snapshot());
    assertEquals(s.logInfo(), copy.logInfo());
    assertEquals(write(s, h, 3 * MB), write(copy, h, 3 * MB));
    assertEquals(s.logInfo(), copy.logInfo());
    assertEquals(s.reuseWait(), copy.reuseWait());
  }
}
