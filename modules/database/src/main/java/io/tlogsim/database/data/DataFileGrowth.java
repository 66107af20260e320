package io.tlogsim.database.data;

import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A data file that grows as its rows do (REFERENCE.md 1: data files grow by size too, and each growth is
 * zero-initialized on the device unless instant file initialization is on).
 *
 * <p><b>Pages and splits.</b> The table's pages are kept as runs of pages holding the same number of rows, in key
 * order; a statement that makes rows longer walks them in that order (an UPDATE over the clustered index). A page
 * whose rows no longer fit splits: half its rows move to a new page (again, until each part fits), so the file's used
 * space is what the pages take, half-empty ones included, not the rows' bytes: a table whose rows double in length
 * needs about twice its pages after each split round (REFERENCE.md 5.2's updates).
 *
 * <p><b>Growth.</b> When the pages need more room than the file has, the file grows by {@code growthBytes} at a time;
 * without instant initialization the new bytes are zeroed at the device's rate while the log manager takes nothing
 * more (the statement, and every request behind it, waits).
 */
public final class DataFileGrowth {
  /** What a growth asks of the log manager. */
  public interface Host {
    long now();

    /** Writes zeros over {@code bytes} at {@code deviceOffset} of the data file's device; completes with {@code tag}. */
    void zeroData(long deviceOffset, long bytes, long tag);

    /** Calls {@link DataFileGrowth#held} {@code nanos} from now (a growth's part that is not its zeroing). */
    default void holdData(long nanos) {
      throw new UnsupportedOperationException("this host cannot hold a data-file growth");
    }
  }

  /**
   * @param sizeBytes the file at the start; growthBytes each growth; instantInit no zeroing (IFI)
   * @param pageBytes a data page; pageRecordBytes the bytes of it rows may use (the page header apart)
   * @param holdNanos how long a growth holds the file after its zeroing (what it costs besides writing its zeros)
   */
  public record Config(long sizeBytes, long growthBytes, boolean instantInit, int pageBytes, int pageRecordBytes,
      long holdNanos) implements CborSerializable {

    public Config(long sizeBytes, long growthBytes, boolean instantInit) {
      this(sizeBytes, growthBytes, instantInit, 8192, 8096, 0);
    }
  }

  private final Config cfg;
  private final long baseOffset;
  private long size;
  private long used;
  private int zeroing; // growths whose zeroes (or fixed time) are still on their way
  private long stallStart = -1;
  private long growths;
  private long zeroedBytes;
  private long stallNanos;
  private long splits;
  // the table's pages in key order, as runs (pages, rows each, each row's bytes): those the statement walking the table
  // has not reached yet, and those it has (the next walk starts with them)
  private List<long[]> ahead = new ArrayList<>();
  private List<long[]> behind = new ArrayList<>();
  private long rowsInPass; // rows of pages walked beyond what the statement asked so far

  /** @param usedBytes what the table takes at the start; baseOffset where the file starts on its device */
  public DataFileGrowth(Config cfg, long usedBytes, long baseOffset) {
    this.cfg = cfg;
    this.baseOffset = baseOffset;
    this.size = Math.max(cfg.sizeBytes(), usedBytes);
    this.used = usedBytes;
  }

  /**
   * The table the file holds: {@code rows} rows, {@code rowsPerPage} to a page, full (its rows' length follows: the
   * page's record bytes over the rows it holds).
   */
  public DataFileGrowth withTable(long rows, int rowsPerPage) {
    long pages = rows / rowsPerPage;
    ahead.clear();
    behind.clear();
    long rowBytes = cfg.pageRecordBytes() / rowsPerPage;
    if (pages > 0) ahead.add(new long[] {pages, rowsPerPage, rowBytes});
    if (rows % rowsPerPage > 0) ahead.add(new long[] {1, rows % rowsPerPage, rowBytes});
    used = Math.max(used, pages() * cfg.pageBytes());
    size = Math.max(size, used);
    return this;
  }

  /** Rows take {@code bytes} more (no page structure known); the file grows if it must. */
  public void use(Host host, long bytes) {
    used += bytes;
    growIfNeeded(host);
  }

  /**
   * The next {@code rows} rows in key order each grow by {@code growBytes}: the pages they are on split where they
   * no longer fit, and the file grows if the pages need more room than it has.
   */
  public void grow(Host host, long rows, long growBytes) {
    if (ahead.isEmpty() && behind.isEmpty()) { // no table known: the bytes alone
      use(host, rows * growBytes);
      return;
    }
    long left = rows - rowsInPass; // rowsInPass: rows of pages already walked beyond what was asked (credit)
    rowsInPass = 0;
    while (left > 0) {
      if (ahead.isEmpty()) { // the table is walked: the next statement walks its pages again
        ahead = behind;
        behind = new ArrayList<>();
      }
      long[] run = ahead.get(0);
      long perPage = run[1];
      // whole pages: a page is split (or not) when its first row is reached
      long pages = Math.min(run[0], Math.max(1, (left + perPage - 1) / perPage));
      split(pages, perPage, run[2] + growBytes);
      run[0] -= pages;
      if (run[0] == 0) ahead.remove(0);
      left -= pages * perPage;
    }
    rowsInPass = -left; // rows walked ahead of the statement
    used = pages() * cfg.pageBytes();
    growIfNeeded(host);
  }

  /** {@code pages} pages of {@code perPage} rows of {@code bytes} each: split until every part fits. */
  private void split(long pages, long perPage, long bytes) {
    long fit = Math.max(1, cfg.pageRecordBytes() / Math.max(1, bytes));
    if (perPage <= fit) {
      add(behind, pages, perPage, bytes);
      return;
    }
    // halves, until each part fits: a page of n rows becomes parts of ceil(n/2) and floor(n/2), and so on
    long hi = (perPage + 1) / 2, lo = perPage / 2;
    splits += pages;
    split(pages, hi, bytes);
    if (lo > 0) split(pages, lo, bytes);
  }

  private static void add(List<long[]> runs, long pages, long perPage, long rowBytes) {
    if (pages <= 0) return;
    long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
    if (last != null && last[1] == perPage && last[2] == rowBytes) {
      last[0] += pages;
    } else {
      runs.add(new long[] {pages, perPage, rowBytes});
    }
  }

  /** The table's pages now. */
  public long pages() {
    long n = 0;
    for (long[] r : ahead) n += r[0];
    for (long[] r : behind) n += r[0];
    return n;
  }

  private void growIfNeeded(Host host) {
    while (used > size) {
      long by = cfg.growthBytes();
      growths++;
      if (!cfg.instantInit()) {
        if (zeroing++ == 0) stallStart = host.now();
        host.zeroData(baseOffset + size, by, growths);
        zeroedBytes += by;
      } else if (cfg.holdNanos() > 0) {
        if (zeroing++ == 0) stallStart = host.now();
        host.holdData(cfg.holdNanos());
      }
      size += by;
    }
  }

  /** True while a growth's zeroes are on their way: nothing more is admitted. */
  public boolean stalled() {
    return zeroing > 0;
  }

  /** A growth's zeroes are written; true when the file is ready again (after its hold, when it has one). */
  public boolean zeroed(Host host) {
    if (cfg.holdNanos() > 0) {
      host.holdData(cfg.holdNanos());
      return false;
    }
    return held(host);
  }

  /** A growth's hold is over; true when the file is ready again. */
  public boolean held(Host host) {
    if (--zeroing > 0) return false;
    stallNanos += host.now() - stallStart;
    stallStart = -1;
    return true;
  }

  public Stats stats() {
    return new Stats(size, used, growths, zeroedBytes, stallNanos, splits, pages());
  }

  /**
   * What the file did: its size and use at the end, its growths, the zeroes written, the time the log stood still,
   * the page splits and the table's pages at the end.
   */
  public record Stats(long sizeBytes, long usedBytes, long growths, long zeroedBytes, long stallNanos, long splits,
      long pages) implements CborSerializable {}

  /** Counters, then the runs ahead and behind, each as a count followed by (pages, rows) pairs. */
  public long[] snapshot() {
    long[] out = new long[11 + 2 + 3 * (ahead.size() + behind.size())];
    long[] c = {size, used, zeroing, stallStart, growths, zeroedBytes, stallNanos, splits, 0, 0, rowsInPass};
    System.arraycopy(c, 0, out, 0, c.length);
    int i = c.length;
    for (List<long[]> runs : List.of(ahead, behind)) {
      out[i++] = runs.size();
      for (long[] r : runs) {
        out[i++] = r[0];
        out[i++] = r[1];
        out[i++] = r[2];
      }
    }
    return out;
  }

  public void restore(long[] s) {
    size = s[0];
    used = s[1];
    zeroing = (int) s[2];
    stallStart = s[3];
    growths = s[4];
    zeroedBytes = s[5];
    stallNanos = s[6];
    if (s.length <= 7) return; // the former snapshot: counters only
    splits = s[7];
    rowsInPass = s[10];
    int i = 11;
    List<List<long[]>> both = new ArrayList<>();
    for (int k = 0; k < 2; k++) {
      List<long[]> runs = new ArrayList<>();
      long n = s[i++];
      for (long j = 0; j < n; j++, i += 3) runs.add(new long[] {s[i], s[i + 1], s[i + 2]});
      both.add(runs);
    }
    ahead = both.get(0);
    behind = both.get(1);
  }

}
