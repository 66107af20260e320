package io.tlogsim.journal;

import io.tlogsim.engine.scenario.Reference;
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
}
