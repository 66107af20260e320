package io.tlogsim.kernel;

/**
 * When to take a checkpoint. Asked by the clock before each window; a checkpoint does not change results, so a
 * policy may depend on wall time (e.g. every few seconds, to bound what a crash of the host costs).
 */
@FunctionalInterface
public interface CheckpointPolicy {
  boolean checkpointNow(long window, long simulatedNanos);

  /** None (for a run that wants only its checkpoint at the stop, RunSettings.stoppingAt). */
  CheckpointPolicy NEVER = (window, t) -> false;

  static CheckpointPolicy everyWindows(long k) {
    if (k <= 0) throw new IllegalArgumentException("checkpoint every k windows needs k > 0, got " + k);
    return (window, t) -> window % k == 0;
  }

  /**
   * At the first window at or after each multiple of {@code markNanos} of simulated time (the window that reaches it:
   * its earliest event is at or past the mark). A reader that wants the state at a simulated instant then restores the
   * last such checkpoint and re-simulates at most about a mark's worth, whatever the wall speed of the run was.
   */
  static CheckpointPolicy everySimulatedNanos(long markNanos) {
    return everySimulatedNanos(markNanos, 0);
  }

  /**
   * As {@link #everySimulatedNanos(long)} for a run that goes on from a checkpoint at {@code startNanos} (a resumed run,
   * a branch): the marks after it, so that it checkpoints where the uninterrupted run does, even when its first window
   * is already past the next mark.
   */
  static CheckpointPolicy everySimulatedNanos(long markNanos, long startNanos) {
    if (markNanos <= 0) throw new IllegalArgumentException("checkpoint every mark needs a mark > 0, got " + markNanos);
    long[] next = {startNanos <= 0 ? markNanos : (startNanos / markNanos + 1) * markNanos};
    return (window, t) -> {
      if (t < next[0]) return false;
      next[0] = (t / markNanos + 1) * markNanos;
      return true;
    };
  }

  /** When this policy or {@code other} says so (both are asked every window: a stateful one keeps count). */
  default CheckpointPolicy or(CheckpointPolicy other) {
    return (window, t) -> checkpointNow(window, t) | other.checkpointNow(window, t);
  }

  /** At the first window after each {@code wallNanos} of wall-clock time. */
  static CheckpointPolicy everyWallNanos(long wallNanos) {
    long[] next = {System.nanoTime() + wallNanos};
    return (window, t) -> {
      long now = System.nanoTime();
      if (now < next[0]) return false;
      next[0] = now + wallNanos;
      return true;
    };
  }
}
