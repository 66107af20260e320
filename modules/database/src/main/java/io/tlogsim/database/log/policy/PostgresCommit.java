package io.tlogsim.database.log.policy;

import io.tlogsim.kernel.CborSerializable;

/**
 * PostgreSQL's commit path (REFERENCE.md 2: synchronous_commit, commit_delay with commit_siblings, wal_writer_delay).
 * One flush at a time (WALWriteLock; give the log manager one outstanding write): the first waiting committer that
 * finds no flush under way leads; if commit_delay > 0 and at least commit_siblings other transactions are open, it
 * sleeps commit_delay first; then it flushes everything inserted so far, while the others wait for the lock and
 * mostly find their commit flushed. With synchronous_commit off a commit returns at once, and the WAL writer flushes
 * every wal_writer_delay. A session may set synchronous_commit itself (session mode).
 *
 * <p>With host costs the session pool holds WALWriteLock instead ({@link #lockInSessions}, the pool's WalWriteLock:
 * the holder sends FLUSH, the others sleep on the lock and are woken at its release); this policy then keeps only the
 * WAL writer.
 */
public final class PostgresCommit implements FlushPolicy {
  private static final long SLEEP = 1;
  private static final long WAL_WRITER = 2;

  private final boolean synchronousCommit;
  private final long commitDelayNanos;
  private final int commitSiblings;
  private final Periodic walWriter;
  private long sleeping = -1; // the leader's commit_delay timer
  private boolean pooled; // configuration: the session pool holds WALWriteLock (host costs), not this policy

  public PostgresCommit(boolean synchronousCommit, long commitDelayNanos, int commitSiblings, long walWriterDelayNanos) {
    this.synchronousCommit = synchronousCommit;
    this.commitDelayNanos = commitDelayNanos;
    this.commitSiblings = commitSiblings;
    this.walWriter = new Periodic(walWriterDelayNanos, WAL_WRITER);
  }

  /** the WALWriteLock holder, a backend, flushes (xlog.c XLogFlush). */
  @Override
  public Flusher flusher() {
    return Flusher.SESSION;
  }

  /** WALWriteLock, with commit_delay and commit_siblings. */
  @Override
  public FlushLock flushLock() {
    return new FlushLock(commitDelayNanos, commitSiblings);
  }

  /**
   * The session pool holds WALWriteLock (a run with host costs): the pool's lock holder sends FLUSH, so this policy
   * only keeps the WAL writer, which flushes commits that do not wait.
   */
  @Override
  public void lockInSessions() {
    pooled = true;
  }

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public String settings() {
    return "postgresql synchronousCommit=" + synchronousCommit + " commitDelayNanos=" + commitDelayNanos
        + " commitSiblings=" + commitSiblings + " walWriterDelayNanos=" + walWriter.intervalNanos();
  }

  @Override
  public boolean waits(int sessionMode) {
    return synchronousCommit ? sessionMode != SessionMode.LAZY : sessionMode == SessionMode.DURABLE;
  }

  @Override
  public void start(FlushControl log) {
    walWriter.start(log);
  }

  @Override
  public void onCommit(FlushControl log, boolean waits) {
    if (pooled) return;
    if (waits && sleeping < 0 && !log.flushing()) lead(log);
  }

  @Override
  public void onHardened(FlushControl log) {
    if (pooled) return;
    if (sleeping < 0 && !log.flushing() && log.waitingCommits() > 0) lead(log);
  }

  /** A committer takes WALWriteLock: it sleeps commit_delay if enough siblings are open, else flushes now. */
  private void lead(FlushControl log) {
    if (commitDelayNanos > 0 && log.activeTransactions() - 1 >= commitSiblings) {
      sleeping = log.schedule(log.now() + commitDelayNanos, SLEEP);
    } else {
      log.flushTo(log.appendLsn());
    }
  }

  @Override
  public void onTimer(FlushControl log, long code) {
    if (walWriter.owns(code)) {
      // with the lock in the sessions the WAL writer leaves commits that wait to them (it writes only complete pages
      // then, XLogBackgroundFlush, which a flush of everything inserted leaves few of: assumption, none)
      walWriter.fire(log, sleeping >= 0 || pooled && log.lazyCommits() == 0);
      return;
    }
    sleeping = -1;
    log.flushTo(log.appendLsn());
  }

  @Override
  public Object snapshot() {
    return new State(sleeping, walWriter.timer);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    sleeping = s.sleeping();
    walWriter.timer = s.walWriter();
  }

  public record State(long sleeping, long walWriter) implements CborSerializable {}
}
