package io.tlogsim.journal;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.kinds.gcm1.Gcm1Kind;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Real GCM-1 runs on the real kernel, with checkpoints, for the journal's tests. */
final class Gcm1Fixture {
  private Gcm1Fixture() {}

  static Scenario scenario(String... keyValues) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) o.put(keyValues[i], keyValues[i + 1]);
    return ScenarioKinds.loader().load("gcm1", o);
  }

  static RunSpec spec(String runId, Scenario s, long seed, TraceLevel trace) {
    return RunSpec.of(runId, s.withSeed(seed, "--seed"), 1, trace, "/tmp/" + runId, "tlogsim run " + s.name(),
        Map.of("version", "test"));
  }

  /** Runs the scenario, handing a checkpoint every {@code everyWindows} windows to {@code sink}. */
  static RunOutcome run(Scenario s, long seed, long everyWindows, Consumer<Checkpoint> sink, Checkpoint from) {
    Gcm1Kind.Model m = Gcm1Kind.build(s.params());
    RunSettings settings = RunSettings.of(s.endTimeNanos(), seed, 1);
    if (sink != null) settings = settings.withCheckpoints(CheckpointPolicy.everyWindows(everyWindows), sink);
    if (from != null) settings = settings.resumingFrom(from);
    return Simulation.run(m.topology(), m.components(), settings);
  }

  /** The checkpoints of a whole run, every {@code everyWindows} windows. */
  static List<Checkpoint> checkpoints(Scenario s, long seed, long everyWindows) {
    List<Checkpoint> out = new ArrayList<>();
    run(s, seed, everyWindows, out::add, null);
    return out;
  }
}
