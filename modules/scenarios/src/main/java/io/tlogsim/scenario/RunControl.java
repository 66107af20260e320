package io.tlogsim.scenario;

import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RunSettings;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * How the user asked to run, and where the run's by-products go: seed, threads, the simulated time reached (for
 * progress; may be null), the facts (null: not kept), checkpoints (null policy: none) and the checkpoint to resume
 * from (null: a fresh run), and who is told when the run goes back to a checkpoint after losing a component (the
 * facts of that window and later come again; null: nobody). Every scenario kind hands these to the kernel through {@link #settings(long)}.
 */
public record RunControl(long seed, int threads, AtomicLong progress, Consumer<FactBatch> facts,
    CheckpointPolicy checkpoints, Consumer<Checkpoint> onCheckpoint, Checkpoint resumeFrom,
    Consumer<Long> onRollback) {

  public RunControl {
    if (threads < 1) throw new BadInputException("--threads: must be an integer from 1 to 1024, got " + threads);
  }

  public RunControl(long seed, int threads, AtomicLong progress) {
    this(seed, threads, progress, null, null, null, null, null);
  }

  public RunControl withFacts(Consumer<FactBatch> sink) {
    return new RunControl(seed, threads, progress, sink, checkpoints, onCheckpoint, resumeFrom, onRollback);
  }

  public RunControl withCheckpoints(CheckpointPolicy policy, Consumer<Checkpoint> sink) {
    return new RunControl(seed, threads, progress, facts, policy, sink, resumeFrom, onRollback);
  }

  public RunControl resumingFrom(Checkpoint checkpoint) {
    return new RunControl(seed, threads, progress, facts, checkpoints, onCheckpoint, checkpoint, onRollback);
  }

  public RunControl withRollbacks(Consumer<Long> sink) {
    return new RunControl(seed, threads, progress, facts, checkpoints, onCheckpoint, resumeFrom, sink);
  }

  /** The kernel's settings for a run that ends at {@code endTimeNanos}. */
  public RunSettings settings(long endTimeNanos) {
    RunSettings s = RunSettings.of(endTimeNanos, seed, threads);
    if (progress != null) s = s.withProgress(progress);
    if (facts != null) s = s.withFacts(facts);
    if (checkpoints != null) s = s.withCheckpoints(checkpoints, onCheckpoint);
    if (resumeFrom != null) s = s.resumingFrom(resumeFrom);
    if (onRollback != null) s = s.withRollbacks(onRollback);
    return s;
  }
}
