package io.tlogsim.cluster;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.RecordedFact;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;

/** What a run's coordinator tells whoever submitted the run. */
public sealed interface RunUpdate extends CborSerializable {

  /**
   * The run is in hand (a first submission, or one sent again after the coordinator's node was lost), on {@code node},
   * going on from the checkpoint at {@code resumedFromNanos} of simulated time (-1: from the beginning).
   */
  record Accepted(String runId, ActorRef<RunCoordinator.Command> coordinator, String node, long resumedFromNanos)
      implements RunUpdate {}

  /** How far the run has come, in simulated ns. */
  record Progress(long reachedNanos, long endNanos) implements RunUpdate {}

  /**
   * Interval facts of window {@code window} (the report's time series), in parts of a few facts each so that no message
   * comes near the transport's frame size; a window sent again (after a roll-back or a resubmission) replaces itself.
   */
  record Facts(long window, int part, List<RecordedFact> facts) implements RunUpdate {}

  /** The clock rolled back: the facts of windows from {@code window} on will come again. */
  record RolledBack(long window) implements RunUpdate {}

  /**
   * The run is over: summary.json's content (as JSON text), the human summary, and the latency histograms (each
   * HdrHistogram's compressed bytes), the journal that recorded the run (null: none), and the components' names by
   * id (for the report's series).
   */
  record Done(String summaryJson, List<String> lines, Map<String, byte[]> histograms, String journal,
      List<String> components) implements RunUpdate {}

  /** The run cannot go on; {@code badInput}: the scenario itself was refused (exit 2). */
  record Failed(String reason, boolean badInput) implements RunUpdate {}
}
