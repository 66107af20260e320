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

  public DataConfig(int fileId, String name, int device, long baseOffset, int pageBytes, int pages, int rowsPerPage,
      long lazyWriterIntervalNanos, int lazyWriterThresholdPages, int lazyWriterPagesPerRun,
      long checkpointIntervalNanos, int maxOutstandingWrites) {
    this(fileId, name, device, baseOffset, pageBytes, pages, rowsPerPage, lazyWriterIntervalNanos,
        lazyWriterThresholdPages, lazyWriterPagesPerRun, checkpointIntervalNanos, maxOutstandingWrites, null);
  }

  public DataConfig {
    if (pages < 1 || rowsPerPage < 1 || pageBytes < 512 || maxOutstandingWrites < 1 || lazyWriterPagesPerRun < 0) {
      throw new IllegalArgumentException("data file " + name + ": " + pages + " pages of " + pageBytes + " B, "
          + rowsPerPage + " rows per page, " + maxOutstandingWrites + " writes in flight");
    }
  }

  public long rows() {
    return (long) pages * rowsPerPage;
  }
}
