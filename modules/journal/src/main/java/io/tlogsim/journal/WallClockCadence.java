package io.tlogsim.journal;

import java.time.Duration;

/**
 * When to take a checkpoint: once every so much wall-clock time (tlogsim.journal.checkpoint-every). Where
 * checkpoints fall does not change a run's results (DESIGN.md principle 2); it only bounds the work a killed run
 * loses and what checkpoints cost. Asked by the clock once per window, on its thread.
 */
public final class WallClockCadence {
  private final long everyNanos;
  private long next;

  public WallClockCadence(Duration every) {
    this.everyNanos = every.toNanos();
    this.next = System.nanoTime() + everyNanos;
  }

  public boolean checkpointNow(long window, long simulatedNanos) {
    long now = System.nanoTime();
    if (now - next < 0) return false;
    next = now + everyNanos;
    return true;
  }
}
