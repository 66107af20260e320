package io.tlogsim.kernel;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * How to run a topology. Build with {@link #of} and the {@code with...} methods.
 *
 * @param endTime last simulated instant (ns) whose events are handled
 * @param maxWindowNanos no window reaches further than this past the earliest pending event (bounds the work of a
 *     component without inputs, whose horizon would otherwise be the end of the run)
 * @param checkpoints when to take checkpoints (null: never)
 * @param onCheckpoint receives each checkpoint, on the clock's thread (hand it off quickly)
 * @param restoreFrom null for a fresh run, or the checkpoint to resume from
 * @param onFacts receives the facts of each window that recorded any, in window order, on the clock's thread
 *     (null: models' facts are not kept)
 * @param onRollback told the window a run went back to after a component was lost (the checkpoint's, or 0): facts of
 *     that window and later will come again (may be null)
 * @param progress set to the simulated time reached, for progress displays (may be null)
 * @param transport how batches travel (tests use a delaying, reordering one)
 * @param abort when it completes (with a reason), the run stops at once and fails with that reason, e.g. because what
 *     records it can no longer write (may be null: never)
 */
public record RunSettings(long endTime, long seed, int threads, long maxWindowNanos, CheckpointPolicy checkpoints,
    Consumer<Checkpoint> onCheckpoint, Checkpoint restoreFrom, Consumer<FactBatch> onFacts,
    Consumer<Long> onRollback, AtomicLong progress, Transport transport, CompletionStage<String> abort) {

  /** One simulated second: long enough not to cost windows, short enough to bound a source's batch. */
  public static final long DEFAULT_MAX_WINDOW = VirtualTime.NS_PER_S;

  public RunSettings {
    if (endTime < 0) throw new IllegalArgumentException("endTime must be >= 0, got " + endTime);
    if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    if (maxWindowNanos <= 0) throw new IllegalArgumentException("maxWindowNanos must be > 0, got " + maxWindowNanos);
    if ((checkpoints == null) != (onCheckpoint == null)) {
      throw new IllegalArgumentException("a checkpoint policy needs a sink and a sink needs a policy");
    }
    if (transport == null) transport = Transport.DIRECT;
  }

  public static RunSettings of(long endTime, long seed, int threads) {
    return new RunSettings(endTime, seed, threads, DEFAULT_MAX_WINDOW, null, null, null, null, null, null, null, null);
  }

  public RunSettings withMaxWindow(long nanos) {
    return new RunSettings(endTime, seed, threads, nanos, checkpoints, onCheckpoint, restoreFrom, onFacts, onRollback,
        progress, transport, abort);
  }

  public RunSettings withCheckpoints(CheckpointPolicy policy, Consumer<Checkpoint> sink) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, policy, sink, restoreFrom, onFacts, onRollback,
        progress, transport, abort);
  }

  public RunSettings resumingFrom(Checkpoint checkpoint) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, checkpoint, onFacts,
        onRollback, progress, transport, abort);
  }

  public RunSettings withFacts(Consumer<FactBatch> sink) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, sink,
        onRollback, progress, transport, abort);
  }

  public RunSettings withProgress(AtomicLong p) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, p, transport, abort);
  }

  public RunSettings withRollbacks(Consumer<Long> sink) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        sink, progress, transport, abort);
  }

  public RunSettings withTransport(Transport t) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, progress, t, abort);
  }

  public RunSettings withAbort(CompletionStage<String> when) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, progress, transport, when);
  }
}
