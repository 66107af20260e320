package io.tlogsim.engine.log;

import java.util.List;

/**
 * Where the log's bytes live: files on devices (REFERENCE.md 1). The log manager numbers its bytes from 0 as it
 * writes them (log offsets, whole pages); a log space maps them to a file and a device offset, says how far a block may
 * reach before a file boundary, and may make the log wait before it uses more space (growth with zero-fill, a full
 * log). The log-space issue lays out files, VLFs, growth and truncation behind this interface; the commit path needs
 * only {@link LinearLogSpace}.
 */
public interface LogSpace {

  /** Where the byte at a log offset lands. */
  record Placement(int device, long deviceOffset, int fileId) {}

  /** A log file as statistics name it. */
  record LogFile(int fileId, String name, int device) {}

  /** What a log space may ask of its log manager. */
  interface Host {
    long now();

    /** Writes zeros over a range (growth): the completion comes back through {@link LogSpace#onZeroDone}. */
    void zero(int device, long deviceOffset, long bytes, int fileId, long tag);

    /** Space that {@link #reserve} refused is now available: appends go on. */
    void spaceReady();
  }

  /** The placement of the log byte at {@code logOffset}. */
  Placement place(long logOffset);

  /** How many bytes from {@code logOffset} on are contiguous in one file: a block never crosses a file boundary. */
  long contiguousBytes(long logOffset);

  /**
   * The log is about to use bytes up to {@code logEnd}: true if it may now; false if appends must wait until the space
   * calls {@link Host#spaceReady()} (while it grows and zeroes, or until the log is truncated).
   */
  boolean reserve(Host host, long logEnd);

  /** A zero-fill the space asked for completed. */
  default void onZeroDone(Host host, long tag) {}

  /** Log bytes below {@code logOffset} are no longer needed (truncation after a checkpoint or a log backup). */
  default void release(long logOffset) {}

  /** The log's files, for per-file statistics. */
  List<LogFile> files();

  Object snapshot();

  void restore(Object snapshot);
}
