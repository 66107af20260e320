package io.tlogsim.database.data;

/**
 * A database's data file beside its log (REFERENCE.md 4: data writes are random I/O; a log sharing its drive with
 * data pays the seeks between them).
 *
 * @param fileId the file's id in per-file statistics
 * @param device index of the device the file lives on (the log manager's device list)
 * @param baseOffset where the file starts on its device
 * @param pageBytes a data page
 * @param pages pages of the table (rows / rowsPerPage)
 * @param rowsPerPage rows a page holds: row r lives on page r / rowsPerPage
 * @param lazyWriterIntervalNanos how often the lazy writer wakes (0: no lazy writer)
 * @param lazyWriterThresholdPages it writes only while more pages than this are dirty
 * @param lazyWriterPagesPerRun most pages it writes per wake-up (random dirty pages whose log is hardened)
 * @param checkpointIntervalNanos automatic checkpoints this often (0: only when a session asks)
 * @param maxOutstandingWrites most data-page writes in flight at once
 * @param growth how the file grows as rows do (null: it holds the table, never grows)
 */
public record DataConfig(int fileId, String name, int device, long baseOffset, int pageBytes, int pages,
    int rowsPerPage, long lazyWriterIntervalNanos, int lazyWriterThresholdPages, int lazyWriterPagesPerRun,
    long checkpointIntervalNanos, int maxOutstandingWrites, DataFileGrowth.Config growth) {

  public DataConfig {
    if (pages < 1 || rowsPerPage < 1 || pageBytes < 512 || maxOutstandingWrites < 1 || lazyWriterPagesPerRun < 0) {
      throw new IllegalArgumentException("data file " + name + ": " + pages + " pages of " + pageBytes + " B, "
          + rowsPerPage + " rows per page, " + maxOutstandingWrites + " writes in flight");
    }
  }

  public long rows() {
    return (long) pages * rowsPerPage;
  }

  /** The same file on device {@code device} of the log manager's list, from {@code offset} on. */
  public DataConfig placedOn(int onDevice, long offset) {
    return toBuilder().device(onDevice).baseOffset(offset).build();
  }

  /** The same file with automatic checkpoints every {@code nanos} (0: only when a session asks). */
  public DataConfig withCheckpointIntervalNanos(long nanos) {
    return toBuilder().checkpointIntervalNanos(nanos).build();
  }

  /** A data file named key by key (the record's names); what is not given is 0, no growth. */
  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return builder().fileId(fileId).name(name).device(device).baseOffset(baseOffset).pageBytes(pageBytes).pages(pages)
        .rowsPerPage(rowsPerPage).lazyWriterIntervalNanos(lazyWriterIntervalNanos)
        .lazyWriterThresholdPages(lazyWriterThresholdPages).lazyWriterPagesPerRun(lazyWriterPagesPerRun)
        .checkpointIntervalNanos(checkpointIntervalNanos).maxOutstandingWrites(maxOutstandingWrites).growth(growth);
  }

  /** Builds a {@link DataConfig} key by key; {@link #build} checks it. */
  public static final class Builder {
    private int fileId;
    private String name;
    private int device;
    private long baseOffset;
    private int pageBytes;
    private int pages;
    private int rowsPerPage;
    private long lazyWriterIntervalNanos;
    private int lazyWriterThresholdPages;
    private int lazyWriterPagesPerRun;
    private long checkpointIntervalNanos;
    private int maxOutstandingWrites;
    private DataFileGrowth.Config growth;

    private Builder() {}

    public Builder fileId(int v) {
      fileId = v;
      return this;
    }

    public Builder name(String v) {
      name = v;
      return this;
    }

    public Builder device(int v) {
      device = v;
      return this;
    }

    public Builder baseOffset(long v) {
      baseOffset = v;
      return this;
    }

    public Builder pageBytes(int v) {
      pageBytes = v;
      return this;
    }

    public Builder pages(int v) {
      pages = v;
      return this;
    }

    public Builder rowsPerPage(int v) {
      rowsPerPage = v;
      return this;
    }

    public Builder lazyWriterIntervalNanos(long v) {
      lazyWriterIntervalNanos = v;
      return this;
    }

    public Builder lazyWriterThresholdPages(int v) {
      lazyWriterThresholdPages = v;
      return this;
    }

    public Builder lazyWriterPagesPerRun(int v) {
      lazyWriterPagesPerRun = v;
      return this;
    }

    public Builder checkpointIntervalNanos(long v) {
      checkpointIntervalNanos = v;
      return this;
    }

    public Builder maxOutstandingWrites(int v) {
      maxOutstandingWrites = v;
      return this;
    }

    public Builder growth(DataFileGrowth.Config v) {
      growth = v;
      return this;
    }

    public DataConfig build() {
      return new DataConfig(fileId, name, device, baseOffset, pageBytes, pages, rowsPerPage, lazyWriterIntervalNanos,
          lazyWriterThresholdPages, lazyWriterPagesPerRun, checkpointIntervalNanos, maxOutstandingWrites, growth);
    }
  }
}
