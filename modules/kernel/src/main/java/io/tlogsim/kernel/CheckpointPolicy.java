package io.tlogsim.kernel;

/**
 * When to take a checkpoint. Asked by the clock before each window; a checkpoint does not change results, so a
 * policy may depend on wall time (e.g. every few seconds, to bound what a crash of the host costs).
 */
@FunctionalInterface
public interface CheckpointPolicy {
  boolean checkpointNow(long window, long simulatedNanos);

  static CheckpointPolicy everyWindows(long k) {
    if (k <= 0) throw new IllegalArgumentException("checkpoint every k windows needs k > 0, got " + k);
    return (window, t) -> window % k == 0;
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
