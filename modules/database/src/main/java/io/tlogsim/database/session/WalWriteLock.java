package io.tlogsim.database.session;

import io.tlogsim.database.log.LogProtocol;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * PostgreSQL's WALWriteLock held by the session pool, for a run that charges host costs (docs/commit-path-host-costs.md
 * 2 and 4.4; PostgreSQL's xlog.c XLogFlush, lwlock.c LWLockAcquireOrWait, LWLockQueueSelf, LWLockWakeup; procarray.c
 * MinimumActiveBackends). A committing session, once its commit's CPU is done, loops:
 *
 * <ol>
 *   <li>its commit is flushed (its ACK came): done;
 *   <li>the lock is free: it takes it; if commit_delay &gt; 0 and at least commit_siblings other sessions are in a
 *       transaction, it sleeps commit_delay (pg_usleep); then it asks the log manager to write and flush everything
 *       inserted so far (FLUSH) and waits for it (FLUSHED); its core pays the write and fdatasync system calls within
 *       the flush ({@link HostCpu#runWithin}); once it has a core again it releases the lock and wakes every sleeper,
 *       newest first (LW_WAIT_UNTIL_FREE waiters are pushed at the head of the queue), one wake call after another on
 *       its core ({@link WaitCharger#wake});
 *   <li>the lock is held: it sleeps until the lock's release wakes it, resumes ({@link WaitCharger#resume}) and loops.
 *       A woken session whose commit the finished flush did not hold finds the lock free (it becomes the next holder)
 *       or taken by another woken one, and sleeps again: a <i>second sleep</i>, counted.
 * </ol>
 *
 * <p>Sessions "in a transaction" for commit_siblings are those with a statement of an open transaction and those
 * committing until their commit is done (a backend keeps its xid until after XLogFlush); sessions thinking between
 * transactions are not counted (MinimumActiveBackends counts backends with an xid, other than itself).
 *
 * <p>Times are the pool's: a session's timers come back as {@link SessionPool#WAL_LOCK} events ({@link #timer}).
 */
final class WalWriteLock {
  /** What a {@link SessionPool#WAL_LOCK} timer means (its b, low 4 bits; a core above for {@link #RELEASE}). */
  static final int ENTER = 1; // the commit's CPU is done: XLogFlush
  static final int RECHECK = 2; // a woken session has resumed: it looks again
  static final int RELEASE = 3; // the holder has a core again after its flush: it releases and wakes the sleepers
  static final int DELAY_OVER = 4; // the holder's commit_delay is over: it flushes

  /** The pool's side: a session's commit is done at {@code at} (it goes on with its script). */
  interface Done {
    void done(Context ctx, int session, long at);
  }

  private final HostCosts costs;
  private final WaitCharger charger;
  private final long commitDelayNanos;
  private final int commitSiblings;
  private final int logLink;
  private final long hopNanos;
  private final int firstSession;
  private final IntPredicate inStatement; // the pool's: session j has an open transaction's statement under way
  private final Done done;
  // state
  private int holder = -1;
  private boolean flushSent; // the holder's FLUSH is on its way or under way
  private long flushFrom; // when the holder sent it (its system calls' CPU ran within the flush from then)
  private int[] sleepers = new int[8]; // the lock's queue, the newest last (woken first)
  private int sleeping;
  private boolean[] acked; // by session: its commit's ACK came (flushed)
  private boolean[] committing; // by session: in its commit, until it is done
  private int[] sleeps; // by session: how often its current commit slept on the lock

  WalWriteLock(int sessions, HostCosts costs, WaitCharger charger, long commitDelayNanos, int commitSiblings,
      int logLink, long hopNanos, int firstSession, IntPredicate inStatement, Done done) {
    this.costs = costs;
    this.charger = charger;
    this.commitDelayNanos = commitDelayNanos;
    this.commitSiblings = commitSiblings;
    this.logLink = logLink;
    this.hopNanos = hopNanos;
    this.firstSession = firstSession;
    this.inStatement = inStatement;
    this.done = done;
    acked = new boolean[sessions];
    committing = new boolean[sessions];
    sleeps = new int[sessions];
  }

  /** Session i commits and waits: its commit's CPU ends at {@code end}, then it enters XLogFlush. */
  void commit(Context ctx, int i, long end) {
    committing[i] = true;
    ctx.schedule(end, SessionPool.WAL_LOCK, i, ENTER);
  }

  /** Session i's commit is hardened (its ACK): it finds that when it next looks. */
  void acked(int i) {
    acked[i] = true;
  }

  /** True when session i holds the lock and waits for its FLUSH to be answered. */
  boolean flushing(int i) {
    return holder == i && flushSent;
  }

  /** The session holding the lock (-1: free). */
  int holder() {
    return holder;
  }

  /** Sessions asleep on the lock. */
  int sleeping() {
    return sleeping;
  }

  /** Session i's {@link SessionPool#WAL_LOCK} timer fired. */
  void timer(Context ctx, HostCpu cpu, int i, long now, long code) {
    switch ((int) (code & 0xF)) {
      case ENTER, RECHECK -> look(ctx, cpu, i, now);
      case RELEASE -> release(ctx, cpu, i, now, (int) (code >>> 4));
      case DELAY_OVER -> delayOver(ctx, cpu, i, now);
      default -> throw new IllegalStateException("WALWriteLock: timer code " + code);
    }
  }

  /** Session i was woken ({@link SessionPool#WOKEN}): it resumes on a core, then looks again. */
  void woken(Context ctx, HostCpu cpu, int i, long now, long code) {
    long at = charger.resume(cpu, i, now, code);
    if (at > now) ctx.schedule(at, SessionPool.WAL_LOCK, i, RECHECK);
    else look(ctx, cpu, i, now);
  }

  /** XLogFlush's loop, once: flushed (done), the lock free (take it) or held (sleep on it). */
  private void look(Context ctx, HostCpu cpu, int i, long now) {
    if (acked[i]) {
      acked[i] = false;
      committing[i] = false;
      sleeps[i] = 0;
      done.done(ctx, i, now);
    } else if (holder < 0) {
      acquire(ctx, i, now);
    } else {
      if (sleeping == sleepers.length) sleepers = Arrays.copyOf(sleepers, 2 * sleeping);
      sleepers[sleeping++] = i;
      if (sleeps[i]++ > 0) charger.count(WaitCharger.SECOND_SLEEPS, 1);
    }
  }

  private void acquire(Context ctx, int i, long now) {
    holder = i;
    if (commitDelayNanos > 0 && activeOthers(i) >= commitSiblings) {
      charger.count(WaitCharger.COMMIT_DELAYS, 1);
      ctx.schedule(now + commitDelayNanos, SessionPool.WAL_LOCK, i, DELAY_OVER);
    } else {
      sendFlush(ctx, i, now);
    }
  }

  /**
   * Other sessions in a transaction, counted up to commit_siblings (MinimumActiveBackends stops there too): a
   * statement under way or a commit not yet done.
   */
  int activeOthers(int i) {
    int n = 0;
    for (int j = 0; j < committing.length && n < commitSiblings; j++) {
      if (j != i && (committing[j] || inStatement.test(j))) n++;
    }
    return n;
  }

  /**
   * The holder's pg_usleep(commit_delay) ends: the timer wakes it where it ran if that core is idle (after the idle
   * core's wake-up delay), else on the first free core; its resume costs a sleep's CPU (assumption: as a wake across
   * cores, the figure calibrate-host measures for a sleeper); then it flushes.
   */
  private void delayOver(Context ctx, HostCpu cpu, int i, long now) {
    int c = charger.lastCore(i);
    long at = now;
    if (c >= 0 && cpu.freeAt(c) <= now) {
      at = now + costs.idleWakeNanos();
    } else {
      c = cpu.firstFree();
    }
    long end = c < 0 ? cpu.run(at, costs.sleepNanos()) : cpu.runOn(c, at, costs.sleepNanos());
    charger.ranOn(i, c);
    charger.count(WaitCharger.SLEEPS, 1);
    charger.count(WaitCharger.SLEEP_NS, costs.sleepNanos());
    sendFlush(ctx, i, end);
  }

  private void sendFlush(Context ctx, int i, long now) {
    flushSent = true;
    flushFrom = now;
    ctx.send(logLink, now + hopNanos, LogProtocol.FLUSH, firstSession + i, 0);
  }

  /**
   * The holder's FLUSH is answered ({@code b}: the pages it wrote, {@link LogProtocol#ackPages}; 0 when nothing was
   * left to write). Its write and fdatasync ran on its core within the flush; it releases the lock once it has a core:
   * where it ran if that is free by now, else the core free first.
   */
  void flushed(Context ctx, HostCpu cpu, int i, long now, long b) {
    flushSent = false;
    long pages = b == 0 ? 0 : LogProtocol.ackPages(b);
    int k = charger.lastCore(i) >= 0 ? charger.lastCore(i) : cpu.firstFree();
    if (pages > 0) {
      long flush = costs.flushCpuNanos(pages);
      cpu.runWithin(k, flushFrom, flush);
      charger.count(WaitCharger.FLUSHES, 1);
      charger.count(WaitCharger.FLUSH_NS, flush);
    }
    if (cpu.freeAt(k) > now && cpu.freeAt(cpu.firstFree()) < cpu.freeAt(k)) k = cpu.firstFree();
    long at = Math.max(now, cpu.freeAt(k));
    if (at > now) ctx.schedule(at, SessionPool.WAL_LOCK, i, RELEASE | (long) k << 4);
    else release(ctx, cpu, i, now, k);
  }

  /**
   * LWLockRelease: the lock is free; the holder wakes every sleeper, newest first, on core {@code k}; its own commit is
   * done when its last wake call is.
   */
  private void release(Context ctx, HostCpu cpu, int i, long now, int k) {
    holder = -1;
    charger.ranOn(i, k);
    charger.newChain();
    long end = now;
    int n = sleeping;
    sleeping = 0;
    for (int s = n - 1; s >= 0; s--) end = charger.wake(ctx, cpu, sleepers[s], k, end);
    if (end > now) ctx.schedule(end, SessionPool.WOKEN, i, WaitCharger.SELF | (k + 1L) << 4);
    else look(ctx, cpu, i, now);
  }

  State snapshot() {
    return new State(holder, flushSent, flushFrom, Arrays.copyOf(sleepers, sleeping), acked.clone(),
        committing.clone(), sleeps.clone());
  }

  void restore(State s) {
    holder = s.holder();
    flushSent = s.flushSent();
    flushFrom = s.flushFrom();
    sleepers = Arrays.copyOf(s.sleepers(), Math.max(8, s.sleepers().length));
    sleeping = s.sleepers().length;
    acked = s.acked().clone();
    committing = s.committing().clone();
    sleeps = s.sleeps().clone();
  }

  record State(int holder, boolean flushSent, long flushFrom, int[] sleepers, boolean[] acked, boolean[] committing,
      int[] sleeps) implements CborSerializable {}
}
