package io.tlogsim.database.session;

import io.tlogsim.database.log.LogProtocol;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import java.util.Arrays;

/**
 * The CPU of waiting for a flush, charged on the session pool's cores (docs/commit-path-host-costs.md 4.1 to 4.3).
 * The flush's system calls (write, fdatasync) are CPU of its flusher (the first session it acknowledges, or a log
 * writer thread: {@link FlushPolicy.Flusher}) within the flush: they take the flusher's core in the time it had free
 * since the flush could start, or push its later work back. When the flush completes, the flusher wakes the sleepers
 * it hardened one after another, in LSN order, on that core. A sleeper goes where Linux puts a thread woken by a waker of
 * many (4.2; kernel/sched/fair.c: wake_wide() turns wake-affine off for a waker that wakes many different threads,
 * so select_task_rq_fair() starts from the sleeper's previous core and select_idle_sibling() takes it or another idle
 * core): to its last core if that is idle, else to another idle core (a cross-core wake: the idle core's wake-up
 * delay, then the sleep's CPU; the core is taken from the wake on), else it is queued on its last core and runs there
 * when that core's booked work ends, unless another core frees first (the idle balancer pulls it there). The wake and
 * the resume cost the same-core figures only when the wake went to the waker's own core, wherever the sleeper then
 * runs. Its commit is done when it has resumed.
 *
 * <p>Not here: PostgreSQL's WALWriteLock, with the second sleep of a commit that arrived during a flush (4.4), is
 * {@link WalWriteLock}'s, which uses this class's wakes and resumes. The sleep and resume are charged together as one
 * run of the sleeper (11): on an idle core booked at the wake, from when it is due (it runs there first); queued, at
 * the resume.
 */
final class WaitCharger {
  /** How a woken session resumes (a {@link SessionPool#WOKEN} timer's b, low 4 bits; the core above). */
  static final int SELF = 1; // the flusher: its chain ended, it keeps its core
  static final int IDLE = 2; // woken onto an idle core
  static final int QUEUED = 3; // queued on a core: that core above (bits 4-23), the waker's above it (24-)
  static final int QUEUED_BUSY = 4; // the same, on another core that was busy when the wake reached it

  private final HostCosts costs;
  private final FlushPolicy.Flusher flusher;
  private int[] lastCore; // by session: the core it last ran on (-1: none yet)
  private long[] sentAt; // by session: when its last commit record reached the log manager
  // the chain of the completion being acknowledged
  private int chainCore = -1;
  private long chainEnd;
  private long claimed; // cores (bits) taken by the chain's cross-core sleepers
  private int chainFlusher = -1; // the flushing session (SESSION), -1 for a writer thread
  // what was charged: wakes, idle wakes, flushes, wake CPU ns, sleep CPU ns, flush CPU ns, sleeps; and (WALWriteLock
  // in the pool, WalWriteLock) second sleeps, commit_delay sleeps
  static final int COUNTS = 9;
  static final int FLUSHES = 2;
  static final int SLEEP_NS = 4;
  static final int FLUSH_NS = 5;
  static final int SLEEPS = 6;
  static final int SECOND_SLEEPS = 7;
  static final int COMMIT_DELAYS = 8;
  private long[] counts = new long[COUNTS];

  WaitCharger(int sessions, HostCosts costs, FlushPolicy.Flusher flusher) {
    this.costs = costs;
    this.flusher = flusher;
    lastCore = new int[sessions];
    sentAt = new long[sessions];
    Arrays.fill(lastCore, -1);
  }

  /** Session i ran on {@code core} (-1: it ran nothing). */
  void ranOn(int i, int core) {
    if (core >= 0) lastCore[i] = core;
  }

  /** Session i's commit record reaches the log manager at {@code at}. */
  void committed(int i, long at) {
    sentAt[i] = at;
  }

  /** Session i's commit was acknowledged at {@code now} ({@code b}: the ACK's details): schedules its resume. */
  void acknowledged(Context ctx, HostCpu cpu, int i, long now, long b) {
    int place = LogProtocol.ackPlace(b);
    int of = LogProtocol.ackOf(b);
    if (place == 0) { // the completion's first ACK: its flusher's core paid the flush's system calls within it
      long flush = costs.flushCpuNanos(LogProtocol.ackPages(b));
      chainFlusher = flusher == FlushPolicy.Flusher.SESSION ? i : -1;
      int core = chainFlusher >= 0 && lastCore[i] >= 0 ? lastCore[i] : cpu.firstFree();
      // the write began after the first commit it hardens reached the log manager: its CPU ran since then
      cpu.runWithin(core, sentAt[i], flush);
      chainCore = core;
      chainEnd = now;
      claimed = 0;
      counts[2]++;
      counts[5] += flush;
      if (chainFlusher >= 0) { // it issued the flush that hardens its own commit: nobody wakes it
        lastCore[i] = chainCore;
        if (of <= 1) end(ctx);
        return;
      }
    }
    chainEnd = wake(ctx, cpu, i, chainCore, chainEnd);
    if (place == of - 1 && chainFlusher >= 0) end(ctx);
  }

