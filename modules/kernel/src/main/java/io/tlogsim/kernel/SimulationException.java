package io.tlogsim.kernel;

/** A run cannot go on: a model broke the kernel's contract (a lookahead, a promise) or failed. */
public final class SimulationException extends RuntimeException {
  public SimulationException(String message) {
    super(message);
  }
}
