package io.tlogsim.database.logspace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a database's log bytes live (REFERENCE.md section 1): one or more log files, each cut into VLFs. The log is
 * written at its end, a logical byte position (the LSN here), into the current VLF; when that is full it moves to
 * the next VLF in physical order (the rest of the file, then the next file, then back to the first), reusing it if
 * it is no longer active. If the next VLF is still active the log must grow: the file that VLF belongs to grows
 * (the next file in turn, so two growing files alternate, as REFERENCE.md's two-log-files example shows), its new
 * VLFs are appended to that file and the log continues in them. If no file can grow, the log is full (error 9002).
 *
 * <p>Plain bookkeeping, no time: the log space component decides when growth happens (zero-filling takes device
 * time) and when truncation happens (checkpoint or log backup).
 */
public final class LogLayout {
  /** SQL Server numbers files from 1 (the primary data file); log files follow. */
  public static final int FIRST_LOG_FILE_ID = 2;

  private final VlfRule rule;
  private final List<LogFile> files = new ArrayList<>();
  private final ArrayDeque<Vlf> active = new ArrayDeque<>(); // active VLFs, oldest first; the last is current
  private Vlf current;
  private Vlf afterGrowth; // where the log continues once the current VLF is full (set by a growth)
  // first VLFs of growths made before the log needed them (a reservation asked for them): the log goes there when it
  // next meets active log, oldest growth first
  private final ArrayDeque<Vlf> grownAhead = new ArrayDeque<>();
  private long endLsn;
  private long nextFseqNo;
  private long growths;

  /** A log file: what it was declared with, its size and its VLFs in offset order. */
  public static final class LogFile {
    final int id;
    final LogFileSpec spec;
    final List<Vlf> vlfs = new ArrayList<>();
    long size;

    LogFile(int id, LogFileSpec spec) {
      this.id = id;
      this.spec = spec;
    }

    public int id() {
      return id;
    }

    public LogFileSpec spec() {
      return spec;
    }

    public long size() {
      return size;
    }

    public List<Vlf> vlfs() {
      return java.util.Collections.unmodifiableList(vlfs);
    }
  }

  /** A piece of a write: {@code bytes} at {@code offset} in log file {@code fileId}. */
  public record Segment(int fileId, long offset, long bytes) {}

  /** What a growth added: the file, where the new bytes lie, how many VLFs, and whether they must be zeroed first. */
  public record Growth(int fileId, long offset, long bytes, int vlfs, boolean zeroFill) {}

  /** @param firstFseqNo the FSeqNo of the first VLF used (SQL Server continues from the model database's) */
  public LogLayout(VlfRule rule, List<LogFileSpec> specs, long firstFseqNo) {
    if (specs.isEmpty()) throw new IllegalArgumentException("a database needs at least one log file");
    this.rule = rule;
    this.nextFseqNo = firstFseqNo;
    for (LogFileSpec spec : specs) addFile(spec);
    activate(files.get(0).vlfs.get(0));
  }

  /** ALTER DATABASE ... ADD LOG FILE: a new file with its initial VLFs, used when the log reaches it. */
  public LogFile addFile(LogFileSpec spec) {
    int id = FIRST_LOG_FILE_ID;
    for (LogFile g : files) id = Math.max(id, g.id + 1); // ids are never reused, even after a REMOVE FILE
    LogFile f = new LogFile(id, spec);
    files.add(f);
    cut(f, spec.initialBytes(), endLsn);
    return f;
  }

  /** Cuts {@code bytes} at the end of {@code f} into VLFs by the version's rule. */
  private int cut(LogFile f, long bytes, long createLsn) {
    int n = rule.vlfs(bytes, totalSize());
    long each = bytes / n;
    for (int i = 0; i < n; i++) {
      long size = i == n - 1 ? bytes - each * (n - 1) : each;
      f.vlfs.add(new Vlf(f.id, f.vlfs.size(), f.size, size, createLsn));
      f.size += size;
    }
    return n;
  }

  private void activate(Vlf v) {
    v.active = true;
    v.fseqNo = nextFseqNo++;
    v.startLsn = endLsn;
    current = v;
    active.addLast(v);
  }

  // ---- writing ----

  /** The end of the log: the LSN the next byte gets. */
  public long endLsn() {
    return endLsn;
  }

  /**
   * Bytes that can be written without a growth: the rest of the current VLF and the reusable VLFs that follow it
   * (stops counting at {@code atLeast}).
   */
  public long room(long atLeast) {
    long room = current.endLsn() - endLsn;
    Vlf v = current;
    int steps = 0, limit = vlfCount();
    while (room < atLeast && steps++ < limit) {
      v = nextAfter(v);
      if (v == null || v.active) break;
      room += v.size;
    }
    return room;
  }

  /**
   * Places {@code bytes} at the end of the log, moving into the following VLFs as needed; the caller checked
   * {@link #room} first (or grew the log). A write is split where it crosses a VLF boundary.
   */
  public List<Segment> append(long bytes) {
    if (bytes <= 0) throw new IllegalArgumentException("a log write has > 0 bytes");
    if (room(bytes) < bytes) throw new IllegalStateException("the log has no room for " + bytes + " bytes: grow it first");
    List<Segment> out = new ArrayList<>(1);
    long left = bytes;
    while (left > 0) {
      long inVlf = current.endLsn() - endLsn;
      if (inVlf == 0) {
        Vlf next = nextAfter(current); // reusable: room() said so
        afterGrowth = null;
        grownAhead.remove(next);
        activate(next);
        continue;
      }
      long n = Math.min(inVlf, left);
      long offset = current.offset + (endLsn - current.startLsn);
      Segment last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last.fileId() == current.fileId && last.offset() + last.bytes() == offset) {
        out.set(out.size() - 1, new Segment(last.fileId(), last.offset(), last.bytes() + n));
      } else {
        out.add(new Segment(current.fileId, offset, n));
      }
      endLsn += n;
      left -= n;
    }
    return out;
  }

  /** The VLF the log moves to after {@code v}: a new growth's first VLF, else the next in physical order. */
  private Vlf nextAfter(Vlf v) {
    if (v == current && afterGrowth != null) return afterGrowth;
    Vlf next = physicalNext(v);
    if ((next == null || next.active) && !grownAhead.isEmpty() && grownAhead.peekFirst() != v) {
      return grownAhead.peekFirst(); // active log ahead: go on in the VLFs of an earlier growth
    }
    return next;
  }

  private Vlf physicalNext(Vlf v) {
    LogFile f = file(v.fileId);
    int i = v.index;
    if (i + 1 < f.vlfs.size()) return f.vlfs.get(i + 1);
    int fi = files.indexOf(f);
    for (int k = 1; k <= files.size(); k++) {
      LogFile g = files.get((fi + k) % files.size());
      if (!g.vlfs.isEmpty()) return g.vlfs.get(0);
    }
    return null;
  }

  // ---- growth ----

  /**
   * The file that must grow for the log to go on: the file of the VLF that follows the current one (the next file in
   * turn), or the next one after it that can still grow; null when none can (the log is full).
   */
  public LogFile fileToGrow() {
    // where the log will meet active log: the VLFs up to there are reusable; the file that holds it grows
    Vlf v = current, next = nextAfter(current);
    for (int steps = 0, limit = vlfCount(); next != null && !next.active && next != current && steps < limit; steps++) {
      v = next;
      next = nextAfter(v);
    }
    int start = next == null ? files.indexOf(file(v.fileId)) : files.indexOf(file(next.fileId));
    for (int k = 0; k < files.size(); k++) {
      LogFile f = files.get((start + k) % files.size());
      if (f.spec.autogrows() && f.spec.nextGrowth(f.size) > 0) return f;
    }
    return null;
  }

  /** Grows {@code f} by its growth increment; the log continues in the new VLFs once the current one is full. */
  public Growth grow(LogFile f) {
    long g = f.spec.nextGrowth(f.size);
    if (g <= 0) throw new IllegalStateException("log file " + f.id + " cannot grow");
    return growBy(f, g);
  }

  /** Grows {@code f} by exactly {@code bytes} (a script's ALTER DATABASE ... MODIFY FILE (SIZE = ...)). */
  public Growth growBy(LogFile f, long bytes) {
    long offset = f.size;
    int first = f.vlfs.size();
    int n = cut(f, bytes, endLsn);
    Vlf next = nextAfter(current);
    if (next == null || next.active) {
      afterGrowth = f.vlfs.get(first); // the log needs it: go there next
    } else {
      grownAhead.addLast(f.vlfs.get(first)); // for later: when the log meets active log
    }
    growths++;
    return new Growth(f.id, offset, bytes, n, rule.zeroesGrowth(bytes));
  }

  // ---- truncation, shrink, removal ----

  /**
   * Log truncation: every active VLF whose whole range lies before {@code minLsn} becomes reusable (never the
   * current one). Returns how many were freed.
   */
  public int truncate(long minLsn) {
    int freed = 0;
    while (active.size() > 1 && active.peekFirst().endLsn() <= minLsn) {
      active.pollFirst().active = false;
      freed++;
    }
    return freed;
  }

  /** DBCC SHRINKFILE: removes inactive VLFs from the end of the file down to {@code targetBytes}; null or an error. */
  public String shrink(int fileId, long targetBytes) {
    LogFile f = file(fileId);
    if (f == null) return "Could not locate file '" + fileId + "' for database.";
    while (f.size > targetBytes && f.vlfs.size() > 1) {
      Vlf last = f.vlfs.get(f.vlfs.size() - 1);
      if (last.active || last == afterGrowth) {
        return "Cannot shrink log file " + fileId + " (" + f.spec.name() + ") because the logical log file located"
            + " at the end of the file is in use.";
      }
      f.vlfs.remove(f.vlfs.size() - 1);
      grownAhead.remove(last); // never used: it goes with the rest
      f.size -= last.size;
    }
    return null;
  }

  /** ALTER DATABASE ... REMOVE FILE: refused while the file holds active log, or for the primary log file. */
  public String removeFile(int fileId) {
    LogFile f = file(fileId);
    if (f == null) return "The file '" + fileId + "' does not exist in database.";
    if (f.id == FIRST_LOG_FILE_ID) return "The primary data or log file cannot be removed from a database.";
    for (Vlf v : f.vlfs) {
      if (v.active || v == afterGrowth) return "The file '" + f.spec.name() + "' cannot be removed because it is not empty.";
    }
    grownAhead.removeIf(v -> v.fileId == f.id);
    files.remove(f);
    return null;
  }

  // ---- what DBAs look at ----

  public VlfRule rule() {
    return rule;
  }

  public List<LogFile> files() {
    return java.util.Collections.unmodifiableList(files);
  }

  public LogFile file(int fileId) {
    for (LogFile f : files) if (f.id == fileId) return f;
    return null;
  }

  public long totalSize() {
    long s = 0;
    for (LogFile f : files) s += f.size;
    return s;
  }

  public int vlfCount() {
    int n = 0;
    for (LogFile f : files) n += f.vlfs.size();
    return n;
  }

  public long growths() {
    return growths;
  }

  /** A stretch of the active log within one VLF: what a reader of a range reads there. */
  public record ActivePiece(Vlf vlf, long offsetInVlf, long bytes) {}

  /**
   * The active log between {@code fromLsn} and {@code toLsn} as pieces in log order, one per VLF it touches: what a
   * log backup or recovery reads (REFERENCE.md 3). The range must lie in the active log.
   */
  public List<ActivePiece> activePieces(long fromLsn, long toLsn) {
    List<ActivePiece> out = new ArrayList<>();
    long covered = 0;
    for (Vlf v : active) {
      long s = Math.max(fromLsn, v.startLsn), e = Math.min(toLsn, v.endLsn());
      if (e <= s) continue;
      out.add(new ActivePiece(v, s - v.startLsn, e - s));
      covered += e - s;
    }
    if (covered != toLsn - fromLsn) {
      throw new IllegalStateException("log range " + fromLsn + "-" + toLsn + " is not all in the active log");
    }
    return out;
  }

  /** The oldest LSN still in the active log (the start of the oldest active VLF). */
  public long activeStartLsn() {
    return active.peekFirst().startLsn;
  }

  /** Bytes of the log in use: from the start of the oldest active VLF to the end of the log. */
  public long usedBytes() {
    return endLsn - active.peekFirst().startLsn;
  }

  public Vlf current() {
    return current;
  }

  /** DBCC LOGINFO / sys.dm_db_log_info, one row per VLF in file and offset order. */
  public List<LogInfoRow> logInfo() {
    List<LogInfoRow> rows = new ArrayList<>(vlfCount());
    for (LogFile f : files) {
      for (Vlf v : f.vlfs) rows.add(new LogInfoRow(f.id, v.size, v.offset, v.fseqNo, v.status(), v.createLsn));
    }
    return rows;
  }

  public record LogInfoRow(int fileId, long fileSize, long startOffset, long fseqNo, int status, long createLsn) {}

  // ---- checkpoint and resume ----

  /**
   * The layout as plain data, for a run's checkpoints: per file its id, declaration and size; per VLF (in file and
   * offset order) its file, offset, size, CreateLSN, FSeqNo, start LSN and whether it is active; the active VLFs in
   * log order and where the log is (each VLF named by its position in {@code vlfs}).
   */
  public State snapshot() {
    List<Vlf> all = new ArrayList<>();
    int[] fileIds = new int[files.size()];
    long[] fileSizes = new long[files.size()];
    List<LogFileSpec> specs = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      LogFile f = files.get(i);
      fileIds[i] = f.id;
      fileSizes[i] = f.size;
      specs.add(f.spec);
      all.addAll(f.vlfs);
    }
    long[] vlfs = new long[all.size() * 7];
    java.util.IdentityHashMap<Vlf, Integer> pos = new java.util.IdentityHashMap<>();
    for (int k = 0; k < all.size(); k++) {
      Vlf v = all.get(k);
      pos.put(v, k);
      long[] row = {v.fileId, v.offset, v.size, v.createLsn, v.fseqNo, v.startLsn, v.active ? 1 : 0};
      System.arraycopy(row, 0, vlfs, k * 7, 7);
    }
    int[] activeOrder = new int[active.size()];
    int a = 0;
    for (Vlf v : active) activeOrder[a++] = pos.get(v);
    return new State(rule.key(), fileIds, fileSizes, specs, vlfs, activeOrder, pos.get(current),
        afterGrowth == null ? -1 : pos.get(afterGrowth), grownAhead.stream().mapToInt(pos::get).toArray(), endLsn,
        nextFseqNo, growths);
  }

  /** The layout a {@link #snapshot} describes. */
  public static LogLayout restore(State s) {
    LogLayout l = new LogLayout(VlfRule.of(s.rule()));
    List<Vlf> all = new ArrayList<>();
    for (int i = 0; i < s.fileIds().length; i++) {
      LogFile f = new LogFile(s.fileIds()[i], s.specs().get(i));
      f.size = s.fileSizes()[i];
      l.files.add(f);
    }
    for (int k = 0; k < s.vlfs().length / 7; k++) {
      long[] v = java.util.Arrays.copyOfRange(s.vlfs(), k * 7, k * 7 + 7);
      LogFile f = l.file((int) v[0]);
      Vlf x = new Vlf(f.id, f.vlfs.size(), v[1], v[2], v[3]);
      x.fseqNo = v[4];
      x.startLsn = v[5];
      x.active = v[6] != 0;
      f.vlfs.add(x);
      all.add(x);
    }
    for (int k : s.activeOrder()) l.active.addLast(all.get(k));
    l.current = all.get(s.current());
    l.afterGrowth = s.afterGrowth() < 0 ? null : all.get(s.afterGrowth());
    for (int k : s.grownAhead()) l.grownAhead.addLast(all.get(k));
    l.endLsn = s.endLsn();
    l.nextFseqNo = s.nextFseqNo();
    l.growths = s.growths();
    return l;
  }

  private LogLayout(VlfRule rule) {
    this.rule = rule;
  }

  public record State(String rule, int[] fileIds, long[] fileSizes, List<LogFileSpec> specs, long[] vlfs,
      int[] activeOrder, int current, int afterGrowth, int[] grownAhead, long endLsn, long nextFseqNo, long growths)
      implements io.tlogsim.kernel.CborSerializable {}
}
