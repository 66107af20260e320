package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;
import java.util.Arrays;

/**
 * The host's CPU: C cores shared by the sessions of one pool, first come first served, no preemption. A session asks
 * for a core at the moment it is ready to run (never ahead of time, so the queue order is the order of readiness) and
 * learns when its work ends; the time it waited for a core is the CPU wait (SQL Server's signal wait). Zero cores:
 * as many as needed, never a wait.
 */
public final class HostCpu {
  private final int cores;
  private long[] freeAt; // min-heap: when each core is free
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

  /** Runs {@code costNanos} of work from {@code now} on the first free core; returns when it ends. */
  public long run(long now, long costNanos) {
    if (costNanos <= 0) return now;
    busyNanos += costNanos;
    if (cores == 0) return now + costNanos;
    long start = Math.max(now, freeAt[0]);
    long end = start + costNanos;
    freeAt[0] = end;
    siftDown();
    long waited = start - now;
    if (waited > 0) {
      waits++;
      waitNanos += waited;
      if (waited > maxWaitNanos) maxWaitNanos = waited;
    }
    return end;
  }

  private void siftDown() {
    int i = 0;
    while (true) {
      int l = 2 * i + 1;
      if (l >= cores) return;
      int m = l + 1 < cores && freeAt[l + 1] < freeAt[l] ? l + 1 : l;
      if (freeAt[m] >= freeAt[i]) return;
      long t = freeAt[i];
      freeAt[i] = freeAt[m];
      freeAt[m] = t;
      i = m;
    }
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
