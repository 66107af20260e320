package io.tlogsim.database.readers;

import io.tlogsim.kernel.CborSerializable;
import java.util.Arrays;

/**
 * The server's internal list of data files for backup history (REFERENCE.md 3, "Backup history"; 5.4): one entry per
 * data file created since the last full or log backup, dropped ones included, at most {@code capacity} (32,767),
 * the oldest replaced first. After a backup one msdb.backupfile row is written per entry, plus one for the log file.
 *
 * <p>When entries leave the list: REFERENCE.md 5.4 says a second log backup right after the first writes the same
 * 4,001 rows again, while section 3 says a log backup right after each drop keeps the list short. Both hold when an
 * entry leaves the list at the end of the first backup whose log range begins after the entry was made: the backup
 * whose range holds a file's creation lists it, the next one lists it too and then lets it go. A drop adds no entry
 * (the file's creation is listed). The simple recovery model clears the list at each checkpoint.
 */
public final class BackupHistory {
  /** REFERENCE.md 3: "at most 32,767 entries, oldest replaced first". */
  public static final int MAX_ENTRIES = 32_767;

  private final int capacity;
  // a ring of entries, oldest first: the file id and the log position (LSN) at which the entry was made
  private long[] fileIds = new long[64];
  private long[] lsns = new long[64];
  private int first;
  private int size;
  private long replaced;

  public BackupHistory(int capacity) {
    if (capacity < 1) throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
    this.capacity = capacity;
  }

  /** A data file was created (ADD FILE) at log position {@code lsn}. */
  public void fileCreated(long fileId, long lsn) {
    if (size == capacity) { // oldest replaced first
      first = (first + 1) % fileIds.length;
      size--;
      replaced++;
    }
    if (size == fileIds.length) grow();
    int i = (first + size) % fileIds.length;
    fileIds[i] = fileId;
    lsns[i] = lsn;
    size++;
  }

  /** msdb.backupfile rows a backup writes now: one per entry and one for the log file. */
  public int rows() {
    return size + 1;
  }

  public int entries() {
    return size;
  }

  /** Entries replaced because the list was full. */
  public long replaced() {
    return replaced;
  }

  /** A backup whose log range began at {@code rangeStartLsn} completed: the entries made before it leave the list. */
  public void backupCompleted(long rangeStartLsn) {
    while (size > 0 && lsns[first] < rangeStartLsn) {
      first = (first + 1) % fileIds.length;
      size--;
    }
  }

  /** A checkpoint in the simple recovery model clears the list. */
  public void clear() {
    first = 0;
    size = 0;
  }

  private void grow() {
    int n = Math.min(capacity, fileIds.length * 2);
    long[] f = new long[n], l = new long[n];
    for (int k = 0; k < size; k++) {
      f[k] = fileIds[(first + k) % fileIds.length];
      l[k] = lsns[(first + k) % fileIds.length];
    }
    fileIds = f;
    lsns = l;
    first = 0;
  }

  /**
   * Seconds to write {@code rows} msdb.backupfile rows: row k (from 0) costs {@code baseUs + growthUs x k}, so the
   * total grows with the square of the rows (REFERENCE.md 3: "much faster than linearly").
   */
  public static double writeSeconds(long rows, double baseUs, double growthUs) {
    return (rows * baseUs + growthUs * rows * (rows - 1) / 2.0) / 1e6;
  }

  public State state() {
    long[] f = new long[size], l = new long[size];
    for (int k = 0; k < size; k++) {
      f[k] = fileIds[(first + k) % fileIds.length];
      l[k] = lsns[(first + k) % fileIds.length];
    }
    return new State(f, l, replaced);
  }

  public void restore(State s) {
    clear();
    for (int k = 0; k < s.fileIds().length; k++) fileCreated(s.fileIds()[k], s.lsns()[k]);
    replaced = s.replaced();
  }

  public record State(long[] fileIds, long[] lsns, long replaced) implements CborSerializable {
    @Override
    public boolean equals(Object o) {
      return o instanceof State s && Arrays.equals(fileIds, s.fileIds) && Arrays.equals(lsns, s.lsns)
          && replaced == s.replaced;
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(fileIds) * 31 + Arrays.hashCode(lsns);
    }
  }
}
