package io.tlogsim.scenario;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.Simulation;
import java.util.List;

/** A family of scenarios sharing one model and one set of parameters, e.g. {@code gcm1}. */
public interface ScenarioKind {
  /** The value of {@code kind} in a scenario file. */
  String name();

  /** Every parameter the kind accepts; nothing else is allowed in a scenario of this kind. */
  List<ParamSpec> params();

  /** Checks what single-key validation cannot (relations between keys); throws {@link BadInputException}. */
  default void validate(Params params) {}

  /** Simulated nanoseconds the run will cover, for progress bars. */
  long endTimeNanos(Params params);

  /**
   * The run's components and links and how to read its result: what both a local run ({@link #run}) and a clustered
   * one need. Builds nothing that depends on where it runs.
   */
  PreparedRun prepare(String scenarioName, Params params, RunControl control);

  /** Runs the scenario to its end here (blocking). */
  default ScenarioResult run(String scenarioName, Params params, RunControl control) {
    PreparedRun run = prepare(scenarioName, params, control);
    RunOutcome out = Simulation.run(run.topology(), run::models, control.settings(endTimeNanos(params)));
    return run.result(out);
  }
}
