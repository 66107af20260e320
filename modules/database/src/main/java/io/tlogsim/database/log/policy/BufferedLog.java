package io.tlogsim.database.log.policy;


/**
 * Informix buffered logging (REFERENCE.md 2, CREATE DATABASE ... WITH BUFFERED LOG): a commit returns without a
 * flush; the log buffer is written when it is full (the log manager writes full blocks regardless), at a checkpoint,
 * at connection close, and when a session that asked for SET LOG commits (its flush carries everything before it).
 */
public final class BufferedLog implements FlushPolicy {
  /** Informix buffered logging: the session whose record fills the buffer writes (assumption, 4.5). */
  @Override
  public Flusher flusher() {
    return Flusher.SESSION;
  }

  @Override
  public String name() {
    return "buffered";
  }

  @Override
  public boolean waits(int sessionMode) {
    return sessionMode == SessionMode.DURABLE;
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
