package io.tlogsim.journal;

import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.Reference;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioLoader;
import io.tlogsim.scenario.ScriptParser;
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
 * @param origins where each parameter's value came from
 * @param overrides the --set entries as given
 * @param source where the scenario was read ("built-in:NAME" or a file's absolute path)
 * @param reference the published figures the run reproduces, or null
 * @param droppedReference the published figures left out because --set changed the model, or null
 * @param threads dispatcher threads asked for
 * @param outDir where the run writes summary.json (a resume writes there too unless told otherwise)
 * @param commandLine the command as typed
 * @param provenance what the command line adds to summary.json (version, command line, file, overrides, ...)
 */
public record RunSpec(String runId, String scenario, String kind, String description, long seed, String seedOrigin,
    Map<String, Object> params, Map<String, String> origins, Map<String, String> overrides, String source,
    Reference reference, Scenario.DroppedReference droppedReference, long endTimeNanos, int threads,
    TraceLevel trace, String outDir, String commandLine, Map<String, Object> provenance) implements CborSerializable {

  public RunSpec {
    params = new LinkedHashMap<>(params);
    origins = origins == null ? new LinkedHashMap<>() : new LinkedHashMap<>(origins);
    overrides = overrides == null ? new LinkedHashMap<>() : new LinkedHashMap<>(overrides);
    provenance = provenance == null ? new LinkedHashMap<>() : new LinkedHashMap<>(provenance);
  }

  /** The spec of a run of {@code scenario} (its seed the run's) about to start. */
  public static RunSpec of(String runId, Scenario scenario, int threads, TraceLevel trace, String outDir,
      String commandLine, Map<String, Object> provenance) {
    return new RunSpec(runId, scenario.name(), scenario.kind().name(), scenario.description(), scenario.seed(),
        scenario.seedOrigin(), scenario.params().asMap(), scenario.origins(), scenario.overrides(), scenario.source(),
        scenario.reference(), scenario.droppedReference(), scenario.endTimeNanos(), threads, trace, outDir,
        commandLine, provenance);
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
    Map<String, Object> added = null; // parameters this version added since the run was stored: their defaults
    for (ParamSpec p : k.params()) {
      Object v = params.get(p.key());
      if (v == null) {
        if (added == null) {
          added = new LinkedHashMap<>();
          for (ScenarioLoader.ParamDefault d : new ScenarioLoader(kinds).defaults(k)) {
            if (d.value() != null) added.put(d.spec().key(), d.value());
          }
        }
        Object d = added.get(p.key());
        if (d == null) {
          throw new BadInputException("run " + runId + ": the journal has no value for parameter '" + p.key()
              + "' of kind " + kind + ", and this version has no default for it (stored by another version?)");
        }
        typed.put(p.key(), d); // already of the parameter's type
        continue;
      }
      typed.put(p.key(), switch (p.type()) {
        case INT -> ((Number) v).intValue();
        case LONG -> ((Number) v).longValue();
        case DOUBLE -> ((Number) v).doubleValue();
        case BOOLEAN -> (Boolean) v;
        case CHOICE -> String.valueOf(v);
        case SCRIPT -> ScriptParser.parse(p.key(), ConfigValueFactory.fromAnyRef(v, "run " + runId + " in the journal"),
            "");
      });
    }
    return new Scenario(scenario, k, description, seed, new Params(typed), reference, source, origins, seedOrigin,
        overrides, droppedReference);
  }
}
