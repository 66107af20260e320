package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One journaled run, driven the same way by the command line ({@code tlogsim run}, {@code run --resume}) and by a
 * cluster's run coordinator: its start, durable before the caller announces it (or its going on from the journal's
 * last checkpoint), its facts, checkpoints and roll-backs wired into the run's control, a stop at once should the
 * journal fail, and its end, durable too.
 */
public final class JournaledRun {
  private final Journal journal;
  private final RunRecorder recorder;
  private final RunSpec spec;
  private final Checkpoint from;
  private final boolean goesOn;

  private JournaledRun(Journal journal, RunRecorder recorder, RunSpec spec, Checkpoint from, boolean goesOn) {
    this.journal = journal;
    this.recorder = recorder;
    this.spec = spec;
    this.from = from;
    this.goesOn = goesOn;
  }

  /**
   * A new run, its start durable in the journal (and its ledger) when this returns; {@link RunRecorder.RunIdTaken}
   * when its id is in the journal already (the caller takes another).
   */
  public static JournaledRun start(Journal journal, RunSpec spec) {
    return new JournaledRun(journal, RunRecorder.start(journal, spec), spec, null, false);
  }

  /**
   * An interrupted run going on in this process from its last checkpoint (from its start when it has none); bad input
   * naming why when it cannot (unknown, completed, failed, still running, damaged).
   */
  public static JournaledRun resume(Journal journal, String runId) {
    RunStore store = journal.store();
    RunState state = store.resumable(runId);
    return resume(journal, state, store.lastCheckpoint(runId, state));
  }

  /**
   * As {@link #resume(Journal, String)}, for a caller that read the run's state ({@link RunStore#resumable}) and its
   * last checkpoint ({@link RunStore#lastCheckpoint}) already.
   */
  public static JournaledRun resume(Journal journal, RunState state, Checkpoint from) {
    RunRecorder r = RunRecorder.resume(journal, state.spec().runId(), from == null ? 0 : from.window());
    return new JournaledRun(journal, r, state.spec(), from, true);
  }

  /**
   * For a cluster's coordinator: a new run or, its id in the journal already because the coordinator's node was lost,
   * the same run going on from its last checkpoint there (as {@code tlogsim run --resume} would). Bad input when the
   * id is another run's (made elsewhere in the same second) or the run is completed.
   */
  public static JournaledRun startOrGoOn(Journal journal, RunSpec spec) {
    try {
      return start(journal, spec);
    } catch (RunRecorder.RunIdTaken taken) {
      RunStore store = journal.store();
      RunState state = store.state(spec.runId());
      RunSpec stored = state.spec();
      if (!stored.scenario().equals(spec.scenario()) || stored.seed() != spec.seed()
          || !stored.overrides().equals(spec.overrides())) {
        throw new BadInputException("run id " + spec.runId() + " is taken in the " + journal.settings().describe()
            + " by another run (" + stored.scenario() + ", seed " + stored.seed() + "); submit again");
      }
      if (state.effectiveStatus() == RunStatus.COMPLETED) {
        throw new BadInputException("run " + spec.runId() + " is completed in the " + journal.settings().describe()
            + ": tlogsim replay " + spec.runId() + " gives its summary");
      }
      return goOn(journal, store, state);
    }
  }

  private static JournaledRun goOn(Journal journal, RunStore store, RunState state) {
    return resume(journal, state, store.lastCheckpoint(state.spec().runId(), state));
  }

  public String runId() {
    return spec.runId();
  }

  /** What the run is, as the journal keeps it. */
  public RunSpec spec() {
    return spec;
  }

  /** True when the run was in the journal already and goes on here (from {@link #from}, or its start). */
  public boolean goesOn() {
    return goesOn;
  }

  /** The checkpoint the run goes on from, or null (a new run, or one with none yet: from its start). */
  public Checkpoint from() {
    return from;
  }

  /**
   * {@code base} with the run's journal: its facts written (and then handed to {@code base}'s sink), checkpoints (see
   * {@link #policy}), roll-backs recorded, and the checkpoint it goes on from.
   */
  public RunControl control(RunControl base) {
    return control(base, CheckpointMarks.configured());
  }

  /** As {@link #control(RunControl)}, with checkpoints at these simulated-time marks (run --checkpoint-every-simulated). */
  public RunControl control(RunControl base, CheckpointMarks marks) {
    RunControl c = base.withFacts(batch -> {
      recorder.facts(batch);
      if (base.facts() != null) base.facts().accept(batch);
    }).withRollbacks(window -> {
      recorder.rolledBack(window);
      if (base.onRollback() != null) base.onRollback().accept(window);
    }).withCheckpoints(policy(marks, from != null ? from : base.resumeFrom()), recorder::checkpoint);
    return from == null ? c : c.resumingFrom(from);
  }

  /**
   * Once tlogsim.journal.checkpoint-every of wall time has passed since the last checkpoint (of either kind), unless
   * one is still being written; and at each simulated-time mark, even then (a mark's checkpoint is what replay --at
   * and run --branch start from; there are few of them), but for a mark reached within the marks' minimum wall gap of
   * the last one taken (passed over: {@link CheckpointMarks}).
   */
  private CheckpointPolicy policy(CheckpointMarks marks, Checkpoint start) {
    CheckpointPolicy wall = recorder.policy(recorder.wallSinceLastCheckpoint(
        journal.settings().checkpointEvery().toNanos()));
    // a resumed run or a branch (its base resumes from its parent's state at T): the marks after where it starts
    CheckpointPolicy atMarks = marks.policy(spec.endTimeNanos(), start == null ? 0 : start.simulatedNanos());
    return atMarks == null ? wall : atMarks.or(wall);
  }

  /** The kernel's settings of the run: it stops at once, failed, when its journal cannot be written. */
  public RunSettings settings(RunSettings s) {
    return s.withAbort(recorder.failure());
  }

  /** A run that starts from {@code c}, not t = 0 (a branch): {@code c} is its first checkpoint, durable on return. */
  public void startsFrom(Checkpoint c) {
    recorder.startsFrom(c);
  }

  /** Checkpoints handed to the journal by this process. */
  public long checkpoints() {
    return recorder.checkpoints();
  }

  /** The run's facts the journal keeps, superseded ones not counted: what {@code tlogsim facts} gives of it. */
  public long factsKept() {
    return recorder.factsKept();
  }

  /** The run finished: its outcome and summary.json's content, durable when this returns. */
  public void completed(RunOutcome outcome, Map<String, Object> summary) {
    recorder.completed(outcome, summary);
  }

  /** As {@link #completed}, for a caller that must not block its thread (a cluster's coordinator). */
  public CompletableFuture<Void> completedAsync(RunOutcome outcome, Map<String, Object> summary) {
    return recorder.completedAsync(outcome, summary);
  }

  /**
   * The run failed: recorded if the journal still can be written (if it cannot, that is why the run failed, and the
   * ledger says so already). A journal that fails here does not hide the run's own failure.
   */
  public void failed(String reason) {
    if (recorder.failure().toCompletableFuture().isDone()) return;
    try {
      recorder.failed(reason);
    } catch (RuntimeException ignored) {
      // the run's failure is what the caller reports
    }
  }

  /** Why the journal could not be written, once it could not (the run stopped for it); null until then. */
  public String journalFailure() {
    return recorder.failure().toCompletableFuture().getNow(null);
  }
}
