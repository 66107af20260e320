package io.tlogsim.database.log.policy;

import io.tlogsim.kernel.CborSerializable;

/**
 * Group commit with acknowledgement after the flush (REFERENCE.md 2, "Group commit"): a commit does not flush at
 * once; the log is flushed when {@code count} commits wait, or {@code delayNanos} after the first of them, or when
 * the block is full (the log manager writes full blocks regardless). Every commit is acknowledged only after the
 * flush that holds it: nothing acknowledged can be lost. Delay 0 flushes at once: with one write in flight, that is
 * GCM-1's log manager (BENCH.md), where a write carries everything that arrived while the previous one was in flight.
 */
public final class GroupCommit implements FlushPolicy {
  private static final long FLUSH = 1;

  private final String name;
  private final long delayNanos;
  private final int count;
  private int pending; // waiting commits since the last flush this policy asked for
  private long timer = -1;

  /**
   * @param delayNanos flush this long after the first waiting commit (0: at once)
   * @param count flush when this many commits wait (0: no count)
   */
  public GroupCommit(long delayNanos, int count) {
    this("group-commit", delayNanos, count);
  }

  GroupCommit(String name, long delayNanos, int count) {
    if (delayNanos < 0 || count < 0) throw new IllegalArgumentException("group commit: delay and count must be >= 0");
    this.name = name;
    this.delayNanos = delayNanos;
    this.count = count == 0 ? Integer.MAX_VALUE : count;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String settings() {
    return name + " delayNanos=" + delayNanos + " count=" + (count == Integer.MAX_VALUE ? 0 : count);
  }

  @Override
  public boolean waits(int sessionMode) {
    return sessionMode != SessionMode.LAZY;
  }

  @Override
  public void onCommit(FlushControl log, boolean waits) {
    if (!waits) return;
    pending++;
    if (delayNanos == 0 || pending >= count) {
      flush(log);
    } else if (timer < 0) {
      timer = log.schedule(log.now() + delayNanos, FLUSH);
    }
  }

  /** Group commit's own flush (also for presets that group commits that do not wait). */
  void flush(FlushControl log) {
    if (timer >= 0) log.cancel(timer);
    timer = -1;
    pending = 0;
    log.flushTo(log.appendLsn());
  }

  /** A commit counted in the group whether or not its session waits (Oracle's batched redo). */
  void join(FlushControl log) {
    pending++;
    if (delayNanos == 0 || pending >= count) {
      flush(log);
    } else if (timer < 0) {
      timer = log.schedule(log.now() + delayNanos, FLUSH);
    }
  }

  @Override
  public void onTimer(FlushControl log, long code) {
    timer = -1;
    flush(log);
  }

  @Override
  public Object snapshot() {
    return new State(pending, timer);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    pending = s.pending();
    timer = s.timer();
  }

  public record State(int pending, long timer) implements CborSerializable {}
}
