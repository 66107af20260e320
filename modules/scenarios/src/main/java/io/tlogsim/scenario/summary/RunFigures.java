package io.tlogsim.scenario.summary;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.RunControl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * summary.json's {@code run} section, the same for every kind: how the run was run (threads, nodes) and the
 * simulator's own figures (wall time, events, windows, messages, what crossed between nodes, recoveries). Wall-clock
 * figures live here only, so that the rest of a summary is the same for the same scenario and seed.
 */
public final class RunFigures {
  private RunFigures() {}

  public static Map<String, Object> of(RunControl control, RunOutcome out) {
    double wall = out.wallNanos() / 1e9;
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("threads", control.threads());
    run.put("nodes", out.nodes());
    run.put("wallSeconds", round(wall));
    if (out.threadBusy() != null) run.put("threadBusy", out.threadBusy()); // wall-clock, as wallSeconds
    run.put("events", out.events());
    run.put("windows", out.windows());
    run.put("messages", out.messages());
    run.put("simulatedEventsPerWallSecond", round(wall > 0 ? out.events() / wall : 0));
    run.put("messagesPerEvent", out.events() == 0 ? 0.0 : Math.round(out.messagesPerEvent() * 1e4) / 1e4);
    run.put("crossNodeMessages", out.crossNodeMessages());
    run.put("crossNodeMessagesPerEvent", out.events() == 0 ? 0.0
        : Math.round(out.crossNodeMessages() / (double) out.events() * 1e4) / 1e4);
    run.put("crossNodeMessagesPerWindow", out.windows() == 0 ? 0.0
        : round(out.crossNodeMessages() / (double) out.windows()));
    run.put("crossNodeBytesPerWindow", out.windows() == 0 ? 0.0
        : round(out.crossNodeBytes() / (double) out.windows()));
    if (out.criticalPathCrossingsPerWindow() != null) { // the message graph's: the same for the run on any machine
      run.put("criticalPathCrossingsPerWindow", round(out.criticalPathCrossingsPerWindow()));
    }
    run.put("recoveries", out.recoveries());
    return run;
  }

  /**
   * The human summary's item for {@code run.threadBusy} ("busy 0.93, 0.41 of wall time by thread"), or null when the
   * run's host did not measure it (a cluster run).
   */
  public static String busyText(RunOutcome out) {
    if (out.threadBusy() == null || out.threadBusy().isEmpty()) return null;
    List<String> shares = new ArrayList<>();
    for (double b : out.threadBusy()) shares.add(String.format(Locale.ROOT, "%.2f", b));
    return "busy " + String.join(" ", shares) + " of wall time by thread";
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
