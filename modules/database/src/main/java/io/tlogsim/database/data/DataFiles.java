package io.tlogsim.database.data;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Rng;
import java.util.Arrays;

/**
 * The dirty pages of a database's data file and the two writers that clean them (REFERENCE.md 4): the lazy writer,
 * which wakes periodically and writes random dirty pages while too many are dirty, and the checkpoint, which writes
 * every page dirty when it starts, in page order. Write-ahead logging: a page is written only once the log of its
 * last change is hardened (the lazy writer skips others; a checkpoint starts after hardening its own record, which
 * follows every change).
 *
 * <p>Plain logic inside the log manager's component: the log manager sees every logged change (the row it touches),
 * sends the writes this class asks for and hands back their completions.
 */
public final class DataFiles {
  /** What the data files need from their host (the log manager). */
  public interface Host {
    long now();

    long hardenedLsn();

    Rng rng();

    /** Writes one page; its completion comes back through {@link #onWriteDone} with the same tag. */
    void writePage(int device, long deviceOffset, int bytes, int fileId, long tag);
  }

  private final DataConfig cfg;

  private long[] pageLsn; // by page: LSN of its last change + 1, 0 when clean
  private byte[] writing; // by page: writes of it in flight
  private int[] dirty; // dirty pages, in no order (random picks)
  private int[] dirtyPos; // by page: its index in dirty, -1 when clean
  private int dirtyCount;
  // writes in flight: tag - firstTag is the index
  private long nextTag;
  private int[] flightPage = new int[64];
  private long[] flightLsn = new long[64];
  private long[] flightIssued = new long[64];
  private boolean[] flightCheckpoint = new boolean[64];
  private long flightBase; // tag of flight index 0
  private int flightCount; // slots used (some may be done)
  private int outstanding;
  // the checkpoint under way
  private int[] checkpointPages = new int[0];
  private int checkpointNext;
  private int checkpointOutstanding;
  private boolean checkpointing;
  // statistics
  private long lazyWrites;
  private long checkpointWrites;
  private long checkpoints;
  private long writeStallNanos;
  private long bytesWritten;

  public DataFiles(DataConfig cfg, long firstTag) {
    this.cfg = cfg;
    pageLsn = new long[cfg.pages()];
    writing = new byte[cfg.pages()];
    dirty = new int[Math.min(cfg.pages(), 1024)];
    dirtyPos = new int[cfg.pages()];
    Arrays.fill(dirtyPos, -1);
    nextTag = firstTag;
    flightBase = firstTag;
  }

  public DataConfig config() {
    return cfg;
  }

  public boolean owns(long tag) {
    return tag >= flightBase && tag < nextTag;
  }

  public int dirtyPages() {
    return dirtyCount;
  }

  public boolean checkpointing() {
    return checkpointing;
  }

  /** Rows {@code first .. first+count-1} changed, logged up to {@code lsn}. Rows beyond the table wrap around. */
  public void changed(long first, long count, long lsn) {
    long rows = cfg.rows();
    int rpp = cfg.rowsPerPage();
    long row = Math.floorMod(first, rows);
    long left = count;
    while (left > 0) {
      int page = (int) (row / rpp);
      long onPage = Math.min(left, rpp - row % rpp);
      markDirty(page, lsn);
      left -= onPage;
      row += onPage;
      if (row >= rows) row = 0;
    }
  }

  private void markDirty(int page, long lsn) {
    pageLsn[page] = lsn + 1;
    if (dirtyPos[page] >= 0) return;
    if (dirtyCount == dirty.length) dirty = Arrays.copyOf(dirty, Math.min(cfg.pages(), dirty.length * 2));
    dirty[dirtyCount] = page;
    dirtyPos[page] = dirtyCount++;
  }

  private void markClean(int page) {
    int i = dirtyPos[page];
    if (i < 0) return;
    int last = dirty[--dirtyCount];
    dirty[i] = last;
    dirtyPos[last] = i;
    dirtyPos[page] = -1;
    pageLsn[page] = 0;
  }

  /** The lazy writer's wake-up: writes random hardened dirty pages while more than the threshold are dirty. */
  public void lazyWrite(Host host) {
    int budget = cfg.lazyWriterPagesPerRun();
    long hardened = host.hardenedLsn();
    int misses = 0;
    while (budget > 0 && outstanding < cfg.maxOutstandingWrites() && dirtyCount > cfg.lazyWriterThresholdPages()
        && misses < 8) {
      int page = dirty[(int) Long.remainderUnsigned(host.rng().nextLong(), dirtyCount)];
      if (writing[page] > 0 || pageLsn[page] - 1 > hardened) {
        misses++; // being written, or its log is not hardened yet (write-ahead logging)
        continue;
      }
      issue(host, page, false);
      lazyWrites++;
      budget--;
    }
  }

  /** Starts a checkpoint: every page dirty now will be written (the caller hardened the log first). */
  public void startCheckpoint(Host host) {
    checkpointPages = Arrays.copyOf(dirty, dirtyCount);
    Arrays.sort(checkpointPages);
    checkpointNext = 0;
    checkpointOutstanding = 0;
    checkpointing = true;
    pumpCheckpoint(host);
  }

  private void pumpCheckpoint(Host host) {
    while (checkpointing && checkpointNext < checkpointPages.length && outstanding < cfg.maxOutstandingWrites()) {
      int page = checkpointPages[checkpointNext++];
      if (pageLsn[page] == 0) continue; // cleaned by the lazy writer meanwhile
      issue(host, page, true);
      checkpointWrites++;
      checkpointOutstanding++;
    }
  }

