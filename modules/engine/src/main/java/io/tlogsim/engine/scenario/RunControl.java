package io.tlogsim.engine.scenario;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How the user asked to run: seed, threads, and where to publish progress (simulated ns reached; may be null).
 */
public record RunControl(long seed, int threads, AtomicLong progress) {
  public RunControl {
    if (threads < 1) throw new BadInputException("--threads: must be an integer from 1 to 1024, got " + threads);
  }
}
