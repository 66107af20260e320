package io.tlogsim.database.logspace;

/**
 * One virtual log file: where it lies (file, offset, size), when it was made (CreateLSN: the end of the log at the
 * growth that made it, 0 for those the file was created with) and its current use: FSeqNo (0 before first use) and
 * the log sequence range it holds, from {@code startLsn}. A VLF is active while any of that range is still needed.
 */
public final class Vlf {
  final int fileId;
  final int index; // its place in its file: the physical order
  final long offset;
  final long size;
  final long createLsn;
  long fseqNo;
  long startLsn = -1;
  boolean active;

  Vlf(int fileId, int index, long offset, long size, long createLsn) {
    this.fileId = fileId;
    this.index = index;
    this.offset = offset;
    this.size = size;
    this.createLsn = createLsn;
  }

  public int fileId() {
    return fileId;
  }

  public long offset() {
    return offset;
  }

  public long size() {
    return size;
  }

  public long createLsn() {
    return createLsn;
  }

  public long fseqNo() {
    return fseqNo;
  }

  public long startLsn() {
    return startLsn;
  }

  /** DBCC LOGINFO's Status: 2 while active, 0 when reusable or never used. */
  public int status() {
    return active ? 2 : 0;
  }

  long endLsn() {
    return startLsn + size;
  }
}
