package io.tlogsim.kernel;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/** Runs a topology of components to its end in this process, on the requested number of threads. */
public final class Simulation {
  private Simulation() {}

  /**
   * Runs to the end and returns the outcome, or throws {@link SimulationException} with one line naming what failed.
   * Never waits forever: if the actor system stops before the run ends, the run fails.
   */
  public static RunOutcome run(Topology topo, List<SimComponent> models, RunSettings settings) {
    return run(topo, once(models), settings);
  }

  /** The models, once: a run given model objects cannot rebuild them should a component be lost. */
  static Supplier<List<SimComponent>> once(List<SimComponent> models) {
    List<SimComponent> copy = List.copyOf(models);
    boolean[] used = {false};
    return () -> {
      if (used[0]) throw new SimulationException("a component was lost and this run cannot rebuild its models");
      used[0] = true;
      return copy;
    };
  }

  /**
   * As {@link #run(Topology, List, RunSettings)}, with a supplier of fresh model objects: should a component be lost,
   * every component starts again from the last checkpoint in new objects.
   */
  public static RunOutcome run(Topology topo, Supplier<List<SimComponent>> models, RunSettings settings) {
    return run(topo, new LocalPlacement(topo, models, settings), settings);
  }

  /**
   * Runs with the given placement of the components' actors, in the process's shared host
   * ({@link SimulationHost#shared}): on a dispatcher of its own with the threads the settings ask for.
   */
  public static RunOutcome run(Topology topo, Placement placement, RunSettings settings) {
    return SimulationHost.shared().run(topo, placement, settings);
  }

  /**
   * Waits for a run's outcome (or any result of a run, e.g. one a cluster sends back); its failure is thrown as it is
   * (one line), or as a {@link SimulationException}.
   */
  public static <T> T await(CompletableFuture<T> outcome) {
    try {
      return outcome.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new SimulationException(String.valueOf(e.getCause()));
    }
  }

  /** Refuses a checkpoint that is not a consistent cut of this topology. */
  static void check(Topology topo, Checkpoint cp) {
    if (cp == null) return;
    List<String> wrong = cp.inconsistencies(topo);
    if (!wrong.isEmpty()) {
      throw new SimulationException("the checkpoint of window " + cp.window() + " does not fit this run: "
          + wrong.get(0) + (wrong.size() > 1 ? " (and " + (wrong.size() - 1) + " more)" : ""));
    }
  }

}
