package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.RunOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The write side of one run's journal, for the process that runs it. The kernel calls {@link #fact} and
 * {@link #checkpoint} on its clock's thread: they only append to a buffer or tell the run entity, never wait for
 * the database. Facts are kept at the run's trace level and written with the checkpoint that ends their interval
 * (or sooner when an interval holds more than tlogsim.journal.facts-per-write). The end of the run
 * ({@link #completed}, {@link #failed}, {@link #interrupted}) waits until it is written.
 */
public final class RunRecorder {
  private final Journal journal;
  private final String runId;
  private final Journal.LiveEntity live;
  private final ActorRef<RunEntity.Command> entity;
  private final TraceLevel trace;
  private final int factsPerWrite;

  // Touched only by the clock's thread during the run, then by the caller once the run has returned.
  private List<StoredFact> pending = new ArrayList<>();
  private long checkpoints;

  private RunRecorder(Journal journal, String runId, Journal.LiveEntity live, TraceLevel trace) {
    this.journal = journal;
    this.runId = runId;
    this.live = live;
    this.entity = live.ref();
    this.trace = trace;
    this.factsPerWrite = journal.settings().factsPerWrite();
  }

  /** A new run's id is already in the journal: the caller takes another. */
  public static final class RunIdTaken extends IllegalStateException {
    RunIdTaken(String message) {
      super(message);
    }
  }

  /** Records the start of a new run in this process; {@link RunIdTaken} when its id is already in the journal. */
  public static RunRecorder start(Journal journal, RunSpec spec) {
    return start(journal, spec, Attempt.current());
  }

  static RunRecorder start(Journal journal, RunSpec spec, Attempt attempt) {
    Journal.LiveEntity e = journal.spawn(spec.runId());
    RunEntity.Reply r = journal.ask(e, reply -> new RunEntity.Start(spec, attempt, reply),
        "recording the start of run " + spec.runId());
    if (r.error() != null) {
      e.ref().tell(new RunEntity.Stop());
      throw new RunIdTaken(r.error());
    }
    return new RunRecorder(journal, spec.runId(), e, spec.trace());
  }

  /**
   * Records that a run stored as {@code state} goes on in this process from its checkpoint of {@code fromWindow}
   * (0: from the start). The caller has checked that it may (see {@link RunStore#resumable}).
   */
  public static RunRecorder resume(Journal journal, String runId, long fromWindow) {
    Journal.LiveEntity e = journal.spawn(runId);
    RunEntity.Reply r = journal.ask(e, reply -> new RunEntity.Resume(fromWindow, Attempt.current(), reply),
        "recording the resume of run " + runId);
    if (r.error() != null) {
      e.ref().tell(new RunEntity.Stop());
      throw new BadInputException("run " + runId + ": " + r.error());
    }
    return new RunRecorder(journal, runId, e, e.state().spec().trace());
  }

  public String runId() {
    return runId;
  }

  /** One fact a model recorded in {@code window} (clock thread). Kept if the trace level keeps it. */
  public void fact(long window, long time, int component, Object fact) {
    if (!trace.keeps(fact)) return;
    pending.add(new StoredFact(window, time, component, fact));
    if (pending.size() >= factsPerWrite) entity.tell(new RunEntity.RecordFacts(drain()));
  }

  /** The facts of one window (clock thread): the sink to give the kernel ({@code RunControl.withFacts}). */
  public void facts(FactBatch batch) {
    for (RecordedFact f : batch.facts()) fact(batch.window(), f.time(), f.component(), f.fact());
  }

  /** A consistent checkpoint (clock thread): written with the facts of the interval it closes. */
  public void checkpoint(Checkpoint c) {
    checkpoints++;
    entity.tell(new RunEntity.TakeCheckpoint(drain(),
        new RunEvent.CheckpointTaken(c.window(), c.simulatedNanos(), c)));
  }

  /**
   * The run went back to its checkpoint of {@code window} after losing a component (clock thread): the facts of that
   * window and later come again. Facts not yet written of those windows are dropped here; those written are
   * superseded by the {@link RunEvent.RolledBack} the journal records.
   */
  public void rolledBack(long window) {
    pending.removeIf(f -> f.window() >= window);
    entity.tell(new RunEntity.RollBack(drain(), window));
  }

  /** Checkpoints handed to the journal by this process. */
  public long checkpoints() {
    return checkpoints;
  }

  /** The run finished: its outcome and the summary written to summary.json. Returns once written. */
  public void completed(RunOutcome outcome, Map<String, Object> summary) {
    finish(new RunEvent.Completed(Outcome.of(outcome), summary));
  }

  public void failed(String reason) {
    finish(new RunEvent.Failed(reason));
  }

  /** Stopped before its end (a signal): resumable from its last checkpoint. */
  public void interrupted(String reason) {
    finish(new RunEvent.Interrupted(reason));
  }

  private void finish(RunEvent end) {
    RunEntity.Reply r = journal.ask(live, reply -> new RunEntity.Finish(drain(), end, reply),
        "recording the end of run " + runId);
    entity.tell(new RunEntity.Stop());
    if (r.error() != null) throw new IllegalStateException("run " + runId + ": " + r.error());
  }

  /** Waits until everything told so far is written (the entity answers only once its writes are done). */
  RunState awaitWrites() {
    return journal.ask(live, RunEntity.GetState::new, "waiting for the writes of run " + runId);
  }

  private RunEvent.FactsRecorded drain() {
    if (pending.isEmpty()) return null;
    RunEvent.FactsRecorded f = new RunEvent.FactsRecorded(pending.get(0).window(),
        pending.get(pending.size() - 1).window(), pending);
    pending = new ArrayList<>();
    return f;
  }
}