  /**
   * A waker on core {@code k}, whose earlier wake calls end at {@code at}, wakes sleeper i (4.2): to its last core if
   * that is idle then and not taken by an earlier sleeper of the chain ({@link #claimed}), else to another such idle
   * core, else it is queued on its last core (the waker's if it has none). Schedules i's {@link SessionPool#WOKEN};
   * returns when the wake call ends.
   */
  long wake(Context ctx, HostCpu cpu, int i, int k, long at) {
    int last = lastCore[i] >= 0 ? lastCore[i] : k;
    int idle = cpu.cores() > 1 ? cpu.idleOtherThan(k, at, claimed, last) : -1;
    int target = idle >= 0 ? idle : last;
    // a wake onto another core that runs something (or that an earlier sleeper of this chain is about to run on)
    // costs calibrate-host's busy-core figures where they were measured; else the cross-core ones, timer unchanged
    boolean busy = costs.hasBusyCoreFigures() && idle < 0 && target != k
        && (cpu.freeAt(target) > at || (claimed & (1L << target)) != 0);
    long wake = target == k ? costs.sameCoreWakeNanos() : busy ? costs.busyWake() : costs.wakeNanos();
    long end = cpu.runOn(k, at, wake);
    counts[0]++;
    counts[3] += wake;
    if (idle >= 0) {
      claimed |= 1L << idle;
      // the core is not idle to anyone else from the wake on (Linux's idle_cpu() is false for a core with a wake-up
      // pending or a task queued: kernel/sched/core.c), though it runs nothing until the sleeper does; and the
      // sleeper runs there first when it is due: its resume CPU is booked now, ahead of work booked later (the
      // reservation holds the core also when the sleep costs nothing)
      long due = end + costs.idleWakeNanos();
      cpu.reserve(idle, due);
      cpu.runOn(idle, due, costs.sleepNanos());
      counts[1]++;
      ctx.schedule(due, SessionPool.WOKEN, i, IDLE | (idle + 1L) << 4);
    } else {
      ctx.schedule(end, SessionPool.WOKEN, i, (busy ? QUEUED_BUSY : QUEUED) | (target + 1L) << 4 | (k + 1L) << 24);
    }
    return end;
  }

  /** A new chain of wake calls starts (no core taken by its sleepers yet). */
  void newChain() {
    claimed = 0;
  }

  /** The core session i last ran on (-1: none yet). */
  int lastCore(int i) {
    return lastCore[i];
  }

  /** Adds {@code v} to count {@code k} (see {@link #counts()}). */
  void count(int k, long v) {
    counts[k] += v;
  }

  /** The chain's last wake call is done: the flusher's own commit is done, on the core it kept. */
  private void end(Context ctx) {
    ctx.schedule(chainEnd, SessionPool.WOKEN, chainFlusher, SELF | (chainCore + 1L) << 4);
  }

  /** Session i was woken ({@code code}: the timer's b): charges its resume and returns when it can go on. */
  long resume(HostCpu cpu, int i, long now, long code) {
    int how = (int) (code & 0xF);
    int core = (int) ((code >>> 4) & 0xFFFFF) - 1;
    if (how == SELF) {
      lastCore[i] = core;
      return now;
    }
    int c = core;
    long sleep = costs.sleepNanos();
    if (how == QUEUED || how == QUEUED_BUSY) {
      int waker = (int) (code >>> 24) - 1;
      int first = cpu.firstFree();
      // the wake went to the core it was queued on: a wake from another core costs the sleeper the cross-core
      // figure there, the busy-core one (calibrate-host: futexBusyCoreSleepCpu) when that core was busy, also if the
      // core free first then takes it
      if (core == waker) sleep = costs.sameCoreSleepNanos();
      else if (how == QUEUED_BUSY) sleep = costs.busySleep();
      if (cpu.freeAt(c) > now && cpu.freeAt(first) < cpu.freeAt(c)) c = first; // pulled to the core free first
    }
    // woken onto an idle core, its resume CPU was booked at the wake, from when it is due (now): only counted here
    long end = how == IDLE ? now + sleep : cpu.runOn(c, now, sleep);
    counts[4] += sleep;
    counts[6]++;
    lastCore[i] = c;
    return end;
  }

  /**
   * Wakes, idle wakes, flushes, wake CPU ns, sleep CPU ns, flush CPU ns, sleeps (resumes charged), second sleeps (a
   * woken session whose commit was not flushed went back to sleep on WALWriteLock), commit_delay sleeps.
   */
  long[] counts() {
    return counts.clone();
  }

  State snapshot() {
    return new State(lastCore.clone(), sentAt.clone(), chainCore, chainEnd, claimed, chainFlusher, counts.clone());
  }

  void restore(State s) {
    lastCore = s.lastCore().clone();
    sentAt = s.sentAt().clone();
    chainCore = s.chainCore();
    chainEnd = s.chainEnd();
    claimed = s.claimed();
    chainFlusher = s.chainFlusher();
    counts = Arrays.copyOf(s.counts(), COUNTS); // a state saved before sleeps (second sleeps) were counted has 6 (7)
  }

  record State(int[] lastCore, long[] sentAt, int chainCore, long chainEnd, long claimed, int chainFlusher, long[] counts)
      implements CborSerializable {}
}
