package io.tlogsim.cluster;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.engine.scenario.BadInputException;
import io.tlogsim.engine.scenario.ScenarioResult;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.SimulationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Submits a run to a running cluster ({@code tlogsim run <scenario> --cluster host:port}): joins as a client that
 * hosts nothing, hands the run to its coordinator, follows its progress, and returns its result. If the coordinator's
 * node is lost, submits again: the run goes on on another node (from its last checkpoint when the nodes share a
 * journal, else from the beginning).
 */
public final class ClusterSubmit {
  /** How long to wait for the cluster to take this client in. */
  static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RESUBMIT_AFTER = Duration.ofSeconds(1);

  private ClusterSubmit() {}

  /**
   * A cluster run's result; {@code journal} names the cluster's journal that recorded it (null: none); {@code facts}
   * are the run's interval facts (the report's series) in the clock's order, {@code components} the names by id.
   */
  public record Result(Map<String, Object> summary, List<String> humanLines, Map<String, Histogram> histograms,
      String journal, List<RecordedFact> facts, List<String> components) implements ScenarioResult {}

  /** What the submitter hands back: the coordinator's last word and the facts it sent before it. */
  private record Ended(RunEvent.Done done, List<RecordedFact> facts) {}

  /** Runs {@code spec} on the cluster reached through {@code contact} ("host:port"); blocks until it ends. */
  public static Result run(String contact, RunSpec spec, AtomicLong progress) {
    return run(contact, spec, progress, e -> {});
  }

  /** As {@link #run(String, RunSpec, AtomicLong)}, telling {@code observer} every event of the run as it comes. */
  public static Result run(String contact, RunSpec spec, AtomicLong progress,
      java.util.function.Consumer<RunEvent> observer) {
    CompletableFuture<Ended> done = new CompletableFuture<>();
    ActorSystem<Object> system = ActorSystem.create(submitter(spec, done, progress, observer), ClusterNode.SYSTEM,
        ClusterNode.config(ConfigFactory.empty(), "127.0.0.1", 0, List.of(contact), ClusterNode.CLIENT));
    try {
      Ended ended = done.get();
      RunEvent.Done d = ended.done();
      Map<String, Object> summary = new JsonMapper().readValue(d.summaryJson(), new TypeReference<LinkedHashMap<String, Object>>() {});
      Map<String, Histogram> histograms = new LinkedHashMap<>();
      d.histograms().forEach((name, bytes) -> histograms.put(name, Histograms.decode(bytes)));
      return new Result(summary, d.lines(), histograms, d.journal(), ended.facts(), d.components());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new SimulationException(String.valueOf(e.getCause()));
    } catch (java.io.IOException e) {
      throw new SimulationException("the cluster sent a summary that cannot be read: " + e.getMessage());
    } finally {
      system.terminate(); // leaves the cluster first (coordinated shutdown)
      try {
        system.getWhenTerminated().toCompletableFuture().get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException ignored) {
        // leaving anyway
      }
    }
  }

  private record Joined() {}

  private record JoinTimedOut() {}

  private record CoordinatorLost() {}

  private record Resubmit() {}

  private static Behavior<Object> submitter(RunSpec spec, CompletableFuture<Ended> done, AtomicLong progress,
      java.util.function.Consumer<RunEvent> observer) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ActorRef<SelfUp> upAdapter = ctx.messageAdapter(SelfUp.class, up -> new Joined());
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(upAdapter, SelfUp.class));
      timers.startSingleTimer(new JoinTimedOut(), JOIN_TIMEOUT);
      ActorRef<RunEvent> events = ctx.messageAdapter(RunEvent.class, e -> {
        observer.accept(e);
        return e;
      });
      ClusterSharding sharding = ClusterSharding.get(ctx.getSystem());
      Runnable submit = () -> sharding.entityRefFor(RunEntity.TYPE, spec.runId()).tell(new RunEntity.Start(spec, events));
      boolean[] joined = {false};
      // by (window, part): a window sent again after a roll-back or by a new coordinator replaces what came before
      TreeMap<Long, TreeMap<Integer, List<RecordedFact>>> facts = new TreeMap<>();
      return Behaviors.receive(Object.class)
          .onMessage(Joined.class, j -> {
            joined[0] = true;
            timers.cancel(new JoinTimedOut());
            sharding.init(Entity.of(RunEntity.TYPE, ec -> RunEntity.create(null)).withRole(ClusterNode.NODE));
            sharding.init(Entity.of(ComponentEntity.TYPE, ec -> ComponentEntity.create()).withRole(ClusterNode.NODE)
                .withMessageExtractor(new ClusterNode.OneShardPerEntity<>()));
            submit.run();
            return Behaviors.same();
          })
          .onMessage(JoinTimedOut.class, t -> {
            if (!joined[0]) {
              done.completeExceptionally(new BadInputException("--cluster: no cluster answered at "
                  + contactOf(ctx.getSystem()) + " within " + JOIN_TIMEOUT.toSeconds() + " s (is a node running there? see deploy/local-cluster.sh)"));
            }
            return Behaviors.same();
          })
          .onMessage(RunEvent.Accepted.class, a -> {
            ctx.watchWith(a.coordinator(), new CoordinatorLost());
            return Behaviors.same();
          })
          .onMessage(RunEvent.Progress.class, p -> {
            if (progress != null) progress.set(p.reachedNanos());
            return Behaviors.same();
          })
          .onMessage(RunEvent.Facts.class, f -> {
            facts.computeIfAbsent(f.window(), w -> new TreeMap<>()).put(f.part(), f.facts());
            return Behaviors.same();
          })
          .onMessage(RunEvent.RolledBack.class, b -> {
            facts.tailMap(b.window(), true).clear();
            return Behaviors.same();
          })
          .onMessage(RunEvent.Done.class, d -> {
            List<RecordedFact> all = new ArrayList<>();
            facts.values().forEach(parts -> parts.values().forEach(all::addAll));
            done.complete(new Ended(d, all));
            return Behaviors.same();
          })
          .onMessage(RunEvent.Failed.class, f -> {
            done.completeExceptionally(f.badInput() ? new BadInputException(f.reason())
                : new SimulationException(f.reason()));
            return Behaviors.same();
          })
          .onMessage(CoordinatorLost.class, l -> {
            if (!done.isDone()) {
              ctx.getLog().warn("the run's coordinator was lost; submitting {} again", spec.runId());
              timers.startSingleTimer(new Resubmit(), RESUBMIT_AFTER);
            }
            return Behaviors.same();
          })
          .onMessage(Resubmit.class, r -> {
            submit.run();
            return Behaviors.same();
          })
          .build();
    }));
  }

  private static String contactOf(ActorSystem<?> system) {
    List<String> seeds = system.settings().config().getStringList("pekko.cluster.seed-nodes");
    return seeds.isEmpty() ? "?" : seeds.get(0).replaceFirst("^pekko://[^@]*@", "");
  }
}
