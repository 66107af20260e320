package io.tlogsim.database.log.policy;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.VirtualTime;

/**
 * MySQL/InnoDB (REFERENCE.md 2): innodb_flush_log_at_trx_commit = 1 flushes at every commit, grouped as
 * binlog_group_commit_sync_delay (wait up to this long) and binlog_group_commit_sync_no_delay_count (or until this
 * many commits wait) say; 2 writes at every commit and flushes once a second; 0 writes and flushes once a second.
 * With 0 and 2 a commit returns before its log is hardened (with 2 the log is in the operating system's cache, which
 * survives a crash of the server but not of the machine; this model does not tell the two apart yet). The setting is
 * global: sessions cannot change it.
 */
public final class MysqlCommit implements FlushPolicy {
  private static final long SECOND = 3;

  private final int flushLogAtTrxCommit;
  private final GroupCommit group;
  private final Periodic everySecond;

  public MysqlCommit(int flushLogAtTrxCommit, long binlogSyncDelayNanos, int binlogNoDelayCount) {
    if (flushLogAtTrxCommit < 0 || flushLogAtTrxCommit > 2) {
      throw new IllegalArgumentException("innodb_flush_log_at_trx_commit must be 0, 1 or 2");
    }
    this.flushLogAtTrxCommit = flushLogAtTrxCommit;
    this.group = new GroupCommit("mysql", binlogSyncDelayNanos, binlogNoDelayCount);
    this.everySecond = new Periodic(VirtualTime.NS_PER_S, SECOND);
  }

  @Override
  public String name() {
    return "mysql";
  }

  @Override
  public String settings() {
    return "mysql flushLogAtTrxCommit=" + flushLogAtTrxCommit + " " + group.settings();
  }

  @Override
  public boolean waits(int sessionMode) {
    return flushLogAtTrxCommit == 1;
  }

  @Override
  public void start(FlushControl log) {
    if (flushLogAtTrxCommit != 1) everySecond.start(log);
  }

  @Override
  public void onCommit(FlushControl log, boolean waits) {
    if (waits) group.onCommit(log, true);
  }

  @Override
  public void onTimer(FlushControl log, long code) {
    if (everySecond.owns(code)) everySecond.fire(log, false);
    else group.onTimer(log, code);
  }

  @Override
  public Object snapshot() {
    return new State((GroupCommit.State) group.snapshot(), everySecond.timer);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    group.restore(s.group());
    everySecond.timer = s.everySecond();
  }

  public record State(GroupCommit.State group, long everySecond) implements CborSerializable {}
}
