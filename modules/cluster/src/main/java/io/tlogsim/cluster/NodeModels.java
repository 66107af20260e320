package io.tlogsim.cluster;

import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.SimComponent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs a node hosts components of: each run's prepared scenario, and one set of model objects per incarnation,
 * made once and shared by the node's component entities (each takes its own component).
 */
final class NodeModels {
  record Prepared(Scenario scenario, PreparedRun run) {}

  private static final Map<String, Prepared> PREPARED = new ConcurrentHashMap<>();
  private static final Map<String, List<SimComponent>> MODELS = new ConcurrentHashMap<>();

  private NodeModels() {}

  static Prepared prepared(RunSubmission spec) {
    return PREPARED.computeIfAbsent(spec.runId(), id -> {
      Scenario s = spec.scenario();
      return new Prepared(s, s.prepare(new RunControl(spec.seed(), 1, null)));
    });
  }

  /** The models of incarnation {@code epoch} (of the coordinator's incarnation {@code coordinator}) of a run. */
  static SimComponent model(RunSubmission spec, String incarnation, int component) {
    Prepared p = prepared(spec);
    List<SimComponent> models = MODELS.computeIfAbsent(spec.runId() + "#" + incarnation, k -> p.run().models());
    return models.get(component);
  }

  /** Incarnation {@code incarnation} of a run is given up (a component was lost): forget its models. */
  static void forget(RunSubmission spec, String incarnation) {
    MODELS.remove(spec.runId() + "#" + incarnation);
  }

  /** The run is over: forget it. */
  static void release(String runId) {
    PREPARED.remove(runId);
    MODELS.keySet().removeIf(k -> k.startsWith(runId + "#"));
  }
}
