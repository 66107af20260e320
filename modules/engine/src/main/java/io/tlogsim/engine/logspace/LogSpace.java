package io.tlogsim.engine.logspace;

import java.util.List;

/**
 * Where the log's bytes live, as the log manager sees it (REFERENCE.md 1). The log manager numbers the bytes it writes
 * from 0 (log offsets, whole pages, in the order it writes them); a log space places each write on files and devices
 * (split where it crosses a file or VLF boundary: {@link LogLayout#append} does exactly that) and may make the log
 * wait before it uses more space (growth with zero-fill, or a full log until truncation). The commit path runs on
 * {@link LinearLogSpace}; the log-space issue plugs {@link LogLayout} in here.
 *
 * <p>Calls come in log order: {@link #reserve} before a block may use space, {@link #place} once per write, in
 * offset order. A log space that zeroes (growth) asks its {@link Host} to send the requests and is told when each
 * completes; when space it refused becomes available it calls {@link Host#spaceReady()}.
 */
public interface LogSpace {

  /** One piece of a write: {@code bytes} at {@code deviceOffset} of device {@code device}, in file {@code fileId}. */
  record Segment(int device, long deviceOffset, int fileId, long bytes) {}

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

  /**
   * Where the write of {@code bytes} at {@code logOffset} lands: one segment, or several where it crosses a file or
   * VLF boundary (the log manager sends one request per segment; the write is hardened when all complete).
   */
  List<Segment> place(long logOffset, long bytes);

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
