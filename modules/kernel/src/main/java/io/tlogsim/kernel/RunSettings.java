package io.tlogsim.kernel;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * How to run a topology: until when, with which seed, on how many threads, and the checkpoint cadence.
 *
 * @param endTime last simulated instant (ns) whose events are handled
 * @param checkpointEveryWindows take a checkpoint every this many windows (0: never)
 * @param onCheckpoint receives each checkpoint (on the clock's thread: keep it short)
 * @param restoreFrom null for a fresh run, or the checkpoint to resume from
 * @param progress set to the simulated time reached, for progress bars (may be null)
 */
public record RunSettings(long endTime, long seed, int threads, long checkpointEveryWindows,
    Consumer<Checkpoint> onCheckpoint, Checkpoint restoreFrom, AtomicLong progress) {

  public RunSettings {
    if (endTime < 0) throw new IllegalArgumentException("endTime must be >= 0, got " + endTime);
    if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    if (checkpointEveryWindows < 0) throw new IllegalArgumentException("checkpointEveryWindows must be >= 0");
  }

  public static RunSettings of(long endTime, long seed, int threads) {
    return new RunSettings(endTime, seed, threads, 0, null, null, null);
  }

  public RunSettings withCheckpoints(long everyWindows, Consumer<Checkpoint> sink) {
    return new RunSettings(endTime, seed, threads, everyWindows, sink, restoreFrom, progress);
  }

  public RunSettings resumingFrom(Checkpoint checkpoint) {
    return new RunSettings(endTime, seed, threads, checkpointEveryWindows, onCheckpoint, checkpoint, progress);
  }

  public RunSettings withProgress(AtomicLong p) {
    return new RunSettings(endTime, seed, threads, checkpointEveryWindows, onCheckpoint, restoreFrom, p);
  }
}
