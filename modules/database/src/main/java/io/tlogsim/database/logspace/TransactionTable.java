package io.tlogsim.database.logspace;

import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What recovery needs to know of each session's transactions (REFERENCE.md 3): the open one's first and last LSN, the
 * rows its records changed (as ranges, in the order they were logged) and the size of the compensation record that
 * would undo each; and the same for the transaction the session ended last, with where its end record lies (a commit
 * appended but not hardened at a crash makes it a transaction to roll back all the same).
 */
public final class TransactionTable {
  /** One transaction as recovery sees it: rows as pairs (first row, count) in log order (-1: records of no row). */
  public record Txn(int session, long firstLsn, long lastLsn, long endLsn, long[] rowRanges, int clrBytes)
      implements CborSerializable {}

  private final long[] first;
  private final long[] last;
  private final long[][] ranges;
  private final int[] rangeLongs;
  private final int[] clr;
  private final List<List<Txn>> ended; // by session: its ended transactions whose end may not be hardened yet

  public TransactionTable(int sessions) {
    first = new long[sessions];
    last = new long[sessions];
    ranges = new long[sessions][];
    rangeLongs = new int[sessions];
    clr = new int[sessions];
    ended = new ArrayList<>();
    for (int k = 0; k < sessions; k++) ended.add(new ArrayList<>());
    Arrays.fill(first, -1);
  }

  public void begin(int s, long lsn) {
    if (first[s] < 0) {
      first[s] = lsn;
      last[s] = lsn;
      rangeLongs[s] = 0;
      clr[s] = 0;
    }
  }

  /** The session's open transaction logged up to {@code lsn}. */
  public void logged(int s, long lsn) {
    if (first[s] >= 0 && lsn > last[s]) last[s] = lsn;
  }

  /**
   * Its records changed rows {@code firstRow .. firstRow+count-1} (-1: records of no row), each undone by a
   * compensation record of {@code clrBytes}.
   */
  public void changed(int s, long firstRow, long count, int clrBytes) {
    if (first[s] < 0 || count <= 0) return;
    if (clrBytes > 0) clr[s] = clrBytes;
    int n = rangeLongs[s];
    long[] r = ranges[s];
    if (n > 0 && (firstRow < 0 ? r[n - 2] < 0 : r[n - 2] >= 0 && r[n - 2] + r[n - 1] == firstRow)) {
      r[n - 1] += count; // continues the last range
      return;
    }
    if (r == null || n + 2 > r.length) ranges[s] = r = Arrays.copyOf(r == null ? new long[0] : r, Math.max(8, n * 2));
    r[n] = firstRow;
    r[n + 1] = count;
    rangeLongs[s] = n + 2;
  }

  /**
   * The session's transaction ended (its commit or abort record ends at {@code endLsn}); those whose end is hardened
   * ({@code hardenedLsn}) are forgotten: a crash can no longer make them roll back.
   */
  public void end(int s, long endLsn, long hardenedLsn) {
    List<Txn> e = ended.get(s);
    e.removeIf(t -> t.endLsn() <= hardenedLsn);
    if (first[s] < 0) return;
    e.add(new Txn(s, first[s], last[s], endLsn, Arrays.copyOf(ranges[s] == null ? new long[0] : ranges[s],
        rangeLongs[s]), clr[s]));
    first[s] = -1;
    rangeLongs[s] = 0;
  }

  /** The transaction was rolled back (9002, or by recovery): nothing of it is left to undo. */
  public void forget(int s) {
    first[s] = -1;
    rangeLongs[s] = 0;
  }

  /** Recovery rolled back every transaction the crash left (open, or ended without a hardened end). */
  public void forgetAll(int s) {
    forget(s);
    ended.get(s).clear();
  }

  /**
   * The transactions a crash with the log hardened up to {@code hardenedLsn} leaves to roll back: every open one with
   * records in the hardened log, and every ended one whose end record is not hardened, in session order.
   */
  public List<Txn> losers(long hardenedLsn) {
    List<Txn> out = new ArrayList<>();
    for (int s = 0; s < first.length; s++) {
      for (Txn e : ended.get(s)) {
        if (e.endLsn() > hardenedLsn && e.firstLsn() < hardenedLsn) {
          out.add(new Txn(s, e.firstLsn(), Math.min(e.lastLsn(), hardenedLsn), -1,
              upTo(e.rowRanges(), e.firstLsn(), e.lastLsn(), hardenedLsn), e.clrBytes()));
        }
      }
      if (first[s] >= 0 && first[s] < hardenedLsn) {
        long[] r = Arrays.copyOf(ranges[s] == null ? new long[0] : ranges[s], rangeLongs[s]);
        out.add(new Txn(s, first[s], Math.min(last[s], hardenedLsn), -1, upTo(r, first[s], last[s], hardenedLsn),
            clr[s]));
      }
    }
    return out;
  }

  /**
   * The rows of {@code ranges} whose records lie in the log up to {@code lsn}: the oldest ones, as many as that part
   * of the transaction's log [firstLsn, lastLsn] holds (its records taken as spread evenly over its log; the table
   * keeps rows, not each record's LSN). The rest was logged after {@code lsn}: lost at a crash, or not in the backup
   * a restore ends with, so there is nothing of it to undo.
   */
  static long[] upTo(long[] ranges, long firstLsn, long lastLsn, long lsn) {
    if (lsn >= lastLsn || lastLsn <= firstLsn) return ranges;
    long rows = 0;
    for (int i = 1; i < ranges.length; i += 2) rows += ranges[i];
    long keep = (long) Math.floor(rows * (double) (lsn - firstLsn) / (lastLsn - firstLsn));
    long[] out = new long[ranges.length];
    int n = 0;
    for (int i = 0; i < ranges.length && keep > 0; i += 2) {
      long c = Math.min(keep, ranges[i + 1]);
      out[n++] = ranges[i];
      out[n++] = c;
      keep -= c;
    }
    return Arrays.copyOf(out, n);
  }

  public State snapshot() {
    List<long[]> r = new ArrayList<>();
    for (int s = 0; s < first.length; s++) r.add(ranges[s] == null ? new long[0] : Arrays.copyOf(ranges[s], rangeLongs[s]));
    List<List<Txn>> e = new ArrayList<>();
    for (List<Txn> x : ended) e.add(List.copyOf(x));
    return new State(first.clone(), last.clone(), r, clr.clone(), e);
  }

  public void restore(State st) {
    System.arraycopy(st.first(), 0, first, 0, first.length);
    System.arraycopy(st.last(), 0, last, 0, last.length);
    for (int s = 0; s < first.length; s++) {
      ranges[s] = st.ranges().get(s).clone();
      rangeLongs[s] = ranges[s].length;
      ended.get(s).clear();
      ended.get(s).addAll(st.ended().get(s));
    }
    System.arraycopy(st.clr(), 0, clr, 0, clr.length);
  }

  public record State(long[] first, long[] last, List<long[]> ranges, int[] clr, List<List<Txn>> ended)
      implements CborSerializable {}
}
