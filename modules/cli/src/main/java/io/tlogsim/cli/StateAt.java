package io.tlogsim.cli;

import io.tlogsim.journal.Journal;
import io.tlogsim.journal.RunSpec;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stored run at a simulated instant T: its last checkpoint at or before T restored and simulated on until every
 * event at or before T is handled (the clock stops there; the components still see the run's own end, so they do
 * what they did in the run). Deterministic, so the state is exactly the run's at T. What {@code replay --at} prints,
 * and what {@code run --branch} starts from.
 */
final class StateAt {
  private StateAt() {}

  /**
   * The run re-simulated to T: the checkpoint it started from (null: the run's start), the kernel's outcome at T (its
   * digest is the digest of the run's events up to T), the kind's result read from it, the components as they are at
   * T (this process made them), and, when asked for, the checkpoint of the state at T.
   */
  record Simulated(RunSpec spec, Scenario scenario, long atNanos, Checkpoint from, RunOutcome outcome,
      ScenarioResult result, List<SimComponent> components, Checkpoint atT) {
    double fromSeconds() {
      return from == null ? 0 : from.simulatedNanos() / 1e9;
    }
  }

  /** "--at 30", "--at 1.5", "--at 500ms", "--at 2m": a simulated time in ns; bad input naming the option otherwise. */
  static long parseAt(String option, String text) {
    String t = text == null ? "" : text.strip();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*"
        + "(ns|us|ms|s|m|h)?").matcher(t.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new BadInputException(option + ": must be a simulated time in seconds (30, 1.5) or with a unit (500ms,"
          + " 2m), got '" + text + "'");
    }
    double v = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double perUnit = switch (unit) {
      case "ns" -> 1;
      case "us" -> 1e3;
      case "ms" -> 1e6;
      case "m" -> 60e9;
      case "h" -> 3600e9;
      default -> 1e9;
    };
    if (v < 0) throw new BadInputException(option + " " + text + ": must not be negative (a run starts at 0 s)");
    return Math.round(v * perUnit);
  }

  /** The completed run {@code runId}; bad input naming why otherwise (its reached time is known only then). */
  static RunState completed(Journal journal, String runId, String toDo) {
    RunState s = journal.store().state(runId);
    if (s.effectiveStatus() != RunStatus.COMPLETED) {
      throw new BadInputException("run " + runId + " is " + s.effectiveStatus().label() + ": " + toDo
          + " needs a completed run" + (s.effectiveStatus() == RunStatus.INTERRUPTED
          ? " (tlogsim run --resume " + runId + " finishes it)" : ""));
    }
    return s;
  }

  /** T must lie within what the run simulated: 0 to its simulatedSeconds. */
  static void checkWithin(String option, RunState s, long atNanos) {
    long reached = s.simulatedNanosReached();
    if (atNanos > reached) {
      throw new BadInputException(option + " " + Text.number(atNanos / 1e9) + ": beyond run " + s.spec().runId()
          + ", which covers 0 to " + Text.number(Math.round(reached / 1e6) / 1e3) + " simulated s");
    }
  }

  /** Re-simulates {@code state}'s run to {@code atNanos}; with {@code checkpoint}, the state at T as a checkpoint. */
  static Simulated simulate(Journal journal, RunState state, long atNanos, boolean checkpoint) {
    RunSpec spec = state.spec();
    Scenario scenario = spec.scenario(ScenarioKinds.all());
    Checkpoint from = journal.store().checkpointAtOrBefore(spec.runId(), state, atNanos);
    if (from == null && spec.provenance().get("branch") instanceof Map<?, ?> branch) { // not t = 0: its parent's state
      String parentId = String.valueOf(branch.get("branchOf"));
      long branchAt = Math.round(((Number) branch.get("branchAt")).doubleValue() * 1e9);
      if (atNanos <= branchAt) { // up to T the branch is its parent
        Simulated p = simulate(journal, journal.store().state(parentId), atNanos, checkpoint);
        return new Simulated(spec, scenario, atNanos, p.from(), p.outcome(), p.result(), p.components(), p.atT());
      }
      throw new BadInputException("run " + spec.runId() + " is a branch of " + parentId + " at " + Text.number(
          branchAt / 1e9) + " s with no checkpoint at or before " + Text.number(atNanos / 1e9) + " s (recorded before"
          + " a branch's start was its first checkpoint): branch again");
    }
    RunControl control = new RunControl(spec.seed(), spec.threads(), null);
    if (from != null) control = control.resumingFrom(from);
    PreparedRun prepared = scenario.prepare(control);
    AtomicReference<Checkpoint> atT = new AtomicReference<>();
    RunSettings settings = control.settings(scenario.endTimeNanos());
    if (checkpoint) settings = settings.withCheckpoints(CheckpointPolicy.NEVER, atT::set);
    settings = settings.stoppingAt(atNanos, checkpoint);
    AtomicReference<List<SimComponent>> live = new AtomicReference<>();
    RunOutcome outcome = journal.host().run(prepared.topology(), () -> {
      List<SimComponent> ms = prepared.models();
      live.set(ms); // the last made: a lost component makes them all anew (local runs lose none)
      return ms;
    }, settings);
    ScenarioResult result = scenario.complete(prepared.result(outcome));
    return new Simulated(spec, scenario, atNanos, from, outcome, result, live.get(), atT.get());
  }

  /** The state at T as the kernel's checkpoint of it; never null once {@link #simulate} was asked for one. */
  static Checkpoint checkpointOf(Simulated s) {
    if (s.atT() == null) throw new IllegalStateException("no checkpoint was taken at " + s.atNanos() + " ns");
    return s.atT();
  }

  static double seconds(long nanos) {
    return nanos / (double) VirtualTime.NS_PER_S;
  }
}
