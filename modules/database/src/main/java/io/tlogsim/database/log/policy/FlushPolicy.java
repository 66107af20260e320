package io.tlogsim.database.log.policy;


/**
 * When a database's log manager writes its log, and which commits wait for it (REFERENCE.md 2). Mechanisms every
 * policy shares live in the log manager: records fill log blocks; a full block is written regardless; a write
 * carries every record logged up to the moment it is issued; the outstanding-write limit holds writes back. A policy
 * adds only its own decisions: whether a commit waits ({@link #waits}), and when to ask for a flush
 * ({@link FlushControl#flushTo}).
 *
 * <p>A policy is state of its log manager: {@link #snapshot()} and {@link #restore} carry it through checkpoints.
 */
public interface FlushPolicy {

  /** The name scenarios give it ("per-commit", "buffered", ...). */
  String name();

  /**
   * Whether a commit of a session in this {@link SessionMode} is acknowledged only once its log
   * is hardened. Sessions apply the same rule (a commit that does not wait returns at once). Pure: no state.
   */
  boolean waits(int sessionMode);

  /**
   * Its settings, as one line ("group-commit delayNanos=200000 count=0"): a checkpoint keeps them, so that a branch
   * that changes them (run --branch --set groupCommitDelayUs=...) switches policy at T as one that changes the policy.
   */
  default String settings() {
    return name();
  }

  /**
   * Called once at time 0 of a fresh run (periodic flushers arm their timer here), and at the first event after T when
   * a branch switches to this policy at T (then with the log as the old policy left it; see LogManager).
   */
  default void start(FlushControl log) {}

  /** A commit record was appended; {@code waits}: its session waits for it to harden. */
  void onCommit(FlushControl log, boolean waits);

  /** A timer this policy scheduled fired. */
  default void onTimer(FlushControl log, long code) {}

  /** A log write completed (the hardened LSN may have moved). */
  default void onHardened(FlushControl log) {}

  /**
   * Who issues the flushes and wakes the commits they harden (docs/commit-path-host-costs.md 4.5): a committing
   * session (PostgreSQL's WALWriteLock holder, Informix's committer) or a log writer thread (SQL Server, InnoDB, DB2,
   * Oracle, a generic group commit). The session pool charges the flush's system calls and the wake-ups there.
   */
  default Flusher flusher() {
    return Flusher.WRITER;
  }

  /** See {@link #flusher()}. */
  enum Flusher {
    /** The first session a flush acknowledges issued it: it pays the flush and wakes the others. */
    SESSION,
    /** A log writer thread pays the flush and wakes every session the flush acknowledges. */
    WRITER
  }

  /**
   * The flush lock the engine's committers take themselves, if it has one (PostgreSQL's WALWriteLock: xlog.c
   * XLogFlush); null otherwise. A session pool that charges host costs holds it instead of the log manager
   * ({@link #lockInSessions}): then the pool's sessions decide who flushes, sleep on the lock and are woken at its
   * release (docs/commit-path-host-costs.md 4.4).
   */
  default FlushLock flushLock() {
    return null;
  }

  /**
   * The session pool holds {@link #flushLock()}: the policy no longer starts flushes for commits that wait (their
   * sessions send FLUSH); it keeps its background flushing of commits that do not wait. Called once, before start.
   */
  default void lockInSessions() {
    throw new UnsupportedOperationException(name() + " has no flush lock the sessions can hold");
  }

  /**
   * The settings of a committers' flush lock: the holder sleeps {@code commitDelayNanos} before it flushes when at least
   * {@code commitSiblings} other sessions are in a transaction (commit_delay, commit_siblings; REFERENCE.md 2).
   */
  record FlushLock(long commitDelayNanos, int commitSiblings) {}

  /** True when some commit may be acknowledged before its log is hardened (the crash issue counts what they lose). */
  default boolean acknowledgesEarly() {
    return !waits(SessionMode.DEFAULT) || !waits(SessionMode.DURABLE) || !waits(SessionMode.LAZY);
  }

  Object snapshot();

  void restore(Object snapshot);
}
