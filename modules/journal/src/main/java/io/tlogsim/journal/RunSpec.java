package io.tlogsim.journal;

import io.tlogsim.engine.scenario.BadInputException;
import io.tlogsim.engine.scenario.ParamSpec;
import io.tlogsim.engine.scenario.Params;
import io.tlogsim.engine.scenario.Reference;
import io.tlogsim.engine.scenario.Scenario;
import io.tlogsim.engine.scenario.ScenarioKind;
import io.tlogsim.kernel.CborSerializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run is, as the journal keeps it: everything needed to run it again from a checkpoint or to rebuild its
 * summary without the scenario file (which may have changed since).
 *
 * @param scenario the scenario's name (built-in name or file name without .conf)
 * @param kind the scenario kind, e.g. gcm1
 * @param params every parameter of the kind, after defaults and --set (the resolved configuration)
 * @param reference the published figures the run reproduces, or null
 * @param threads dispatcher threads asked for
 * @param commandLine the arguments the run was started with
 * @param provenance what the command line adds to summary.json (version, command line, file, overrides, ...)
 */
public record RunSpec(String runId, String scenario, String kind, String description, long seed,
    Map<String, Object> params, Reference reference, long endTimeNanos, int threads, TraceLevel trace,
    List<String> commandLine, Map<String, Object> provenance) implements CborSerializable {

  public RunSpec {
    params = new LinkedHashMap<>(params);
    commandLine = List.copyOf(commandLine);
    provenance = provenance == null ? new LinkedHashMap<>() : new LinkedHashMap<>(provenance);
  }

  /** The spec of a run of {@code scenario} about to start. */
  public static RunSpec of(String runId, Scenario scenario, long seed, int threads, TraceLevel trace,
      List<String> commandLine, Map<String, Object> provenance) {
    return new RunSpec(runId, scenario.name(), scenario.kind().name(), scenario.description(), seed,
        scenario.params().asMap(), scenario.reference(), scenario.endTimeNanos(), threads, trace, commandLine,
        provenance);
  }

  /**
   * The scenario as it was run, rebuilt from the journal alone (not from its file, which may have changed since).
   * Values come back from the journal's encoding as numbers of whatever width fits; each is given its parameter's
   * declared type again, so the rebuilt summary prints them as the live run did.
   */
  public Scenario scenario(List<ScenarioKind> kinds) {
    ScenarioKind k = kinds.stream().filter(x -> x.name().equals(kind)).findFirst().orElseThrow(() ->
        new BadInputException("run " + runId + ": its scenario kind '" + kind + "' is unknown to this version"));
    Map<String, Object> typed = new LinkedHashMap<>();
    for (ParamSpec p : k.params()) {
      Object v = params.get(p.key());
      if (v == null) {
        throw new BadInputException("run " + runId + ": the journal has no value for parameter '" + p.key()
            + "' of kind " + kind + " (stored by another version?)");
      }
      typed.put(p.key(), switch (p.type()) {
        case INT -> ((Number) v).intValue();
        case LONG -> ((Number) v).longValue();
        case DOUBLE -> ((Number) v).doubleValue();
        case BOOLEAN -> (Boolean) v;
        case CHOICE -> String.valueOf(v);
      });
    }
    return new Scenario(scenario, k, description, seed, new Params(typed), reference);
  }
}
