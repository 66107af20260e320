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
 * @param stopAt the clock stops once every event at or before this instant is handled, while the components still see
 *     {@code endTime} as the run's end (the state of a run at an instant: replay --at, run --branch); NEVER: at endTime
 * @param checkpointAtStop a last checkpoint when the clock stops there (every event up to the stop handled, none after
 *     it), handed to {@code onCheckpoint}: the state a branch starts from
 */
public record RunSettings(long endTime, long seed, int threads, long maxWindowNanos, CheckpointPolicy checkpoints,
    Consumer<Checkpoint> onCheckpoint, Checkpoint restoreFrom, Consumer<FactBatch> onFacts,
    Consumer<Long> onRollback, AtomicLong progress, Transport transport, CompletionStage<String> abort, long stopAt,
    boolean checkpointAtStop) {

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
    if (stopAt < 0) throw new IllegalArgumentException("stopAt must be >= 0, got " + stopAt);
    if (checkpointAtStop && onCheckpoint == null) {
      throw new IllegalArgumentException("a checkpoint at the stop needs a checkpoint sink");
    }
  }

  /** The last instant whose events the clock lets the components handle. */
  public long stopTime() {
    return Math.min(endTime, stopAt);
  }

  public static RunSettings of(long endTime, long seed, int threads) {
    return new RunSettings(endTime, seed, threads, DEFAULT_MAX_WINDOW, null, null, null, null, null, null, null, null,
        VirtualTime.NEVER, false);
  }

  public RunSettings withMaxWindow(long nanos) {
    return new RunSettings(endTime, seed, threads, nanos, checkpoints, onCheckpoint, restoreFrom, onFacts, onRollback,
        progress, transport, abort, stopAt, checkpointAtStop);
  }

  public RunSettings withCheckpoints(CheckpointPolicy policy, Consumer<Checkpoint> sink) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, policy, sink, restoreFrom, onFacts, onRollback,
        progress, transport, abort, stopAt, checkpointAtStop);
  }

  public RunSettings resumingFrom(Checkpoint checkpoint) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, checkpoint, onFacts,
        onRollback, progress, transport, abort, stopAt, checkpointAtStop);
  }

  public RunSettings withFacts(Consumer<FactBatch> sink) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, sink,
        onRollback, progress, transport, abort, stopAt, checkpointAtStop);
  }

  public RunSettings withProgress(AtomicLong p) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, p, transport, abort, stopAt, checkpointAtStop);
  }

  public RunSettings withRollbacks(Consumer<Long> sink) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        sink, progress, transport, abort, stopAt, checkpointAtStop);
  }

  public RunSettings withTransport(Transport t) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, progress, t, abort, stopAt, checkpointAtStop);
  }

  /**
   * The clock stops once every event at or before {@code nanos} is handled; with {@code checkpoint}, a last checkpoint
   * of that state goes to the checkpoint sink (one must be set: with a policy that never fires, if no other).
   */
  public RunSettings stoppingAt(long nanos, boolean checkpoint) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, progress, transport, abort, nanos, checkpoint);
  }

  public RunSettings withAbort(CompletionStage<String> when) {
    return new RunSettings(endTime, seed, threads, maxWindowNanos, checkpoints, onCheckpoint, restoreFrom, onFacts,
        onRollback, progress, transport, when, stopAt, checkpointAtStop);
  }
}
