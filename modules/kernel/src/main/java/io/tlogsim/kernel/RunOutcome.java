package io.tlogsim.kernel;

import java.util.List;

/**
 * What a finished run reports.
 *
 * @param digest the trace digest (combined over components in id order)
 * @param events simulated events handled
 * @param windows windows run (the hello window not counted)
 * @param messages Pekko messages exchanged by the kernel (windows, reports, batches, control)
 * @param results each component's results, by component id
 * @param wallNanos wall-clock time of the run, actor system start-up excluded
 * @param recoveries times a component was lost and every component went back to the last checkpoint
 * @param nodes how many nodes (JVMs) held the clock or a component
 * @param crossNodeMessages kernel messages between different nodes
 * @param crossNodeBytes bytes of batches between different nodes, estimated from the events they carry
 * @param threadBusy by thread of the run's dispatcher, busiest first: the share of the run's wall time it spent
 *     running the run's actors (not idle); wall-clock like {@code wallNanos}; null when not measured (a run the
 *     cluster's coordinator placed, or one a journal recorded before it was kept)
 * @param criticalPathCrossingsPerWindow crossings between nodes on the run's critical path per window
 *     ({@link CriticalPath}: the message graph's, not a time; 0 on one node); of the last incarnation (after a lost
 *     node or a resume, from its first window); null in a journal recorded before it was kept
 */
public record RunOutcome(long digest, long events, long windows, long messages, List<Object> results,
    long wallNanos, long recoveries, int nodes, long crossNodeMessages, long crossNodeBytes,
    List<Double> threadBusy, Double criticalPathCrossingsPerWindow) {

  public RunOutcome(long digest, long events, long windows, long messages, List<Object> results, long wallNanos,
      long recoveries, int nodes, long crossNodeMessages, long crossNodeBytes) {
    this(digest, events, windows, messages, results, wallNanos, recoveries, nodes, crossNodeMessages, crossNodeBytes,
        null, null);
  }

  /** This outcome with the threads' busy shares its host measured. */
  public RunOutcome withThreadBusy(List<Double> busy) {
    return new RunOutcome(digest, events, windows, messages, results, wallNanos, recoveries, nodes, crossNodeMessages,
        crossNodeBytes, busy == null ? null : List.copyOf(busy), criticalPathCrossingsPerWindow);
  }

  public String digestHex() {
    return Digest.hex(digest);
  }

  public double messagesPerEvent() {
    return events == 0 ? 0 : messages / (double) events;
  }
}
