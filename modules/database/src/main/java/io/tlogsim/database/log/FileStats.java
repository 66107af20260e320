package io.tlogsim.database.log;

import io.tlogsim.kernel.CborSerializable;

/**
 * I/O of one database file, shaped like SQL Server's sys.dm_io_virtual_file_stats: reads and writes, their bytes and
 * their stall (the time from issuing a request to its completion, summed). Counted by the log manager, which issues
 * every request of its files.
 */
public final class FileStats {
  private final int fileId;
  private final String name;
  private final String type;
  private long reads;
  private long bytesRead;
  private long readStallNanos;
  private long writes;
  private long bytesWritten;
  private long writeStallNanos;

  public FileStats(int fileId, String name, String type) {
    this.fileId = fileId;
    this.name = name;
    this.type = type;
  }

  public FileStats(int fileId, String name, String type, long reads, long bytesRead, long readStallNanos, long writes,
      long bytesWritten, long writeStallNanos) {
    this(fileId, name, type);
    this.reads = reads;
    this.bytesRead = bytesRead;
    this.readStallNanos = readStallNanos;
    this.writes = writes;
    this.bytesWritten = bytesWritten;
    this.writeStallNanos = writeStallNanos;
  }

  void wrote(long bytes, long stallNanos) {
    writes++;
    bytesWritten += bytes;
    writeStallNanos += stallNanos;
  }

  public int fileId() {
    return fileId;
  }

  public String name() {
    return name;
  }

  /** ROWS or LOG, as sys.database_files' type_desc. */
  public String type() {
    return type;
  }

  public long reads() {
    return reads;
  }

  public long bytesRead() {
    return bytesRead;
  }

  public long readStallNanos() {
    return readStallNanos;
  }

  public long writes() {
    return writes;
  }

  public long bytesWritten() {
    return bytesWritten;
  }

  public long writeStallNanos() {
    return writeStallNanos;
  }

  FileStats copy() {
    return new FileStats(fileId, name, type, reads, bytesRead, readStallNanos, writes, bytesWritten, writeStallNanos);
  }

  long[] counters() {
    return new long[] {reads, bytesRead, readStallNanos, writes, bytesWritten, writeStallNanos};
  }

  void setCounters(long[] c) {
    reads = c[0];
    bytesRead = c[1];
    readStallNanos = c[2];
    writes = c[3];
    bytesWritten = c[4];
    writeStallNanos = c[5];
  }

  /** Immutable form for results. */
  public Snapshot freeze() {
    return new Snapshot(fileId, name, type, reads, bytesRead, readStallNanos, writes, bytesWritten, writeStallNanos);
  }

  public record Snapshot(int fileId, String name, String type, long reads, long bytesRead, long readStallNanos,
      long writes, long bytesWritten, long writeStallNanos) implements CborSerializable {}
}
