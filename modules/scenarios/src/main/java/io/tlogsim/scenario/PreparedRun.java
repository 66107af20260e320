package io.tlogsim.scenario;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import java.util.List;

/**
 * A scenario made ready to run: its components and links, and how to read the finished run. The kernel runs it here
 * or over a cluster (each node makes the models of the components it hosts); either way the result comes from the
 * components' results through {@link #result}.
 */
public interface PreparedRun {
  Topology topology();

  /**
   * Model objects for every component, in component-id order. Each call gives fresh objects: should a component be
   * lost, every component starts again from the last checkpoint in new ones.
   */
  List<SimComponent> models();

  /** The summary and text of the finished run. */
  ScenarioResult result(RunOutcome outcome);
}
