package io.tlogsim.database.log.policy;

/** What a flush policy sees of its log manager and may ask of it, while the log manager handles an event. */
public interface FlushControl {
  /** Virtual time of the event being handled (ns). */
  long now();

  /** The end of what has been logged (record bytes, the log's sequence numbers). */
  long appendLsn();

  /** Everything below this LSN is on the device. */
  long hardenedLsn();

  /**
   * Asks for the log up to {@code lsn} to be hardened: the log manager closes the block holding it and writes as soon
   * as the outstanding-write limit allows (records logged meanwhile go into the same write).
   */
  void flushTo(long lsn);

  /** A write is in flight, or a flush was asked for and is not hardened yet. */
  boolean flushing();

  /** Commits whose sessions wait for a flush and whose records are not hardened yet. */
  int waitingCommits();

  /** Commits that do not wait and whose records are not hardened yet. */
  int lazyCommits();

  /** Transactions begun (a first record logged) and not yet committed. */
  int activeTransactions();

  /** True while some session of the database is connected. */
  boolean sessionsOpen();

  /** Schedules {@link FlushPolicy#onTimer} at {@code at}, with {@code code}; returns a handle for {@link #cancel}. */
  long schedule(long at, long code);

  boolean cancel(long handle);
}
