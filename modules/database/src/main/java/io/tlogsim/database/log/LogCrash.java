package io.tlogsim.database.log;

import io.tlogsim.kernel.EventFact;

/**
 * A fact and a result: the server stopped (power loss, SHUTDOWN WITH NOWAIT) at {@code atNanos}; only the log up to
 * {@code hardenedLsn} survives. What recovery finds there (REFERENCE.md 3): {@code rolledForward} commits hardened
 * after the last completed checkpoint's record, {@code rolledBack} transactions with records in the hardened log and no
 * hardened commit.
 *
 * @param logBytesLost log appended to the log buffers and not hardened
 * @param unhardenedCommits commit records appended and not hardened (acknowledged or not)
 * @param pendingCommits commit requests that arrived and waited for a log buffer or log space: never logged
 * @param pendingLazyCommits of those, commits that did not wait for their flush (not acknowledged: they wait for
 *     their append)
 * @param exposedLazy commits acknowledged without waiting for their flush (their {@link LogProtocol#APPENDED} reached
 *     the session) whose records are appended and not hardened: the commits the crash loses
 * @param lazyOnTheirWay commits appended and not hardened that did not wait, their APPENDED still on its way to the
 *     session: never acknowledged
 * @param undoFromLsn where the oldest transaction to roll back began (-1: none)
 * @param hardenedCommits by session: how many of its commits the hardened log holds (the first ones); null in the
 *     fact
 */
public record LogCrash(long atNanos, long hardenedLsn, long logBytesLost, int unhardenedCommits, int pendingCommits,
    int pendingLazyCommits, int exposedLazy, int lazyOnTheirWay, long rolledForward, long rolledBack,
    long undoFromLsn, long[] hardenedCommits)
    implements EventFact {

  /** The fact as recorded (without the per-session counts, which only the run's result needs). */
  public LogCrash withoutSessions() {
    return new LogCrash(atNanos, hardenedLsn, logBytesLost, unhardenedCommits, pendingCommits, pendingLazyCommits,
        exposedLazy, lazyOnTheirWay, rolledForward, rolledBack, undoFromLsn, null);
  }
}
