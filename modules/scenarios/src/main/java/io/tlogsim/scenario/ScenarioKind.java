package io.tlogsim.scenario;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.Simulation;
import java.util.List;
import java.util.Map;

/** A family of scenarios sharing one model and one set of parameters, e.g. {@code gcm1}. */
public interface ScenarioKind {
  /** The value of {@code kind} in a scenario file. */
  String name();

  /**
   * The kinds this class serves, as {@code ScenarioKinds} finds them (a {@link java.util.ServiceLoader} provider of
   * this interface, one line in META-INF/services): itself; a class whose kinds differ only in their defaults
   * (application.conf, {@code tlogsim.kinds.NAME}) gives one per name.
   */
  default List<ScenarioKind> variants() {
    return List.of(this);
  }

  /** Every parameter the kind accepts; nothing else is allowed in a scenario of this kind. */
  List<ParamSpec> params();

  /**
   * A default a kind declares in code rather than in application.conf: its value, where it is declared ("flush policy
   * group-commit") and its source (REFERENCE.md, or "assumption"). Used where application.conf
   * ({@code tlogsim.kinds.KIND}) gives no value.
   */
  record Default(Object value, String origin, String source) {}

  /** Defaults declared in code (a registration's: a flush policy's settings), by key; none by default. */
  default Map<String, Default> defaults() {
    return Map.of();
  }

  /** Checks what single-key validation cannot (relations between keys); throws {@link BadInputException}. */
  default void validate(Params params) {}

  /**
   * The tables a run of this kind may keep ({@code tlogsim run --show}: {@link ScenarioResult#tables}), in the order a
   * user reads them; none by default.
   */
  default List<String> tables() {
    return List.of();
  }

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
