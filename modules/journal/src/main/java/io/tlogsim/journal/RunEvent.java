package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Checkpoint;
import java.util.List;
import java.util.Map;

/**
 * What the journal records about a run (DESIGN.md principle 5). A run's events, in order: {@link Started}; then per
 * checkpoint interval the facts of the interval and the checkpoint ({@link FactsRecorded}, {@link CheckpointTaken},
 * written together); then {@link Completed}, {@link Failed} or {@link Interrupted}. A resumed run adds
 * {@link Resumed} and goes on from its checkpoint. Fields are only ever added, never renamed: stored runs must stay
 * readable.
 */
public sealed interface RunEvent extends CborSerializable {

  record Started(RunSpec spec, Attempt attempt) implements RunEvent {}

  /**
   * Facts of windows {@code fromWindow .. toWindow}, at the run's trace level. Written once per checkpoint interval
   * (and sooner only when an interval holds more than tlogsim.journal.facts-per-write facts).
   */
  record FactsRecorded(long fromWindow, long toWindow, List<StoredFact> facts) implements RunEvent {}

  /**
   * A consistent cut of the run at the start of window {@code window} (all components' states): what a resume
   * starts from. An event rather than only a snapshot, so that the run's history holds it and Persistence Query
   * reads it like any other event; the run entity's snapshot at each checkpoint holds only where it is (see
   * {@link RunState}), so a checkpoint's megabytes are written once.
   */
  record CheckpointTaken(long window, long simulatedNanos, Checkpoint checkpoint) implements RunEvent {}

  /**
   * The run goes on from the checkpoint of window {@code fromWindow} (0: from the start) in another process.
   * Facts stored before it for windows at or after {@code fromWindow} are superseded by the ones recorded again.
   */
  record Resumed(long fromWindow, Attempt attempt) implements RunEvent {}

  /**
   * The run went back to its checkpoint of window {@code fromWindow} (0: its start) after losing a component, in the
   * same process. As with {@link Resumed}, facts stored before it for windows at or after {@code fromWindow} are
   * superseded by the ones recorded again.
   */
  record RolledBack(long fromWindow) implements RunEvent {}

  /**
   * The run finished: the kernel's outcome and the summary written to summary.json (for runs and compare), and the
   * seal of the events before it (null in journals of earlier versions).
   */
  record Completed(Outcome outcome, Map<String, Object> summary, Seal seal) implements RunEvent {}

  /** The run failed (a model threw, a promise was broken): one line; and the seal of the events before it. */
  record Failed(String reason, Seal seal) implements RunEvent {}

  /**
   * The run was stopped (SIGTERM, Ctrl-C) before its end; it can be resumed from its last checkpoint. With the seal of
   * the events before it.
   */
  record Interrupted(String reason, Seal seal) implements RunEvent {}

  /**
   * What an end record says of the run's events before it, so that a journal that lost some is noticed
   * ({@code tlogsim journal verify}): how many there were, and the checksum of their bytes as stored (see
   * {@link EventChecksum}).
   */
  record Seal(long events, long checksum) implements CborSerializable {}
}
