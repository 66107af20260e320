package io.tlogsim.database.log.policy;

/**
 * A background flusher that wakes every {@code intervalNanos} and flushes what is logged and not hardened
 * (PostgreSQL's WAL writer, MySQL's once-per-second flush). It sleeps for good once no session is connected and
 * everything is hardened, so that an idle database adds no events.
 */
final class Periodic {
  private final long intervalNanos;
  private final long code;
  long timer = -1;

  Periodic(long intervalNanos, long code) {
    this.intervalNanos = intervalNanos;
    this.code = code;
  }

  /**
   * Arms the timer at the next multiple of the interval after now: at time 0 one interval on; at a branch's switch to
   * this policy (FlushPolicy#start) where a run that had it from the start has its timer while sessions are open.
   */
  void start(FlushControl log) {
    if (intervalNanos > 0) timer = log.schedule((log.now() / intervalNanos + 1) * intervalNanos, code);
  }

  long intervalNanos() {
    return intervalNanos;
  }

  /**
   * The timer fired: flush if there is something to flush and no flush is under way (nor the flush lock held, e.g. by
   * a sleeping leader); arm again while needed.
   */
  void fire(FlushControl log, boolean lockHeld) {
    timer = -1;
    if (!lockHeld && log.appendLsn() > log.hardenedLsn() && !log.flushing()) log.flushTo(log.appendLsn());
    if (log.sessionsOpen() || log.appendLsn() > log.hardenedLsn()) {
      timer = log.schedule(log.now() + intervalNanos, code);
    }
  }

  boolean owns(long c) {
    return c == code;
  }
}
