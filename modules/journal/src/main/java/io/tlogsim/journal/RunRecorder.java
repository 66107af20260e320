package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.RunOutcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The write side of one run's journal, for the process that runs it. The kernel calls {@link #fact} and
 * {@link #checkpoint} on its clock's thread: they only append to a buffer or hand events to the run's writer
 * ({@link RunWriter}), never wait for the database. Facts are kept at the run's trace level and written with the
 * checkpoint that ends their interval (or sooner when an interval holds more than tlogsim.journal.facts-per-write).
 *
 * <p>What the recorder says is durable when it says so: {@link #start} returns once the run's start is on the
 * journal's disk and in its ledger (a run announced as running is resumable whenever the process dies after), and the
 * end ({@link #completed}, {@link #failed}, {@link #interrupted}) likewise, with its seal (the count and checksum of the
 * events before it). Should the journal fail to write, {@link #failure} completes with why: the run stops at once
 * ({@code RunSettings.withAbort}), and the ledger says the run failed where the journal can no longer say it.
 */
public final class RunRecorder {
  private final Journal journal;
  private final String runId;
  private final RunWriter.Handle writer;
  private final TraceLevel trace;
  private final int factsPerWrite;
  private final CompletableFuture<String> failure;
  private final java.util.concurrent.atomic.AtomicBoolean begun = new java.util.concurrent.atomic.AtomicBoolean();

  // Touched only by the clock's thread during the run, then by the caller once the run has returned.
  private List<StoredFact> pending = new ArrayList<>();
  private long checkpoints;
  private long lastCheckpointWall = Long.MIN_VALUE; // System.nanoTime() of the last checkpoint; MIN_VALUE: none yet
  private long reachedNanos;
  // Facts kept that the run's results rest on (superseded ones not counted), and their count at the last checkpoint:
  // the kernel hands out a window's facts before the checkpoint that follows it, and a roll-back returns to the last
  // checkpoint, so the count after one is the count at that checkpoint.
  private long kept;
  private long keptAtCheckpoint;

  private RunRecorder(Journal journal, String runId, RunWriter.Handle writer, TraceLevel trace) {
    this.journal = journal;
    this.runId = runId;
    this.writer = writer;
    this.trace = trace;
    this.factsPerWrite = journal.settings().factsPerWrite();
    // The ledger says the run failed where the journal can no longer say it (a full disk keeps room for this line).
    this.failure = writer.failure().thenApply(why -> {
      String reason = "the " + journal.settings().describe() + " could not be written (" + why + ")" + diskFull(journal);
      if (begun.get() && journal.ledger() != null) { // (a start that failed is not this run's to mark)
        try {
          journal.ledger().failed(runId, reason);
        } catch (IOException | RuntimeException ignored) {
          // nothing more can be kept; the command says it
        }
      }
      return reason;
    }).toCompletableFuture();
  }

  /** "; its disk is full (12 KB free)" when the H2 file's disk has (almost) no room left, else "". */
  private static String diskFull(Journal journal) {
    if (journal.settings().kind() != JournalKind.H2) return "";
    try {
      long free = java.nio.file.Files.getFileStore(journal.settings().h2File()).getUsableSpace();
      return free < 4L << 20 ? "; its disk is full (" + free / 1024 + " KB free)" : "";
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** A new run's id is already in the journal: the caller takes another. */
  public static final class RunIdTaken extends IllegalStateException {
    RunIdTaken(String message) {
      super(message);
    }
  }

  /**
   * Records the start of a new run in this process and returns once it is durable (forced to the journal's disk, and
   * in its ledger); {@link RunIdTaken} when its id is already in the journal.
   */
  public static RunRecorder start(Journal journal, RunSpec spec) {
    return start(journal, spec, Attempt.current());
  }

  static RunRecorder start(Journal journal, RunSpec spec, Attempt attempt) {
    RunWriter.Handle w = journal.writer(spec.runId(), new RunWriter.Written(0, EventChecksum.EMPTY));
    RunRecorder r = new RunRecorder(journal, spec.runId(), w, spec.trace());
    try {
      try {
        r.await(r.write(List.of(new RunEvent.Started(spec, attempt)), false), "recording the start of run "
            + spec.runId());
      } catch (IllegalStateException e) {
        if (e instanceof RunIdTaken) throw e;
        // two processes that took the same id at once: the other's start was written first (a key violation here)
        if (journal.store().contains(spec.runId())) {
          throw new RunIdTaken("run " + spec.runId() + " is already in the journal");
        }
        throw e;
      }
      journal.sync();
      if (journal.ledger() != null) journal.ledger().started(spec.runId(), attempt.startedAtMillis());
      r.begun.set(true);
      return r;
    } catch (RunIdTaken taken) {
      r.close();
      throw taken;
    } catch (IOException e) {
      r.close();
      throw new IllegalStateException("the ledger " + journal.ledger().file() + " could not be written ("
          + e.getMessage() + ")", e);
    } catch (RuntimeException e) {
      r.close();
      throw e;
    }
  }

  /**
   * Records that a run stored as {@code state} goes on in this process from its checkpoint of {@code fromWindow}
   * (0: from the start), once durable. The caller has checked that it may (see {@link RunStore#resumable}).
   */
  public static RunRecorder resume(Journal journal, String runId, long fromWindow) {
    // the facts before the checkpoint resumed from stay (those of later windows come again): counted before the run's
    // writer starts, while nothing writes
    long before = countBelow(journal, runId, fromWindow);
    RunWriter.Written held = JournalCheck.written(journal, runId);
    RunWriter.Handle w = journal.writer(runId, held);
    RunState state = w.recovered();
    RunRecorder r = new RunRecorder(journal, runId, w, state.started() ? state.spec().trace() : TraceLevel.SUMMARY);
    if (!state.started()) {
      r.close();
      throw new BadInputException("run " + runId + ": no such run in the journal");
    }
    if (state.sequenceNr() != held.events()) {
      r.close();
      throw new BadInputException("run " + runId + ": the " + journal.settings().describe() + " holds "
          + held.events() + " rows of it where its state counts " + state.sequenceNr() + " events: it is damaged"
          + " (tlogsim journal verify)");
    }
    r.kept = r.keptAtCheckpoint = before;
    r.await(r.write(List.of(new RunEvent.Resumed(fromWindow, Attempt.current())), false),
        "recording the resume of run " + runId);
    journal.sync();
    r.begun.set(true);
    return r;
  }

  public String runId() {
    return runId;
  }

  /**
   * Completes with why when the journal cannot be written (after retries, where it retries): the run must stop
   * ({@code RunSettings.withAbort}).
   */
  public CompletionStage<String> failure() {
    return failure;
  }

  /**
   * {@code policy}, except while an earlier checkpoint is still being written: a journal that is slow or unreachable
   * for a while (a PostgreSQL restart) does not pile up checkpoints of megabytes in memory.
   */
  public CheckpointPolicy policy(CheckpointPolicy policy) {
    return (window, simulatedNanos) -> writer.checkpointsInFlight().get() == 0
        && policy.checkpointNow(window, simulatedNanos);
  }

  /**
   * A checkpoint once {@code wallNanos} of wall time has passed since the last checkpoint this recorder was handed, of
   * any kind (before the first: since the run's first window), so that a process killed loses about that much work at
   * most, as with a checkpoint every {@code wallNanos}; but a simulated-time mark's checkpoint is not followed by a
   * wall-time one moments later (gcm1-100k on a loaded machine took 10 checkpoints where its 9 marks were 100 to
   * 200 ms apart: the tenth, 50 ms after a mark, held nothing a resume needed). Asked on the clock's thread, as
   * {@link #checkpoint} is called.
   */
  public CheckpointPolicy wallSinceLastCheckpoint(long wallNanos) {
    return (window, simulatedNanos) -> {
      long now = System.nanoTime();
      if (lastCheckpointWall == Long.MIN_VALUE) lastCheckpointWall = now; // the run's first window
      return now - lastCheckpointWall >= wallNanos;
    };
  }

  /** One fact a model recorded in {@code window} (clock thread). Kept if the trace level keeps it. */
  public void fact(long window, long time, int component, Object fact) {
    if (!trace.keeps(fact)) return;
    kept++;
    pending.add(new StoredFact(window, time, component, fact));
    if (pending.size() >= factsPerWrite) write(List.of(drained()), false);
  }

  /** The facts of one window (clock thread): the sink to give the kernel ({@code RunControl.withFacts}). */
  public void facts(FactBatch batch) {
    for (RecordedFact f : batch.facts()) fact(batch.window(), f.time(), f.component(), f.fact());
  }

  /** A consistent checkpoint (clock thread): written with the facts of the interval it closes. */
  public void checkpoint(Checkpoint c) {
    checkpoints++;
    lastCheckpointWall = System.nanoTime();
    keptAtCheckpoint = kept;
    reachedNanos = Math.max(reachedNanos, c.simulatedNanos());
    write(events(drained(), new RunEvent.CheckpointTaken(c.window(), c.simulatedNanos(), c)), true);
  }

  /**
   * The state a run starts from when it is not t = 0 (a branch: its parent's state at T) as its first checkpoint,
   * durable when this returns: a branch killed at once resumes from it, and replay --at after T starts there, without
   * re-simulating its parent.
   */
  public void startsFrom(Checkpoint c) {
    checkpoints++;
    reachedNanos = Math.max(reachedNanos, c.simulatedNanos());
    await(write(events(drained(), new RunEvent.CheckpointTaken(c.window(), c.simulatedNanos(), c)), true),
        "recording the start of run " + runId);
    journal.sync();
  }

  /**
   * The run went back to its checkpoint of {@code window} after losing a component (clock thread): the facts of that
   * window and later come again. Facts not yet written of those windows are dropped here; those written are
   * superseded by the {@link RunEvent.RolledBack} the journal records.
   */
  public void rolledBack(long window) {
    pending.removeIf(f -> f.window() >= window);
    kept = window == 0 ? 0 : keptAtCheckpoint;
    write(events(drained(), new RunEvent.RolledBack(window)), false);
  }

  /** Checkpoints handed to the journal by this process. */
  public long checkpoints() {
    return checkpoints;
  }

  /**
   * The facts of the run kept at its trace level, superseded ones (of a roll-back, or before a resume) not counted:
   * as many as {@link RunStore#facts} reads back once the run has ended (clock thread, or once the run returned).
   */
  public long factsKept() {
    return kept;
  }

  /** The facts of windows before {@code window} the journal holds of a run (superseded ones left out). */
  private static long countBelow(Journal journal, String runId, long window) {
    long[] n = {0};
    StoredFacts.read(journal, runId, f -> {
      if (f.window() < window) n[0]++;
    });
    return n[0];
  }

  /** The run finished: its outcome and the summary written to summary.json. Returns once durable. */
  public void completed(RunOutcome outcome, Map<String, Object> summary) {
    await(completedAsync(outcome, summary), "recording the end of run " + runId);
  }

  /** As {@link #completed}, without waiting (a cluster's coordinator, which must not block its thread). */
  public CompletableFuture<Void> completedAsync(RunOutcome outcome, Map<String, Object> summary) {
    Outcome o = Outcome.of(outcome);
    return finish(seal -> new RunEvent.Completed(o, summary, seal), RunStatus.COMPLETED, reached(summary));
  }

  /** The run failed (one line). Returns once durable. */
  public void failed(String reason) {
    await(finish(seal -> new RunEvent.Failed(reason, seal), RunStatus.FAILED, reachedNanos),
        "recording the end of run " + runId);
  }

  /** Stopped before its end (a signal): resumable from its last checkpoint. Returns once durable. */
  public void interrupted(String reason) {
    await(finish(seal -> new RunEvent.Interrupted(reason, seal), RunStatus.INTERRUPTED, reachedNanos),
        "recording the end of run " + runId);
  }

  /** The simulated time a run reached: summary.json's simulatedSeconds (a script may end before the limit). */
  private static long reached(Map<String, Object> summary) {
    return summary != null && summary.get("simulatedSeconds") instanceof Number n ? Math.round(n.doubleValue() * 1e9)
        : 0;
  }

  /**
   * The facts not yet written, then the end sealed with the count and checksum of every event before it; once written,
   * forced to disk and in the ledger. The writer is closed after.
   */
  private CompletableFuture<Void> finish(java.util.function.Function<RunEvent.Seal, RunEvent> end, RunStatus status,
      long reached) {
    RunEvent.FactsRecorded facts = drained();
    if (facts != null) write(List.of(facts), false);
    CompletableFuture<RunWriter.Written> done = new CompletableFuture<>();
    writer.ref().tell(new RunWriter.WriteEnd(end, done));
    return done.thenAcceptAsync(written -> {
      journal.sync();
      if (journal.ledger() != null) {
        try {
          journal.ledger().ended(runId, new Ledger.End(status, written.events(), written.checksum(), reached));
        } catch (IOException e) {
          throw new IllegalStateException("the ledger " + journal.ledger().file() + " could not be written ("
              + e.getMessage() + ")", e);
        }
      }
    }).whenComplete((ok, e) -> close());
  }

  /** Waits until everything handed on so far is written. */
  RunWriter.Written awaitWrites() {
    CompletableFuture<RunWriter.Written> done = new CompletableFuture<>();
    writer.ref().tell(new RunWriter.Sync(done));
    return await(done, "waiting for the writes of run " + runId);
  }

  private CompletableFuture<RunWriter.Written> write(List<RunEvent> events, boolean checkpoint) {
    CompletableFuture<RunWriter.Written> done = new CompletableFuture<>();
    writer.ref().tell(new RunWriter.Write(events, checkpoint, done));
    return done;
  }

  /** Waits for a write; a journal that failed fails it with its one line. */
  private <T> T await(CompletableFuture<T> f, String what) {
    try {
      return journal.await(f, what);
    } catch (Journal.ReadFailed e) {
      if (e.getCause() instanceof RunIdTaken taken) throw taken;
      String why = failure.getNow(null);
      throw new IllegalStateException(why != null ? why : e.getMessage(), e);
    }
  }

  private void close() {
    writer.ref().tell(new RunWriter.Close());
  }

  private static List<RunEvent> events(RunEvent.FactsRecorded facts, RunEvent last) {
    List<RunEvent> events = new ArrayList<>(2);
    if (facts != null) events.add(facts);
    events.add(last);
    return events;
  }

  private RunEvent.FactsRecorded drained() {
    if (pending.isEmpty()) return null;
    RunEvent.FactsRecorded f = new RunEvent.FactsRecorded(pending.get(0).window(),
        pending.get(pending.size() - 1).window(), pending);
    pending = new ArrayList<>();
    return f;
  }
}
