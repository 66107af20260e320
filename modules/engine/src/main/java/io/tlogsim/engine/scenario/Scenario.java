package io.tlogsim.engine.scenario;

/**
 * A scenario ready to run: its name (built-in name or file), kind, description, default seed and validated
 * parameters.
 */
public record Scenario(String name, ScenarioKind kind, String description, long seed, Params params) {

  public long endTimeNanos() {
    return kind.endTimeNanos(params);
  }

  public ScenarioResult run(RunControl control) {
    return kind.run(name, params, control);
  }
}
