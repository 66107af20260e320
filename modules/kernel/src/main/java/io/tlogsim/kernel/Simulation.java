package io.tlogsim.kernel;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.LoggerFactory;

/** Runs a topology of components to its end on a local actor system with the requested number of threads. */
public final class Simulation {
  private Simulation() {}

  public static RunOutcome run(Topology topo, List<SimComponent> models, RunSettings settings) {
    LoggerFactory.getILoggerFactory(); // logging up before Pekko's threads log (else SLF4J replays and warns)
    CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    ActorSystem<Clock.Command> system =
        ActorSystem.create(Clock.create(topo, models, settings, outcome), "tlogsim", config(settings.threads()));
    try {
      return outcome.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new SimulationException(String.valueOf(e.getCause()));
    } finally {
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

  /** The actor system of one run: {@code threads} dispatcher threads, quiet unless something is wrong. */
  static Config config(int threads) {
    return ConfigFactory.parseString(
            "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min = " + threads + "\n"
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = " + threads + "\n"
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-factor = 1.0\n")
        .withFallback(ConfigFactory.load());
  }
}
