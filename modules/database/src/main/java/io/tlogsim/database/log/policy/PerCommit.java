package io.tlogsim.database.log.policy;


/**
 * Every commit flushes the log and waits for it (REFERENCE.md 2: Informix unbuffered logging, "flushes the
 * logical-log buffer on every COMMIT"; a fully durable SQL Server commit). A session that asked for lazy commits
 * (Informix SET BUFFERED LOG) gets them.
 */
public final class PerCommit implements FlushPolicy {
  /** Informix unbuffered logging: the committing session writes (assumption, docs/commit-path-host-costs.md 4.5). */
  @Override
  public Flusher flusher() {
    return Flusher.SESSION;
  }

  @Override
  public String name() {
    return "per-commit";
  }

  @Override
  public boolean waits(int sessionMode) {
    return sessionMode != SessionMode.LAZY;
  }

  @Override
  public void onCommit(FlushControl log, boolean waits) {
    if (waits) log.flushTo(log.appendLsn());
  }

  @Override
  public Object snapshot() {
    return new Stateless();
  }

  @Override
  public void restore(Object snapshot) {}
}
