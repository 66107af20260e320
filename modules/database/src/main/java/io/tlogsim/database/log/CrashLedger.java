package io.tlogsim.database.log;

import io.tlogsim.kernel.CborSerializable;
import java.util.Arrays;

/**
 * What a power loss would leave of each session's work (REFERENCE.md 3): kept by the log manager only when the run
 * has a crash. Per session, the commits whose records are hardened (a prefix of the session's commits: its records are
 * appended in order); the transactions whose commit record is appended but not hardened, in LSN order with where they
 * began; and the transaction each session has open. At the crash, recovery rolls forward the commits logged after the last
 * completed checkpoint's record and rolls back every transaction that has records in the hardened log but no hardened
 * commit.
 */
public final class CrashLedger {
  // appended, not hardened: session, LSN of its first record (-1: none logged before the commit), LSN after its commit
  private static final int U_SESSION = 0, U_BEGIN = 1, U_COMMIT = 2;

  private long[] hardenedCommits; // by session
  private long[] openBegin; // by session: LSN where its open transaction began (-1: none open)
  private LongRing unhardened = new LongRing(3, 64);
  private long appended; // commit records appended
  private long hardenedTotal; // ... and hardened
  private LongRing checkpointRecords = new LongRing(1, 4); // per checkpoint logged and not completed: `appended` then
  private long redoFrom; // `appended` when the last completed checkpoint's record was logged

  CrashLedger(int sessions) {
    hardenedCommits = new long[sessions];
    openBegin = new long[sessions];
    Arrays.fill(openBegin, -1);
  }

  /** Session {@code s}'s transaction logs its first record at {@code lsn}. */
  void begin(int s, long lsn) {
    if (openBegin[s] < 0) openBegin[s] = lsn;
  }

  /** Session {@code s}'s commit record is appended; the log holds it once hardened up to {@code endLsn}. */
  void committed(int s, long endLsn) {
    unhardened.add(s, openBegin[s], endLsn);
    openBegin[s] = -1;
    appended++;
  }

  /** Session {@code s}'s transaction was rolled back (error 9002): nothing of it is to be recovered. */
  void rolledBack(int s) {
    openBegin[s] = -1;
  }

  /** The log is hardened up to {@code lsn}. */
  void hardened(long lsn) {
    while (!unhardened.isEmpty() && unhardened.first(U_COMMIT) <= lsn) {
      hardenedCommits[(int) unhardened.first(U_SESSION)]++;
      hardenedTotal++;
      unhardened.removeFirst();
    }
  }

  /** A checkpoint's record is appended: the commits before it will be in the data files once it completes. */
  void checkpointLogged() {
    checkpointRecords.add(appended);
  }

  /**
   * The oldest checkpoint logged completed: redo starts at its record (REFERENCE.md 3), so the commits appended after
   * that record are what recovery rolls forward (every commit before it was hardened with the record).
   */
  void checkpointed() {
    redoFrom = checkpointRecords.first(0);
    checkpointRecords.removeFirst();
  }

  /**
   * The server stops at {@code now} with the log hardened up to {@code hardenedLsn}: what recovery will find.
   *
   * @param pendingCommits commit requests that arrived but wait for a log buffer or log space (never appended)
   * @param exposedLazy commits acknowledged without waiting (their APPENDED reached the session) and not hardened
   * @param lazyOnTheirWay commits that did not wait, appended and not hardened, whose APPENDED was still on its way
   */
  LogCrash crash(long now, long hardenedLsn, long appendLsn, int pendingCommits, int pendingLazyCommits,
      int exposedLazy, int lazyOnTheirWay) {
    long rolledBack = 0;
    long undoFrom = Long.MAX_VALUE;
    for (int r = 0; r < unhardened.size(); r++) {
      long begin = unhardened.get(r, U_BEGIN);
      if (begin >= 0 && begin < hardenedLsn) {
        rolledBack++;
        undoFrom = Math.min(undoFrom, begin);
      }
    }
    for (long begin : openBegin) {
      if (begin >= 0 && begin < hardenedLsn) {
        rolledBack++;
        undoFrom = Math.min(undoFrom, begin);
      }
    }
    return new LogCrash(now, hardenedLsn, appendLsn - hardenedLsn, unhardened.size(), pendingCommits,
        pendingLazyCommits, exposedLazy, lazyOnTheirWay, hardenedTotal - redoFrom, rolledBack,
        rolledBack == 0 ? -1 : undoFrom, hardenedCommits.clone());
  }

  /**
   * The server restarted after a crash and recovery rolls back what was open or not hardened: the log holds only what
   * was hardened, and every session starts afresh.
   */
  void restarted() {
    Arrays.fill(openBegin, -1);
    unhardened = new LongRing(3, 64);
  }

  State snapshot() {
    return new State(hardenedCommits.clone(), openBegin.clone(), unhardened.toArray(),
        new long[] {appended, hardenedTotal, redoFrom}, checkpointRecords.toArray());
  }

  void restore(State s) {
    hardenedCommits = s.hardenedCommits().clone();
    openBegin = s.openBegin().clone();
    unhardened = LongRing.of(3, s.unhardened());
    appended = s.counters()[0];
    hardenedTotal = s.counters()[1];
    redoFrom = s.counters()[2];
    checkpointRecords = LongRing.of(1, s.checkpointRecords());
  }

  public record State(long[] hardenedCommits, long[] openBegin, long[] unhardened,
      long[] counters, long[] checkpointRecords) implements CborSerializable {}
}
