package io.tlogsim.cluster;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioLoader;
import io.tlogsim.kernel.CborSerializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything a node needs to make the same scenario as the submitter: the scenario's name and source, the file's text
 * when it is not a built-in (nodes need not share files), the --set overrides and the seed. Every node runs the same
 * tlogsim version, so the same spec gives the same topology and models everywhere.
 *
 * <p>What the cluster's journal records beside it (null when unknown): the command line as typed, the submitter's
 * output directory, and summary.json's {@code provenance} as JSON text.
 */
public record RunSubmission(String runId, String scenarioName, String source, String text, Map<String, String> overrides,
    long seed, String seedOrigin, String commandLine, String outDir, String provenanceJson)
    implements CborSerializable {

  public RunSubmission {
    overrides = new LinkedHashMap<>(overrides);
  }

  /** A spec without what only a journal needs. */
  public RunSubmission(String runId, String scenarioName, String source, String text, Map<String, String> overrides,
      long seed, String seedOrigin) {
    this(runId, scenarioName, source, text, overrides, seed, seedOrigin, null, null, null);
  }

  /** The spec of {@code s} (a file's text travels with it), without what only a journal needs. */
  public static RunSubmission of(String runId, Scenario s) {
    return new RunSubmission(runId, s.name(), s.source(), textOf(s), s.overrides(), s.seed(), s.seedOrigin());
  }

  /** A scenario file's text, which nodes need (they need not share files); null for a built-in. */
  public static String textOf(Scenario s) {
    if (s.source().startsWith("built-in:")) return null;
    try {
      return java.nio.file.Files.readString(java.nio.file.Path.of(s.source()));
    } catch (java.io.IOException e) {
      throw new BadInputException("scenario file " + s.source() + " cannot be read: " + e.getMessage());
    }
  }

  public Scenario scenario() {
    ScenarioLoader loader = ScenarioKinds.loader();
    Scenario s = text == null ? loader.load(scenarioName, overrides)
        : loader.loadText(scenarioName, source, text, overrides);
    return s.withSeed(seed, seedOrigin);
  }
}
