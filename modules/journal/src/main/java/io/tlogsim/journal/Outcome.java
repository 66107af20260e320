package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.RunOutcome;
import java.util.ArrayList;
import java.util.List;

/**
 * What the kernel reported at the end of a run ({@link RunOutcome}), as the journal keeps it: the summary of the run
 * is rebuilt from this and the run's {@link RunSpec} by the same engine code that built it live.
 *
 * @param results each component's results, by component id (the models' own records)
 * @param recoveries times the run went back to a checkpoint after losing a component
 * @param nodes JVMs that held the clock or a component (the cross-node figures are the kernel's, as reported)
 * @param threadBusy the run's threads' busy shares (wall-clock, as wallNanos: kept so that a replay writes the live
 *     run's summary); null in a journal written before they were kept, and then left out of the summary
 * @param criticalPathCrossingsPerWindow the kernel's (RunOutcome); null in a journal written before it was kept
 */
public record Outcome(long digest, long events, long windows, long messages,
    @io.tlogsim.kernel.Typed List<Object> results, long wallNanos, long recoveries, int nodes,
    long crossNodeMessages, long crossNodeBytes, List<Double> threadBusy, Double criticalPathCrossingsPerWindow)
    implements CborSerializable {

  public static Outcome of(RunOutcome o) {
    return new Outcome(o.digest(), o.events(), o.windows(), o.messages(), new ArrayList<>(o.results()), o.wallNanos(),
        o.recoveries(), o.nodes(), o.crossNodeMessages(), o.crossNodeBytes(), o.threadBusy(),
        o.criticalPathCrossingsPerWindow());
  }

  public RunOutcome toRunOutcome() {
    return new RunOutcome(digest, events, windows, messages, List.copyOf(results), wallNanos, recoveries, nodes,
        crossNodeMessages, crossNodeBytes, threadBusy, criticalPathCrossingsPerWindow);
  }
}
