package io.tlogsim.engine.scenario;

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

  /** Runs the scenario to its end (blocking). */
  ScenarioResult run(String scenarioName, Params params, RunControl control);
}
