package io.tlogsim.kernel;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.LoggerFactory;

/**
 * One actor system for many short runs, one after another (a test over a thousand seeds, a sweep of small runs): each
 * run's clock is spawned in it, instead of each run starting and stopping an actor system of its own, which costs
 * a good part of a second. Every run uses the host's threads, whatever its settings ask for; the result of a run is
 * the same as with {@link Simulation#run}.
 */
public final class SimulationHost implements AutoCloseable {
  private final ActorSystem<Void> system;
  private long runs;

  public SimulationHost(int threads) {
    LoggerFactory.getILoggerFactory(); // as Simulation.run: logging up before Pekko's threads log
    system = ActorSystem.create(Behaviors.empty(), "tlogsim-host", Simulation.config(threads));
  }

  /** Runs to the end, as {@link Simulation#run(Topology, List, RunSettings)}. */
  public RunOutcome run(Topology topo, List<SimComponent> models, RunSettings settings) {
    Simulation.check(topo, settings.restoreFrom());
    List<SimComponent> once = List.copyOf(models);
    boolean[] used = {false};
    Placement placement = new LocalPlacement(topo, () -> {
      if (used[0]) throw new SimulationException("a component was lost and this run cannot rebuild its models");
      used[0] = true;
      return once;
    }, settings);
    CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    system.getWhenTerminated().whenComplete((done, error) -> outcome.completeExceptionally(
        new SimulationException("the host's actor system stopped before the run ended")));
    system.systemActorOf(Clock.create(topo, placement, settings, outcome), "run-" + (++runs), Props.empty());
    try {
      return outcome.get(); // the clock stops itself, and its components with it, once the outcome is known
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new SimulationException(String.valueOf(e.getCause()));
    }
  }

  @Override
  public void close() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException ignored) {
      // shutting down anyway
    }
  }
}