  private void issue(Host host, int page, boolean forCheckpoint) {
    long tag = nextTag++;
    int i = (int) (tag - flightBase);
    if (i == flightPage.length) {
      compactFlights();
      i = (int) (tag - flightBase);
      if (i >= flightPage.length) {
        int n = flightPage.length * 2;
        flightPage = Arrays.copyOf(flightPage, n);
        flightLsn = Arrays.copyOf(flightLsn, n);
        flightIssued = Arrays.copyOf(flightIssued, n);
        flightCheckpoint = Arrays.copyOf(flightCheckpoint, n);
      }
    }
    flightPage[i] = page;
    flightLsn[i] = pageLsn[page];
    flightIssued[i] = host.now();
    flightCheckpoint[i] = forCheckpoint;
    flightCount = i + 1;
    writing[page]++;
    outstanding++;
    host.writePage(cfg.device(), cfg.baseOffset() + (long) page * cfg.pageBytes(), cfg.pageBytes(), cfg.fileId(), tag);
  }

  /** Drops the done writes at the front of the flight arrays. */
  private void compactFlights() {
    int done = 0;
    while (done < flightCount && flightPage[done] < 0) done++;
    if (done == 0) return;
    int rest = flightCount - done;
    System.arraycopy(flightPage, done, flightPage, 0, rest);
    System.arraycopy(flightLsn, done, flightLsn, 0, rest);
    System.arraycopy(flightIssued, done, flightIssued, 0, rest);
    System.arraycopy(flightCheckpoint, done, flightCheckpoint, 0, rest);
    flightBase += done;
    flightCount = rest;
  }

  /**
   * A page write completed. Returns true when it was the last write of a checkpoint, which is then complete.
   * The page is clean unless it changed while it was written.
   */
  public boolean onWriteDone(Host host, long tag) {
    int i = (int) (tag - flightBase);
    int page = flightPage[i];
    if (page < 0) throw new IllegalStateException("data write " + tag + " completed twice");
    flightPage[i] = -1;
    writing[page]--;
    outstanding--;
    writeStallNanos += host.now() - flightIssued[i];
    bytesWritten += cfg.pageBytes();
    if (pageLsn[page] == flightLsn[i]) markClean(page);
    boolean checkpointDone = false;
    if (flightCheckpoint[i]) {
      checkpointOutstanding--;
      if (checkpointNext >= checkpointPages.length && checkpointOutstanding == 0 && checkpointing) {
        checkpointing = false;
        checkpoints++;
        checkpointDone = true;
      }
    }
    pumpCheckpoint(host);
    return checkpointDone;
  }

  /** Ends a checkpoint that found nothing to write. */
  public boolean finishIfEmpty() {
    if (checkpointing && checkpointNext >= checkpointPages.length && checkpointOutstanding == 0) {
      checkpointing = false;
      checkpoints++;
      return true;
    }
    return false;
  }

  public DataStats stats() {
    return new DataStats(cfg.fileId(), cfg.name(), lazyWrites, checkpointWrites, checkpoints, dirtyCount,
        lazyWrites + checkpointWrites - outstanding, bytesWritten, writeStallNanos);
  }

  public Object snapshot() {
    return new State(pageLsn.clone(), writing.clone(), Arrays.copyOf(dirty, dirtyCount), nextTag,
        Arrays.copyOf(flightPage, flightCount), Arrays.copyOf(flightLsn, flightCount),
        Arrays.copyOf(flightIssued, flightCount), Arrays.copyOf(flightCheckpoint, flightCount), flightBase,
        outstanding, checkpointPages.clone(), checkpointNext, checkpointOutstanding, checkpointing, lazyWrites,
        checkpointWrites, checkpoints, writeStallNanos, bytesWritten);
  }

  public void restore(Object snapshot) {
    State s = (State) snapshot;
    pageLsn = s.pageLsn().clone();
    writing = s.writing().clone();
    dirty = Arrays.copyOf(s.dirty(), Math.max(16, s.dirty().length));
    dirtyCount = s.dirty().length;
    Arrays.fill(dirtyPos, -1);
    for (int i = 0; i < dirtyCount; i++) dirtyPos[dirty[i]] = i;
    nextTag = s.nextTag();
    int n = Math.max(64, s.flightPage().length);
    flightPage = Arrays.copyOf(s.flightPage(), n);
    flightLsn = Arrays.copyOf(s.flightLsn(), n);
    flightIssued = Arrays.copyOf(s.flightIssued(), n);
    flightCheckpoint = Arrays.copyOf(s.flightCheckpoint(), n);
    flightCount = s.flightPage().length;
    flightBase = s.flightBase();
    outstanding = s.outstanding();
    checkpointPages = s.checkpointPages().clone();
    checkpointNext = s.checkpointNext();
    checkpointOutstanding = s.checkpointOutstanding();
    checkpointing = s.checkpointing();
    lazyWrites = s.lazyWrites();
    checkpointWrites = s.checkpointWrites();
    checkpoints = s.checkpoints();
    writeStallNanos = s.writeStallNanos();
    bytesWritten = s.bytesWritten();
  }

  public record State(long[] pageLsn, byte[] writing, int[] dirty, long nextTag, int[] flightPage, long[] flightLsn,
      long[] flightIssued, boolean[] flightCheckpoint, long flightBase, int outstanding, int[] checkpointPages,
      int checkpointNext, int checkpointOutstanding, boolean checkpointing, long lazyWrites, long checkpointWrites,
      long checkpoints, long writeStallNanos, long bytesWritten) implements CborSerializable {}
}
