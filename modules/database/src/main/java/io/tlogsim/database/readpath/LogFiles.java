package io.tlogsim.database.readpath;

import io.tlogsim.database.logspace.LogFileSpec;
import io.tlogsim.database.logspace.LogLayout;
import io.tlogsim.database.logspace.Vlf;
import io.tlogsim.database.logspace.VlfRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The read path's view of a database's log files: a {@link LogLayout} (VLFs, growth, truncation: plain bookkeeping)
 * placed on the log device, each file at its own base offset, and every change kept as a short list of operations so
 * that a snapshot is that list and a restore replays it (a layout is rebuilt exactly by the same operations).
 *
 * <p>Until the log-space issue's VLF-backed LogSpace lands in the commit path, the read path writes its workload's
 * log through this class; both use the same LogLayout rules.
 */
public final class LogFiles {
  /** Where log file k (from 0) starts on the log device: files lie apart, as separate files on one volume do. */
  public static final long FILE_SPACING = 64L << 30;

  static final long OP_APPEND = 1, OP_GROW = 2, OP_GROW_BY = 3, OP_TRUNCATE = 4;

  private final VlfRule rule;
  private final List<LogFileSpec> specs;
  private LogLayout layout;
  private long[] ops = new long[3 * 16]; // op, file id, value
  private int opCount;

  public LogFiles(VlfRule rule, List<LogFileSpec> specs) {
    this.rule = rule;
    this.specs = List.copyOf(specs);
    this.layout = new LogLayout(rule, specs, 1);
  }

  public LogLayout layout() {
    return layout;
  }

  /** The log device offset of byte {@code offset} of log file {@code fileId}. */
  public static long deviceOffset(int fileId, long offset) {
    return (fileId - LogLayout.FIRST_LOG_FILE_ID) * FILE_SPACING + offset;
  }

  public List<LogLayout.Segment> append(long bytes) {
    if (opCount > 0 && ops[(opCount - 1) * 3] == OP_APPEND) {
      ops[(opCount - 1) * 3 + 2] += bytes; // appends in a row are one append: LogLayout splits them the same way
    } else {
      op(OP_APPEND, 0, bytes);
    }
    return layout.append(bytes);
  }

  public LogLayout.Growth grow(LogLayout.LogFile f) {
    op(OP_GROW, f.id(), 0);
    return layout.grow(f);
  }

  public LogLayout.Growth growBy(LogLayout.LogFile f, long bytes) {
    op(OP_GROW_BY, f.id(), bytes);
    return layout.growBy(f, bytes);
  }

  public int truncate(long minLsn) {
    op(OP_TRUNCATE, 0, minLsn);
    return layout.truncate(minLsn);
  }

  private void op(long kind, long fileId, long value) {
    if (opCount * 3 == ops.length) ops = Arrays.copyOf(ops, ops.length * 2);
    ops[opCount * 3] = kind;
    ops[opCount * 3 + 1] = fileId;
    ops[opCount * 3 + 2] = value;
    opCount++;
  }

  /** A piece of the log to read: within one VLF, at a device offset, and where that VLF's header lies. */
  public record Piece(int fileId, long headerOffset, long deviceOffset, long bytes) {}

  /**
   * The active log between {@code fromLsn} and {@code toLsn} as pieces in log order, one per VLF it touches (the
   * range must lie in active VLFs: not yet truncated).
   */
  public List<Piece> pieces(long fromLsn, long toLsn) {
    List<Piece> out = new ArrayList<>();
    for (LogLayout.ActivePiece a : layout.activePieces(fromLsn, toLsn)) {
      Vlf v = a.vlf();
      out.add(new Piece(v.fileId(), deviceOffset(v.fileId(), v.offset()),
          deviceOffset(v.fileId(), v.offset() + a.offsetInVlf()), a.bytes()));
    }
    return out;
  }

  public long[] snapshot() {
    return Arrays.copyOf(ops, opCount * 3);
  }

  /** Rebuilds the layout by replaying the operations of a snapshot. */
  public void restore(long[] saved) {
    layout = new LogLayout(rule, specs, 1);
    opCount = 0;
    ops = new long[Math.max(48, saved.length)];
    for (int i = 0; i < saved.length; i += 3) {
      long kind = saved[i];
      int fileId = (int) saved[i + 1];
      long v = saved[i + 2];
      if (kind == OP_APPEND) append(v);
      else if (kind == OP_GROW) grow(layout.file(fileId));
      else if (kind == OP_GROW_BY) growBy(layout.file(fileId), v);
      else if (kind == OP_TRUNCATE) truncate(v);
      else throw new IllegalStateException("unknown log operation " + kind);
    }
  }
}
