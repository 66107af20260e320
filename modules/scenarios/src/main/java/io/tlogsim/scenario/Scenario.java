package io.tlogsim.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario ready to run: its name (built-in name or file), kind, description, seed, validated parameters, and the
 * published figures it reproduces ({@code reference}, null if none or if --set changed the model so that they no
 * longer apply; then {@code droppedReference} says which keys changed it).
 *
 * @param source where it was read: "built-in:NAME" or the file's absolute path
 * @param origins for each parameter, where its value comes from ("default, application.conf:8",
 *     "scenario, mine.conf:4", "--set")
 * @param seedOrigin where the seed comes from ("default", "scenario, gcm1.conf:4", "--set", "--seed")
 * @param overrides the --set entries as given
 */
public record Scenario(String name, ScenarioKind kind, String description, long seed, Params params,
    Reference reference, String source, Map<String, String> origins, String seedOrigin, Map<String, String> overrides,
    DroppedReference droppedReference) {

  /** Published figures left out because --set changed the model: which keys changed it. */
  public record DroppedReference(String source, List<String> changedKeys) {
    public DroppedReference {
      changedKeys = List.copyOf(changedKeys);
    }

    /** What the user reads: the keys that changed the model (one line unless they are many). */
    public List<String> lines() {
      return Text.paragraph("reference", "dropped: --set " + String.join(", ", changedKeys)
          + (changedKeys.size() == 1 ? " changes" : " change") + " the model");
    }

    /** What summary.json says under {@code referenceDropped}. */
    public Map<String, Object> toSummary() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("source", source);
      m.put("changedKeys", changedKeys);
      return m;
    }
  }

  public long endTimeNanos() {
    return kind.endTimeNanos(params);
  }

  /** The same scenario with the seed the user gave ({@code --seed}). */
  public Scenario withSeed(long newSeed, String origin) {
    return new Scenario(name, kind, description, newSeed, params, reference, source, origins, origin, overrides,
        droppedReference);
  }

  /** Runs it; the published figures, if any, are added beside the simulated ones (or why they are not). */
  public ScenarioResult run(RunControl control) {
    return complete(kind.run(name, params, control));
  }

  /** Its components and how to read its result, to be run elsewhere (a cluster); finish with {@link #complete}. */
  public PreparedRun prepare(RunControl control) {
    return kind.prepare(name, params, control);
  }

  /** The kind's result with the published figures beside the simulated ones (or why they are not there). */
  public ScenarioResult complete(ScenarioResult result) {
    for (String table : result.tables().keySet()) { // --show refuses a table no kind names
      if (!kind.tables().contains(table)) {
        throw new IllegalStateException("kind " + kind.name() + " kept table " + table + ", which its tables() does"
            + " not name");
      }
    }
    Map<String, Object> summary = result.summary();
    List<String> lines = new ArrayList<>(result.humanLines());
    if (reference != null) {
      summary = reference.addTo(summary);
      lines.addAll(reference.lines(summary));
    } else if (droppedReference != null) {
      summary = new LinkedHashMap<>(summary);
      summary.put("referenceDropped", droppedReference.toSummary());
      lines.addAll(droppedReference.lines());
    }
    return ScenarioResult.Of.from(result).withSummary(summary, lines);
  }
}
