package io.tlogsim.database.logspace;

import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A database's backups as its log space keeps them (REFERENCE.md 1, 3): whether a log chain exists (a full backup was
 * taken), where the last log backup ended, what the last full backup lists (its files and sizes, for RESTORE
 * DATABASE), the last log backup's range (for RESTORE LOG), the bytes changed since the full backup (what a
 * differential reads), the backup history's file list, and the data files created after the database (ADD FILE).
 *
 * <p>Plain bookkeeping: {@link ManagedLogSpace} carries the steps out and this remembers what they leave.
 */
public final class BackupChain {
  /** A file a full backup lists: its id, size, device (the log manager's index) and whether it is a log file. */
  public record ListedFile(int fileId, long bytes, int device, long baseOffset, boolean log) implements CborSerializable {}

  /**
   * What a database's files cost to create (ALTER DATABASE ... ADD FILE, REFERENCE.md 3 and 5.4): each added data file
   * of {@code addedFileBytes}, zeroed unless {@code instantFileInitialization}; every create or drop writes
   * {@code metadataWrites} of {@code metadataBytes} (the file system's records); a full backup exists when the run
   * starts ({@code fullBackupTaken}: the log chain begins at the log's start).
   */
  public record Files(boolean instantFileInitialization, long addedFileBytes, int metadataWrites, int metadataBytes,
      boolean fullBackupTaken) implements CborSerializable {
    public static final Files DEFAULT = new Files(false, 1L << 20, 2, 4096, true);
  }

  /** Where added data files lie on the data device: apart from the primary data file, one after the other. */
  public static final long ADDED_FILES_OFFSET = 128L << 30;

  final BackupHistory history = new BackupHistory(BackupHistory.MAX_ENTRIES);
  boolean chain;
  long fullStartLsn = -1; // where the last full backup's log range began (-1: none taken in the run)
  long fullDataBytes; // what it copied of the data file
  final List<ListedFile> fullFiles = new ArrayList<>();
  long logBackupFrom = -1; // the last log backup's range
  long logBackupTo = -1;
  long changedSinceFull; // log bytes of changes since the full backup (a differential's estimate)
  int nextDataFileId; // the id the next ADD FILE gets
  int dataFilesCreated; // ... and how many were made (their offsets)
  int running = -1; // the backup running: its type (LogSpace.BACKUP_*), -1: none
  int runningSession = -1;
  long runningFrom;
  long runningTo;
  long runningCheckpointLsn = -1; // the last checkpoint's record when the backup began (its log holds it)
  long fullCheckpointLsn = -1; // ... as the last full backup holds it: a restore's recovery analyses from it
  long logBackupCheckpointLsn = -1; // ... as the last log backup holds it
  long recoverTo = -1; // the restore running is WITH RECOVERY: the log it restores ends here (-1: NORECOVERY)
  long recoverFrom = -1; // ... and its analysis begins at this checkpoint record

  BackupChain(boolean fullBackupTaken, int firstDataFileId) {
    chain = fullBackupTaken;
    nextDataFileId = firstDataFileId;
  }

  State snapshot() {
    return new State(history.state(), chain, new long[] {fullStartLsn, fullDataBytes, logBackupFrom, logBackupTo,
        changedSinceFull, nextDataFileId, dataFilesCreated, running, runningSession, runningFrom, runningTo,
        runningCheckpointLsn, fullCheckpointLsn, logBackupCheckpointLsn, recoverTo, recoverFrom},
        List.copyOf(fullFiles));
  }

  void restore(State s) {
    history.restore(s.history());
    chain = s.chain();
    long[] c = s.counters();
    fullStartLsn = c[0];
    fullDataBytes = c[1];
    logBackupFrom = c[2];
    logBackupTo = c[3];
    changedSinceFull = c[4];
    nextDataFileId = (int) c[5];
    dataFilesCreated = (int) c[6];
    running = (int) c[7];
    runningSession = (int) c[8];
    runningFrom = c[9];
    runningTo = c[10];
    runningCheckpointLsn = c[11];
    fullCheckpointLsn = c[12];
    logBackupCheckpointLsn = c[13];
    recoverTo = c[14];
    recoverFrom = c[15];
    fullFiles.clear();
    fullFiles.addAll(s.fullFiles());
  }

  public record State(BackupHistory.State history, boolean chain, long[] counters, List<ListedFile> fullFiles)
      implements CborSerializable {}
}
