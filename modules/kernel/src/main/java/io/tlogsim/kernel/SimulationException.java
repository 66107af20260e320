package io.tlogsim.kernel;

/** A run cannot go on: a model broke the kernel's contract (a lookahead, a promise) or failed. */
public final class SimulationException extends RuntimeException {
  private final boolean outOfMemory;

  public SimulationException(String message) {
    this(message, false);
  }

  public SimulationException(String message, boolean outOfMemory) {
    super(message);
    this.outOfMemory = outOfMemory;
  }

  /** True when the run failed because the JVM ran out of heap (the user can give it more). */
  public boolean outOfMemory() {
    return outOfMemory;
  }
}
