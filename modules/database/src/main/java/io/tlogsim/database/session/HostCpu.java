package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;
import java.util.Arrays;

/**
 * The host's CPU: C cores shared by the sessions of one pool, first come first served, no preemption. A session asks
 * for a core at the moment it is ready to run (never ahead of time, so the queue order is the order of readiness; the
 * one exception: a sleeper woken onto an idle core is booked there at its wake, WaitCharger) and learns when its work
 * ends; the time it waited for a core is the CPU wait (SQL Server's signal wait). Zero cores:
 * as many as needed, never a wait.
 */
public final class HostCpu {
  private final int cores;
  private long[] freeAt; // by core: when it is free
  private int lastCore = -1; // not state: read at once after a run
  private long waits;
  private long waitNanos;
  private long maxWaitNanos;
  private long busyNanos;

  public HostCpu(int cores) {
    if (cores < 0) throw new IllegalArgumentException("cores must be >= 0");
    this.cores = cores;
    this.freeAt = new long[cores];
  }

  public int cores() {
    return cores;
  }

  /**
   * Runs {@code costNanos} of work from {@code now} on the first free core (the lowest index among cores free at once);
   * returns when it ends. {@link #lastCore()} tells which core it got.
   */
  public long run(long now, long costNanos) {
    if (costNanos <= 0) {
      lastCore = -1;
      return now;
    }
    if (cores == 0) {
      busyNanos += costNanos;
      lastCore = -1;
      return now + costNanos;
    }
    return runOn(firstFree(), now, costNanos);
  }

  /** Runs {@code costNanos} of work from {@code now} on core {@code core} (a thread that keeps its core). */
  public long runOn(int core, long now, long costNanos) {
    lastCore = core;
    if (costNanos <= 0) return Math.max(now, freeAt[core]);
    busyNanos += costNanos;
    long start = Math.max(now, freeAt[core]);
    long end = start + costNanos;
    freeAt[core] = end;
    long waited = start - now;
    if (waited > 0) {
      waits++;
      waitNanos += waited;
      if (waited > maxWaitNanos) maxWaitNanos = waited;
    }
    return end;
  }

  /**
   * Work that ran while its thread was in a system call that ends at the call's return (the flusher's write and
   * fdatasync, within the flush): {@code costNanos} on core {@code core} from {@code from} (in the past) or from when
   * the core's booked work ends, whichever is later. Time the core had free before now absorbs it; a busy core is
   * pushed later by it. Not a wait for a core (the thread held one). Returns when it ends.
   */
  public long runWithin(int core, long from, long costNanos) {
    lastCore = core;
    if (costNanos <= 0) return Math.max(from, freeAt[core]);
    busyNanos += costNanos;
    long end = Math.max(from, freeAt[core]) + costNanos;
    freeAt[core] = end;
    return end;
  }

  /**
   * Core {@code core} is taken until {@code until} without running anything (a thread woken onto it is on its way: the
   * core is not idle to anyone else from the wake on); no CPU is counted, but work that waits for the core counts a
   * wait.
   */
  public void reserve(int core, long until) {
    if (until > freeAt[core]) freeAt[core] = until;
  }

  /** When core {@code core} is free (its booked work ends). */
  public long freeAt(int core) {
    return freeAt[core];
  }

  /** The core free first (the lowest index among cores free at once); -1 with no cores. */
  public int firstFree() {
    int best = cores == 0 ? -1 : 0;
    for (int k = 1; k < cores; k++) if (freeAt[k] < freeAt[best]) best = k;
    return best;
  }

  /**
   * A core other than {@code k} that is idle at {@code t} and not in {@code claimed} (bit c: core c is taken), the
   * lowest index; -1 if none (cores beyond 63 are never offered: a chain claims at most 64).
   */
  public int idleOtherThan(int k, long t, long claimed) {
    for (int c = 0; c < Math.min(cores, 64); c++) {
      if (idle(c, k, t, claimed)) return c;
    }
    return -1;
  }

  /** As {@link #idleOtherThan(int, long, long)}, but core {@code preferred} first when it qualifies. */
  public int idleOtherThan(int k, long t, long claimed, int preferred) {
    return preferred >= 0 && preferred < Math.min(cores, 64) && idle(preferred, k, t, claimed) ? preferred
        : idleOtherThan(k, t, claimed);
  }

  private boolean idle(int c, int k, long t, long claimed) {
    return c != k && freeAt[c] <= t && (claimed & (1L << c)) == 0;
  }

  /** The core the last {@link #run} or {@link #runOn} used (-1: none, no cost or no cores). */
  public int lastCore() {
    return lastCore;
  }

  public long waits() {
    return waits;
  }

  public long waitNanos() {
    return waitNanos;
  }

  public long maxWaitNanos() {
    return maxWaitNanos;
  }

  public long busyNanos() {
    return busyNanos;
  }

  public State snapshot() {
    return new State(freeAt.clone(), waits, waitNanos, maxWaitNanos, busyNanos);
  }

  public void restore(State s) {
    freeAt = Arrays.copyOf(s.freeAt(), cores);
    waits = s.waits();
    waitNanos = s.waitNanos();
    maxWaitNanos = s.maxWaitNanos();
    busyNanos = s.busyNanos();
  }

  public record State(long[] freeAt, long waits, long waitNanos, long maxWaitNanos, long busyNanos)
      implements CborSerializable {}
}
