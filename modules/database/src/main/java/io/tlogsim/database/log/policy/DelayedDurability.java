package io.tlogsim.database.log.policy;

import java.util.List;

/**
 * SQL Server delayed durability (REFERENCE.md 2): DISABLED, ALLOWED or FORCED per database. A delayed commit returns
 * before its log is hardened; the buffer is written when its 60 KB block is full (the log manager does that
 * regardless), on a fully durable commit in the same database (its flush carries everything before it), or on
 * sys.sp_flush_log. Under ALLOWED a transaction asks for it with COMMIT WITH (DELAYED_DURABILITY = ON) (session mode
 * lazy); DISABLED ignores the request, FORCED makes every commit delayed.
 */
public final class DelayedDurability implements FlushPolicy {
  public enum Setting { DISABLED, ALLOWED, FORCED }

  public static final List<String> SETTINGS = List.of("DISABLED", "ALLOWED", "FORCED");

  private final Setting setting;

  public DelayedDurability(Setting setting) {
    this.setting = setting;
  }

  @Override
  public String name() {
    return "delayed-durability";
  }

  @Override
  public String settings() {
    return "delayed-durability " + setting;
  }

  @Override
  public boolean waits(int sessionMode) {
    return switch (setting) {
      case DISABLED -> true;
      case ALLOWED -> sessionMode != SessionMode.LAZY;
      case FORCED -> false;
    };
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
