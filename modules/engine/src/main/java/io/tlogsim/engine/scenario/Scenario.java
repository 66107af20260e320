package io.tlogsim.engine.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A scenario ready to run: its name (built-in name or file), kind, description, default seed, validated
 * parameters, and the published figures it reproduces ({@code reference}, null if none or if --set changed the
 * model so that they no longer apply).
 */
public record Scenario(String name, ScenarioKind kind, String description, long seed, Params params,
    Reference reference) {

  public long endTimeNanos() {
    return kind.endTimeNanos(params);
  }

  /** Runs it; the published figures, if any, are added beside the simulated ones. */
  public ScenarioResult run(RunControl control) {
    ScenarioResult result = kind.run(name, params, control);
    if (reference == null) return result;
    Map<String, Object> summary = reference.addTo(result.summary());
    List<String> lines = new ArrayList<>(result.humanLines());
    lines.addAll(reference.lines(summary));
    return new Result(summary, lines);
  }

  private record Result(Map<String, Object> summary, List<String> humanLines) implements ScenarioResult {}
}
