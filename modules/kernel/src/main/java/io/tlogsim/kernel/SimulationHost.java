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
  private volatile CompletableFuture<RunOutcome> current; // the run under way, failed if the system stops
  private long runs;

  public SimulationHost(int threads) {
    LoggerFactory.getILoggerFactory(); // as Simulation.run: logging up before Pekko's threads log
    system = ActorSystem.create(Behaviors.empty(), "tlogsim-host", Simulation.config(threads));
    system.getWhenTerminated().whenComplete((done, error) -> {
      CompletableFuture<RunOutcome> run = current;
      if (run != null) run.completeExceptionally(new SimulationException("the host's actor system stopped"));
    });
  }

  /** Runs to the end, as {@link Simulation#run(Topology, List, RunSettings)}; one run at a time. */
  public synchronized RunOutcome run(Topology topo, List<SimComponent> models, RunSettings settings) {
    Simulation.check(topo, settings.restoreFrom());
    CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    current = outcome;
    if (system.whenTerminated().isCompleted()) throw new SimulationException("the host's actor system stopped");
    system.systemActorOf(Clock.create(topo, new LocalPlacement(topo, Simulation.once(models), settings), settings,
        outcome), "run-" + (++runs), Props.empty());
    try {
      return Simulation.await(outcome); // the clock stops itself, and its components with it, once this is known
    } finally {
      current = null;
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
