package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run entity's state: what the run is, where it stands, and where its checkpoints are in its event stream.
 * Small on purpose: it is snapshotted at every checkpoint, while the checkpoints themselves stay in their events
 * ({@link RunEvent.CheckpointTaken}), read back by sequence number when a run resumes.
 *
 * @param spec null until the run has started
 * @param status the recorded status: a run whose process died shows RUNNING here; see {@link #effectiveStatus()}
 * @param attempt the process that last started or resumed the run
 * @param first the process that started it (when it started)
 * @param sequenceNr sequence number of the last event applied (events are never deleted, so this is their count)
 * @param resumedFromWindow the window the last resume started from (0 when never resumed)
 * @param lastCheckpoint the latest checkpoint, or null
 * @param checkpointSequenceNrs where the checkpoint events are, so that readers of facts can skip their megabytes
 * @param factsStored facts stored so far (superseded ones included)
 * @param outcome when completed: the kernel's outcome
 * @param summary when completed: the summary written live
 * @param reason when failed or interrupted: why
 * @param seal the seal of the last end record (the count and checksum of the events before it), or null
 * @param checkpointNanos the simulated time of each checkpoint, beside {@link #checkpointSequenceNrs} (what a report
 *     marks; a state recovered from a snapshot of an older version may lack them: then empty)
 */
public record RunState(RunSpec spec, RunStatus status, Attempt attempt, Attempt first, long sequenceNr, long resumedFromWindow,
    CheckpointRef lastCheckpoint, List<Long> checkpointSequenceNrs, long factsStored, Outcome outcome,
    Map<String, Object> summary, String reason, RunEvent.Seal seal, List<Long> checkpointNanos)
    implements CborSerializable {

  /** Where a checkpoint is: its window, simulated time, and the sequence number of its event. */
  public record CheckpointRef(long window, long simulatedNanos, long sequenceNr) implements CborSerializable {}

  public static final RunState EMPTY =
      new RunState(null, null, null, null, 0, 0, null, List.of(), 0, null, null, null, null, List.of());

  public RunState {
    checkpointSequenceNrs = checkpointSequenceNrs == null ? List.of() : List.copyOf(checkpointSequenceNrs);
    checkpointNanos = checkpointNanos == null ? List.of() : List.copyOf(checkpointNanos);
  }

  public boolean started() {
    return spec != null;
  }

  /** The status with a dead process taken into account: RUNNING whose process is gone is INTERRUPTED. */
  public RunStatus effectiveStatus() {
    if (status == RunStatus.RUNNING && attempt != null && !attempt.processAlive()) return RunStatus.INTERRUPTED;
    return status;
  }

  /**
   * Simulated time reached: when completed, summary.json's simulatedSeconds (a script may end before the configured
   * limit; the limit for a summary without it), else the last checkpoint's (0 without one).
   */
  public long simulatedNanosReached() {
    if (status == RunStatus.COMPLETED) {
      return summary != null && summary.get("simulatedSeconds") instanceof Number n
          ? Math.round(n.doubleValue() * 1e9) : spec.endTimeNanos();
    }
    return lastCheckpoint == null ? 0 : lastCheckpoint.simulatedNanos();
  }

  RunState apply(RunEvent event) {
    long seq = sequenceNr + 1;
    if (event instanceof RunEvent.Started e) {
      return new RunState(e.spec(), RunStatus.RUNNING, e.attempt(), e.attempt(), seq, 0, null, List.of(), 0, null,
          null, null, null, List.of());
    }
    if (event instanceof RunEvent.FactsRecorded e) {
      return new RunState(spec, status, attempt, first, seq, resumedFromWindow, lastCheckpoint, checkpointSequenceNrs,
          factsStored + e.facts().size(), outcome, summary, reason, seal, checkpointNanos);
    }
    if (event instanceof RunEvent.CheckpointTaken e) {
      List<Long> seqs = new ArrayList<>(checkpointSequenceNrs);
      seqs.add(seq);
      List<Long> times = new ArrayList<>(checkpointNanos);
      times.add(e.simulatedNanos());
      return new RunState(spec, status, attempt, first, seq, resumedFromWindow,
          new CheckpointRef(e.window(), e.simulatedNanos(), seq), seqs, factsStored, outcome, summary, reason, seal,
          times);
    }
    if (event instanceof RunEvent.Resumed e) {
      // A checkpoint later than the one resumed from cannot exist (the resume takes the last one); keep the list.
      return new RunState(spec, RunStatus.RUNNING, e.attempt(), first, seq, e.fromWindow(), lastCheckpoint,
          checkpointSequenceNrs, factsStored, null, null, null, seal, checkpointNanos);
    }
    if (event instanceof RunEvent.RolledBack) {
      return new RunState(spec, status, attempt, first, seq, resumedFromWindow, lastCheckpoint, checkpointSequenceNrs,
          factsStored, outcome, summary, reason, seal, checkpointNanos);
    }
    if (event instanceof RunEvent.Completed e) {
      return new RunState(spec, RunStatus.COMPLETED, attempt, first, seq, resumedFromWindow, lastCheckpoint,
          checkpointSequenceNrs, factsStored, e.outcome(), e.summary(), null, e.seal(), checkpointNanos);
    }
    if (event instanceof RunEvent.Failed e) {
      return new RunState(spec, RunStatus.FAILED, attempt, first, seq, resumedFromWindow, lastCheckpoint,
          checkpointSequenceNrs, factsStored, null, null, e.reason(), e.seal(), checkpointNanos);
    }
    if (event instanceof RunEvent.Interrupted e) {
      return new RunState(spec, RunStatus.INTERRUPTED, attempt, first, seq, resumedFromWindow, lastCheckpoint,
          checkpointSequenceNrs, factsStored, null, null, e.reason(), e.seal(), checkpointNanos);
    }
    throw new IllegalArgumentException("unknown run event " + event.getClass().getName());
  }
}
