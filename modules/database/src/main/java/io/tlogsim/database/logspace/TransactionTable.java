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
  /**
   * One transaction as recovery sees it: rows as pairs (first row, count) in log order (-1: records of no row). A
   * transaction whose rollback had begun (after a 9002) when the log ended at a crash: {@code compensated} of its
   * changes, the newest, already have their compensation records in that log (they are no longer in
   * {@code rowRanges}), and undo goes on from {@code undoNextLsn}, back to {@code firstLsn}.
   */
  public record Txn(int session, long firstLsn, long lastLsn, long endLsn, long[] rowRanges, int clrBytes,
      long compensated, long undoNextLsn, long lastChangeLsn, long[] clrLog) implements CborSerializable {
    public Txn(int session, long firstLsn, long lastLsn, long endLsn, long[] rowRanges, int clrBytes) {
      this(session, firstLsn, lastLsn, endLsn, rowRanges, clrBytes, 0, lastLsn, lastLsn, null);
    }
  }

  private final long[] first;
  private final long[] last;
  private final long[][] ranges;
  private final int[] rangeLongs;
  private final int[] clr;
  private final long[] lastChange; // by session: the open transaction's last LSN before its first compensation record
  private final long[][] clrLog; // by session: its compensation records, pairs (LSN after them, how many so far)
  private final int[] clrLongs;
  private final List<List<Txn>> ended; // by session: its ended transactions whose end may not be hardened yet

  public TransactionTable(int sessions) {
    first = new long[sessions];
    last = new long[sessions];
    ranges = new long[sessions][];
    rangeLongs = new int[sessions];
    clr = new int[sessions];
    lastChange = new long[sessions];
    clrLog = new long[sessions][];
    clrLongs = new int[sessions];
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
      clrLongs[s] = 0;
    }
  }

  /**
   * The open transaction's rollback logged {@code count} compensation records, which end at {@code lsnAfter} (undo
   * compensates the newest changes first, so they stand for the newest {@code count} rows not yet compensated).
   */
  public void compensated(int s, long count, long lsnAfter) {
    if (first[s] < 0 || count <= 0) return;
    int n = clrLongs[s];
    if (n == 0) lastChange[s] = last[s]; // called before logged() moves last past them
    long[] r = clrLog[s];
    if (r == null || n + 2 > r.length) clrLog[s] = r = Arrays.copyOf(r == null ? new long[0] : r, Math.max(8, n * 2));
    r[n] = lsnAfter;
    r[n + 1] = (n == 0 ? 0 : r[n - 1]) + count;
    clrLongs[s] = n + 2;
  }

  /**
   * A crash: the log ends at {@code hardenedLsn}; compensation records after it are lost (recovery writes them again).
   * A batch cut by it keeps its hardened part (spread evenly, as {@link #compensatedUpTo} reads it), ending there.
   */
  public void crashed(long hardenedLsn) {
    for (int s = 0; s < first.length; s++) {
      int n = clrLongs[s];
      long[] r = clrLog[s];
      if (n == 0 || r[n - 2] <= hardenedLsn) continue;
      long found = compensatedUpTo(Arrays.copyOf(r, n), lastChange[s], hardenedLsn);
      while (n > 0 && r[n - 2] > hardenedLsn) n -= 2;
      if (found > (n == 0 ? 0 : r[n - 1])) {
        r[n] = hardenedLsn;
        r[n + 1] = found;
        n += 2;
      }
      clrLongs[s] = n;
    }
  }

  /**
   * How many of the open transaction's compensation records lie in the log up to {@code lsn}: each batch's records
   * taken as spread evenly between the batch before it and its end.
   */
  static long compensatedUpTo(long[] log, long lastChange, long lsn) {
    long before = 0, from = lastChange;
    for (int i = 0; i + 1 < log.length; i += 2) {
      long end = log[i], upTo = log[i + 1];
      if (end <= lsn) {
        before = upTo;
        from = end;
        continue;
      }
      if (lsn > from && end > from) before += (long) Math.floor((upTo - before) * (double) (lsn - from) / (end - from));
      break;
    }
    return before;
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
    clrLongs[s] = 0;
  }

  /**
   * The session's rollback after a 9002 logged its end record, which ends at {@code endLsn}: until that is hardened,
   * a crash still leaves the transaction to roll back, with the compensation records hardened before it (kept as an
   * ended transaction, as a commit not yet hardened is).
   */
  public void rolledBack(int s, long endLsn, long hardenedLsn) {
    List<Txn> e = ended.get(s);
    e.removeIf(t -> t.endLsn() <= hardenedLsn);
    if (first[s] >= 0 && endLsn > hardenedLsn) {
      e.add(new Txn(s, first[s], last[s], endLsn, Arrays.copyOf(ranges[s] == null ? new long[0] : ranges[s],
          rangeLongs[s]), clr[s], 0, last[s], clrLongs[s] == 0 ? last[s] : lastChange[s],
          Arrays.copyOf(clrLog[s] == null ? new long[0] : clrLog[s], clrLongs[s])));
    }
    forget(s);
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
          out.add(loser(s, e.firstLsn(), e.lastLsn(), e.rowRanges(), e.clrBytes(), e.lastChangeLsn(),
              e.clrLog() == null ? new long[0] : e.clrLog(), hardenedLsn));
        }
      }
      if (first[s] >= 0 && first[s] < hardenedLsn) {
        long[] r = Arrays.copyOf(ranges[s] == null ? new long[0] : ranges[s], rangeLongs[s]);
        out.add(loser(s, first[s], last[s], r, clr[s], clrLongs[s] == 0 ? last[s] : lastChange[s],
            Arrays.copyOf(clrLog[s] == null ? new long[0] : clrLog[s], clrLongs[s]), hardenedLsn));
      }
    }
    return out;
  }

  /**
   * What a crash with the log hardened up to {@code lsn} leaves of one transaction to roll back. Its rollback may have
   * begun ({@code clrLog} not empty): its changes end at {@code lastChange}, its compensation records follow them,
   * and those hardened are found, not written again.
   */
  private static Txn loser(int s, long first, long last, long[] ranges, int clrBytes, long lastChange, long[] clrLog,
      long lsn) {
    if (clrLog.length == 0) return new Txn(s, first, Math.min(last, lsn), -1, upTo(ranges, first, last, lsn), clrBytes);
    long[] changes = upTo(ranges, first, lastChange, lsn);
    long rows = rows(changes);
    long found = Math.min(rows, compensatedUpTo(clrLog, lastChange, lsn));
    long[] left = oldest(changes, rows - found);
    // undo-next LSN: where the change the last compensation record undid lies, approximated (the table keeps rows,
    // not each record's LSN) as the oldest changes' share of the transaction's log, spread evenly
    long changeEnd = Math.min(lastChange, lsn);
    long undoNext = rows == 0 ? first : first + (long) Math.floor((changeEnd - first) * (double) (rows - found) / rows);
    return new Txn(s, first, Math.min(last, lsn), -1, left, clrBytes, found, undoNext, changeEnd, null);
  }

  private static long rows(long[] ranges) {
    long n = 0;
    for (int i = 1; i < ranges.length; i += 2) n += ranges[i];
    return n;
  }

  /** The oldest {@code keep} rows of {@code ranges}. */
  static long[] oldest(long[] ranges, long keep) {
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
    List<long[]> c = new ArrayList<>();
    for (int s = 0; s < first.length; s++) {
      c.add(clrLog[s] == null ? new long[0] : Arrays.copyOf(clrLog[s], clrLongs[s]));
    }
    return new State(first.clone(), last.clone(), r, clr.clone(), e, lastChange.clone(), c);
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
    if (st.lastChange() != null) System.arraycopy(st.lastChange(), 0, lastChange, 0, lastChange.length);
    for (int s = 0; s < first.length; s++) { // a checkpoint from before they were kept has none
      clrLog[s] = st.clrLog() == null ? new long[0] : st.clrLog().get(s).clone();
      clrLongs[s] = clrLog[s].length;
    }
  }

  public record State(long[] first, long[] last, List<long[]> ranges, int[] clr, List<List<Txn>> ended,
      long[] lastChange, List<long[]> clrLog) implements CborSerializable {}
}
