package io.tlogsim.database.log.policy;

import io.tlogsim.kernel.VirtualTime;

/**
 * DB2's MINCOMMIT (REFERENCE.md 2): "a commit waits up to 1 s or until MINCOMMIT commits are pending". Group
 * commit with a one-second delay and a count of MINCOMMIT (1 flushes every commit at once).
 */
public final class Db2MinCommit implements FlushPolicy {
  private final GroupCommit group;

  public Db2MinCommit(int mincommit) {
    if (mincommit < 1 || mincommit > 25) throw new IllegalArgumentException("MINCOMMIT must be 1 to 25");
    this.group = new GroupCommit("db2", mincommit == 1 ? 0 : VirtualTime.NS_PER_S, mincommit);
  }

  @Override
  public String name() {
    return "db2";
  }

  @Override
  public String settings() {
    return group.settings();
  }

  @Override
  public boolean waits(int sessionMode) {
    return true;
  }

  @Override
  public void onCommit(FlushControl log, boolean waits) {
    group.onCommit(log, true);
  }

  @Override
  public void onTimer(FlushControl log, long code) {
    group.onTimer(log, code);
  }

  @Override
  public Object snapshot() {
    return group.snapshot();
  }

  @Override
  public void restore(Object snapshot) {
    group.restore(snapshot);
  }
}
