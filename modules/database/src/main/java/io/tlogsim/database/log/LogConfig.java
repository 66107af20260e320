package io.tlogsim.database.log;

/**
 * How one database's log is written (REFERENCE.md 2). The values come from a scenario kind's parameters.
 *
 * @param pageBytes the log's unit of writing: SQL Server's 512 B sector, Informix's 2 KB log page, PostgreSQL's
 *     8 KB WAL page; every write is whole pages
 * @param pageHeaderBytes bytes of each page that hold no log records (page header and trailer)
 * @param maxBlockPages most pages in one log block, which is one write (SQL Server: 60 KB = 120 sectors)
 * @param logBuffers blocks the log buffer holds at once: the one being filled and those waiting for or in their write
 *     (Informix: 3 buffers); when none is free, records wait (wait type LOGBUFFER)
 * @param maxOutstandingWrites most log writes in flight at once (SQL Server: 32; group commit engines: 1)
 * @param maxOutstandingBytes most log bytes in flight at once (SQL Server: 3,840 KB)
 * @param flushClosesPage true: a flush closes the page it ends in, and the next records start on a new page (SQL
 *     Server's sector, Informix's page); false: the next write rewrites that page (PostgreSQL, MySQL, Oracle)
 * @param beginRecordBytes size of the record that begins a transaction (0: the engine logs none)
 * @param checkpointRecordBytes size of a checkpoint's log record(s)
 * @param flushOnClose a session's connection close flushes the log (Informix buffered logging)
 * @param flushAfterWrite every log write is followed by a flush of the device's cache (fsync), and is hardened when
 *     the flush completes (a device with a volatile write cache: REFERENCE.md 4, "SSD fsync")
 * @param replyNanos delay of a reply to a session (the lookahead of the links to the session pools)
 * @param deviceLinkNanos delay of a request to a device (the lookahead of the links to the devices)
 */
public record LogConfig(int pageBytes, int pageHeaderBytes, int maxBlockPages, int logBuffers,
    int maxOutstandingWrites, long maxOutstandingBytes, boolean flushClosesPage, int beginRecordBytes,
    int checkpointRecordBytes, boolean flushOnClose, boolean flushAfterWrite, long replyNanos, long deviceLinkNanos) {

  public LogConfig {
    if (pageBytes <= 0 || pageHeaderBytes < 0 || pageHeaderBytes >= pageBytes) {
      throw new IllegalArgumentException("log page " + pageBytes + " B with a header of " + pageHeaderBytes + " B");
    }
    if (maxBlockPages < 1 || logBuffers < 2 || maxOutstandingWrites < 1 || maxOutstandingBytes < pageBytes) {
      throw new IllegalArgumentException("log blocks: " + maxBlockPages + " pages, " + logBuffers + " buffers, "
          + maxOutstandingWrites + " writes / " + maxOutstandingBytes + " B in flight");
    }
    if (replyNanos <= 0 || deviceLinkNanos <= 0) throw new IllegalArgumentException("link delays must be > 0 ns");
  }

  /** Bytes of log records one page holds. */
  public int usableBytes() {
    return pageBytes - pageHeaderBytes;
  }

  /** The most record bytes one block holds. */
  public long blockCapacity() {
    return (long) maxBlockPages * usableBytes();
  }

  /** A log config named key by key (the record's names); what is not given is 0 or false. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link LogConfig} key by key; {@link #build} checks it. */
  public static final class Builder {
    private int pageBytes;
    private int pageHeaderBytes;
    private int maxBlockPages;
    private int logBuffers;
    private int maxOutstandingWrites;
    private long maxOutstandingBytes;
    private boolean flushClosesPage;
    private int beginRecordBytes;
    private int checkpointRecordBytes;
    private boolean flushOnClose;
    private boolean flushAfterWrite;
    private long replyNanos;
    private long deviceLinkNanos;

    private Builder() {}

    public Builder pageBytes(int v) {
      pageBytes = v;
      return this;
    }

    public Builder pageHeaderBytes(int v) {
      pageHeaderBytes = v;
      return this;
    }

    public Builder maxBlockPages(int v) {
      maxBlockPages = v;
      return this;
    }

    public Builder logBuffers(int v) {
      logBuffers = v;
      return this;
    }

    public Builder maxOutstandingWrites(int v) {
      maxOutstandingWrites = v;
      return this;
    }

    public Builder maxOutstandingBytes(long v) {
      maxOutstandingBytes = v;
      return this;
    }

    public Builder flushClosesPage(boolean v) {
      flushClosesPage = v;
      return this;
    }

    public Builder beginRecordBytes(int v) {
      beginRecordBytes = v;
      return this;
    }

    public Builder checkpointRecordBytes(int v) {
      checkpointRecordBytes = v;
      return this;
    }

    public Builder flushOnClose(boolean v) {
      flushOnClose = v;
      return this;
    }

    public Builder flushAfterWrite(boolean v) {
      flushAfterWrite = v;
      return this;
    }

    public Builder replyNanos(long v) {
      replyNanos = v;
      return this;
    }

    public Builder deviceLinkNanos(long v) {
      deviceLinkNanos = v;
      return this;
    }

    public LogConfig build() {
      return new LogConfig(pageBytes, pageHeaderBytes, maxBlockPages, logBuffers, maxOutstandingWrites,
          maxOutstandingBytes, flushClosesPage, beginRecordBytes, checkpointRecordBytes, flushOnClose, flushAfterWrite,
          replyNanos, deviceLinkNanos);
    }
  }
}
