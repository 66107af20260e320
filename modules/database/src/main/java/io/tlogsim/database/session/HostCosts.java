package io.tlogsim.database.session;

/**
 * What waiting for a flush costs on the host (docs/commit-path-host-costs.md, sections 3 and 4): the CPU of a wake
 * call on the waker's core and of the sleep and resume on the sleeper's, across cores and on one; the delay before a
 * session woken onto an idle core runs; and the flusher's system calls. Every figure is 0 unless a scenario measures
 * its host (tlogsim calibrate-host): then the session pool charges them ({@link WaitCharger}). Times in ns.
 *
 * @param wakeNanos CPU of waking a session that will run on another core, on the waker's core
 * @param sleepNanos CPU one wait costs a session woken from another core (its sleep and resume), on its core
 * @param sameCoreWakeNanos the same wake when the session will run on the waker's core
 * @param sameCoreSleepNanos the same wait when it runs on the waker's core
 * @param idleWakeNanos delay (no CPU) before a session woken onto an idle core runs
 * @param writePageNanos CPU of writing 8 kB of log (the write system call), on the flusher's core, per 8 kB
 * @param flushNanos CPU of one flush system call (fdatasync), on the flusher's core
 * @param busyCoreWakeNanos CPU of waking a session that will be queued on another core, busy then, on the waker's
 *     core (0: as {@code wakeNanos})
 * @param busyCoreSleepNanos CPU one wait costs a session woken from another core onto a busy one (0: as
 *     {@code sleepNanos})
 */
public record HostCosts(long wakeNanos, long sleepNanos, long sameCoreWakeNanos, long sameCoreSleepNanos,
    long idleWakeNanos, long writePageNanos, long flushNanos, long busyCoreWakeNanos, long busyCoreSleepNanos) {
  /** No host costs: the pool charges nothing and schedules nothing more (every run before host costs existed). */
  public static final HostCosts NONE = new HostCosts(0, 0, 0, 0, 0, 0, 0);

  public HostCosts {
    if (wakeNanos < 0 || sleepNanos < 0 || sameCoreWakeNanos < 0 || sameCoreSleepNanos < 0 || idleWakeNanos < 0
        || writePageNanos < 0 || flushNanos < 0 || busyCoreWakeNanos < 0 || busyCoreSleepNanos < 0) {
      throw new IllegalArgumentException("host costs must be >= 0");
    }
  }

  /** Host costs whose wakes onto a busy core cost what wakes across cores do. */
  public HostCosts(long wakeNanos, long sleepNanos, long sameCoreWakeNanos, long sameCoreSleepNanos,
      long idleWakeNanos, long writePageNanos, long flushNanos) {
    this(wakeNanos, sleepNanos, sameCoreWakeNanos, sameCoreSleepNanos, idleWakeNanos, writePageNanos, flushNanos, 0,
        0);
  }

  /** True when a wake onto a busy core has figures of its own (else it costs what a wake across cores does). */
  public boolean hasBusyCoreFigures() {
    return busyCoreWakeNanos > 0 || busyCoreSleepNanos > 0;
  }

  /** The waker's CPU for a wake that queues the sleeper on another, busy core. */
  public long busyWake() {
    return busyCoreWakeNanos > 0 ? busyCoreWakeNanos : wakeNanos;
  }

  /** The sleeper's CPU for a wait ended by a wake from another core that queued it on a busy one. */
  public long busySleep() {
    return busyCoreSleepNanos > 0 ? busyCoreSleepNanos : sleepNanos;
  }

  public boolean isNone() {
    return equals(NONE);
  }

  /** The flusher's CPU for one flush of {@code pages} 8 kB pages (at least one). */
  public long flushCpuNanos(long pages) {
    return writePageNanos * Math.max(1, pages) + flushNanos;
  }
}
