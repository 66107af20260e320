package io.tlogsim.cli;

import io.tlogsim.journal.RunSpec;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where {@code run --branch <run-id> --at T --set key=value...} leaves its parent: the parent's scenario with the
 * changed settings, checked to be settings that can change mid-run. A branch's components are the parent's, restored
 * from its state at T, so what fixes the components, their links or the shape of their state cannot change: the keys
 * below are refused by name, and so is any other whose change gives another topology or a state the new components
 * cannot take (tried before anything is written).
 */
final class BranchPoint {
  private BranchPoint() {}

  /**
   * Keys that fix the topology or the shape of a component's state (sessions and pools, devices and files, the
   * script, the host's cores), or the run's own time frame (its end, warm-up, seed, planned crash).
   */
  static final Set<String> FIXED = Set.of("simulatedSeconds", "warmupSeconds", "seed", "sessions", "sessionsPerPool",
      "script", "cores", "arrivalRate", "logFiles", "logDevices", "logDevice", "dataDevice", "dataOnLogDevice",
      "backupDevice", "raidLevel", "raidMembers", "raidMemberDevice", "premiumTier", "tableRows", "rowsPerPage",
      "dataPageBytes", "logBuffers", "crashAtSeconds", "crashRandomSeconds", "replicationIntervalSeconds",
      "replicationReader", "recoveryModel", "sqlServerVersion", "logSizeMB", "firstFseqNo", "host");

  /** The parent's scenario (as it was resolved, its seed) with {@code sets}; bad input for a key that is fixed. */
  static Scenario scenario(RunSpec parent, Scenario parentScenario, Map<String, String> sets) {
    if (sets.isEmpty()) {
      throw new BadInputException("run --branch: give the settings that change with --set key=value (e.g. --set "
          + "flushPolicy=group-commit)");
    }
    for (String key : sets.keySet()) {
      if (FIXED.contains(key)) {
        throw BadInputException.about(key, "cannot change mid-run (it fixes the run's components or their state);"
            + " a branch keeps its parent's");
      }
    }
    Map<String, String> overrides = new LinkedHashMap<>(parent.overrides());
    overrides.putAll(sets);
    String source = parent.source();
    String nameOrFile = source != null && source.startsWith("built-in:") ? source.substring("built-in:".length())
        : source;
    Scenario loaded;
    try {
      loaded = ScenarioKinds.loader().load(nameOrFile, overrides).withSeed(parent.seed(), parent.seedOrigin());
    } catch (BadInputException e) {
      throw e.getMessage().startsWith("--set") || sets.keySet().stream().anyMatch(k -> e.getMessage().startsWith(k))
          ? e : new BadInputException("run --branch: the parent's scenario " + source + " cannot be loaded again ("
          + e.getMessage() + ")");
    }
    Map<String, Object> was = parentScenario.params().asMap(), now = loaded.params().asMap();
    for (Map.Entry<String, Object> e : was.entrySet()) {
      if (sets.containsKey(e.getKey())) continue;
      if (!Objects.equals(String.valueOf(e.getValue()), String.valueOf(now.get(e.getKey())))) {
        throw new BadInputException("run --branch: " + e.getKey() + " of the parent's scenario " + source
            + " is " + now.get(e.getKey()) + " now, " + e.getValue() + " when the parent ran (its file changed?)");
      }
    }
    return loaded;
  }

  /**
   * The branch's components must be the parent's (names and links) and take the parent's state at T; bad input
   * naming the changed keys otherwise. Nothing is run.
   */
  static void check(Scenario parentScenario, Scenario branch, Checkpoint atT, Map<String, String> sets, long seed,
      int threads) {
    RunControl control = new RunControl(seed, threads, null);
    Topology was = parentScenario.prepare(control).topology();
    PreparedRun prepared = branch.prepare(control);
    Topology now = prepared.topology();
    String keys = String.join(", ", sets.keySet());
    if (!sameShape(was, now)) {
      throw new BadInputException("--set " + keys + ": cannot change mid-run: the branch's components or links would"
          + " not be its parent's");
    }
    List<SimComponent> models = prepared.models();
    for (int i = 0; i < models.size(); i++) {
      try {
        models.get(i).restore(atT.components().get(i).model());
      } catch (RuntimeException e) {
        throw new BadInputException("--set " + keys + ": cannot change mid-run: " + now.name(i) + " cannot take"
            + " its parent's state (" + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()) + ")");
      }
    }
    List<String> misfit = atT.inconsistencies(now);
    if (!misfit.isEmpty()) {
      throw new BadInputException("--set " + keys + ": cannot change mid-run: " + misfit.get(0));
    }
  }

  private static boolean sameShape(Topology a, Topology b) {
    if (a.components() != b.components() || a.links() != b.links()) return false;
    for (int i = 0; i < a.components(); i++) {
      if (!a.name(i).equals(b.name(i)) || a.ports(i) != b.ports(i)) return false;
    }
    for (int l = 0; l < a.links(); l++) {
      if (a.from(l) != b.from(l) || a.to(l) != b.to(l) || a.port(l) != b.port(l)) return false;
    }
    return true;
  }
}
