package io.tlogsim.cluster;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.SimulationException;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Submits runs to a running cluster ({@code tlogsim run <scenario> --cluster host:port}, and a sweep's runs): joins as
 * a client that hosts nothing, hands each run to its coordinator, follows its progress, and returns its result. If the
 * coordinator's node is lost, submits again: the run goes on on another node (from its last checkpoint when the nodes
 * share a journal, else from the beginning).
 */
public final class ClusterSubmit {
  /** How long to wait for the cluster to take this client in. */
  static final Duration JOIN_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RESUBMIT_AFTER = Duration.ofSeconds(1);
  /**
   * A Start sent just as the coordinator's node is lost can be routed to that node and vanish, leaving nothing to
   * watch: a run not accepted after this long is submitted again.
   */
  private static final Duration ASK_AGAIN_AFTER = Duration.ofSeconds(10);

  private ClusterSubmit() {}

  /**
   * A cluster run's result; {@code journal} names the cluster's journal that recorded it (null: none); {@code facts}
   * are the run's interval facts (the report's series) in the clock's order, {@code components} the names by id.
   */
  public record Result(Map<String, Object> summary, List<String> humanLines, Map<String, Histogram> histograms,
      String journal, List<RecordedFact> facts, List<String> components) implements ScenarioResult {}

  /** What the submitter hands back: the coordinator's last word and the facts it sent before it. */
  private record Ended(RunUpdate.Done done, List<RecordedFact> facts) {}

  /**
   * Runs {@code spec} on the cluster reached through {@code contact} ("host:port"), which {@code keys} let this
   * process into; blocks until it ends.
   */
  public static Result run(String contact, ClusterKeys keys, RunSubmission spec, AtomicLong progress) {
    return run(contact, keys, spec, progress, e -> {});
  }

  /** As {@link #run(String, ClusterKeys, RunSubmission, AtomicLong)}, telling {@code observer} every event as it comes. */
  public static Result run(String contact, ClusterKeys keys, RunSubmission spec, AtomicLong progress,
      Consumer<RunUpdate> observer) {
    try (Client client = Client.join(contact, keys)) {
      return client.run(RunCoordinator.TYPE, spec.runId(), spec, progress, observer);
    }
  }

  /**
   * A member of the cluster that hosts nothing and submits runs: joined once (joining takes seconds), then as many
   * runs as wanted, at once or one after another, each followed by a submitter of its own.
   */
  public static final class Client implements AutoCloseable {
    private final ActorSystem<Object> system;
    // what callers wait for, each with why it fails should this member stop first: one callback for all of them
    // (one per run would keep every finished run's result alive as long as the client)
    private final Map<CompletableFuture<?>, String> waiting = new ConcurrentHashMap<>();

    private Client(ActorSystem<Object> system) {
      this.system = system;
      Runnable stopped = () -> waiting.forEach((f, why) -> f.completeExceptionally(new SimulationException(why)));
      system.getWhenTerminated().thenRun(stopped);
      // also as coordinated shutdown (downed by the cluster, say) comes to the system's end: the system itself may
      // never end (close)
      CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
          "fail-waiting-callers", () -> {
            stopped.run();
            return CompletableFuture.completedFuture(org.apache.pekko.Done.getInstance());
          });
    }

    /**
     * Joins the cluster reached through {@code contact} ("host:port") with its {@code keys}; no answer within 30 s
     * (no node there, or keys it does not accept) is bad input.
     */
    public static Client join(String contact, ClusterKeys keys) {
      return join(contact, keys, JOIN_TIMEOUT);
    }

    /**
     * The address this client announces: the one this machine's routes use to reach {@code contact} ("host:port"), so
     * that every node can answer it (127.0.0.1 for a cluster on this machine, this machine's address on the nodes'
     * network for one elsewhere); 127.0.0.1 when no route says (the join then fails in one line as before). A
     * connected UDP socket sends nothing: it only asks the routing table.
     */
    static String addressToward(String contact) {
      int colon = contact.lastIndexOf(':');
      String host = colon > 0 ? contact.substring(0, colon) : contact;
      try (DatagramSocket probe = new DatagramSocket()) {
        InetAddress to = null;
        for (InetAddress a : InetAddress.getAllByName(host)) { // IPv4 first: a node's canonical address is one
          if (to == null || a instanceof java.net.Inet4Address && !(to instanceof java.net.Inet4Address)) to = a;
        }
        probe.connect(to, 9);
        InetAddress local = probe.getLocalAddress();
        boolean usable = local != null && !local.isAnyLocalAddress() && !local.isLinkLocalAddress();
        return usable ? local.getHostAddress() : "127.0.0.1";
      } catch (IOException | RuntimeException e) {
        return "127.0.0.1";
      }
    }

    static Client join(String contact, ClusterKeys keys, Duration timeout) {
      CompletableFuture<Void> joined = new CompletableFuture<>();
      ActorSystem<Object> system = ActorSystem.create(guardian(joined, timeout), ClusterNode.SYSTEM,
          ClusterNode.config(ConfigFactory.empty(), addressToward(contact), 0, List.of(contact), ClusterNode.CLIENT,
              keys));
      Client client = new Client(system);
      try {
        client.unlessStopped(joined, "the cluster at " + contact + " did not take this client in (it left before"
            + " joining)");
        return client;
      } catch (RuntimeException e) {
        client.close();
        throw e;
      }
    }

    /** This member's actor system (for tests). */
    ActorSystem<Object> system() {
      return system;
    }

    /** The nodes (members with role node) that are up, as this client sees them now. */
    public int nodes() {
      return nodesUp(system);
    }

    /**
     * Runs {@code spec} through the coordinator entity {@code entityId} of {@code type}; blocks until it ends. If the
     * coordinator's node is lost, submits it again.
     */
    public Result run(EntityTypeKey<RunCoordinator.Command> type, String entityId, RunSubmission spec, AtomicLong progress,
        Consumer<RunUpdate> observer) {
      CompletableFuture<Ended> done = new CompletableFuture<>();
      system.tell(new Submit(type, entityId, spec, done, progress, observer));
      Ended ended = unlessStopped(done, "this client left the cluster (was it downed?) before run "
          + spec.runId() + " ended");
      RunUpdate.Done d = ended.done();
      try {
        Map<String, Object> summary = new JsonMapper().readValue(d.summaryJson(),
            new TypeReference<LinkedHashMap<String, Object>>() {});
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        d.histograms().forEach((name, bytes) -> histograms.put(name, HistogramWire.decode(bytes)));
        return new Result(summary, d.lines(), histograms, d.journal(), ended.facts(), d.components());
      } catch (java.io.IOException e) {
        throw new SimulationException("the cluster sent a summary that cannot be read: " + e.getMessage());
      }
    }

    /**
     * Waits for {@code f}; should this member stop first (downed by the cluster, say), fails with {@code why} rather
     * than waiting for ever.
     */
    private <T> T unlessStopped(CompletableFuture<T> f, String why) {
      waiting.put(f, why);
      try {
        if (system.whenTerminated().isCompleted() || CoordinatedShutdown.get(system).getShutdownReason().isPresent()) {
          f.completeExceptionally(new SimulationException(why)); // stopped, or stopping
        }
        return Simulation.await(f);
      } finally {
        waiting.remove(f);
      }
    }

    /**
     * Leaves the cluster (coordinated shutdown) and waits until this member has stopped, or until coordinated shutdown
     * has run its last phase, whichever comes first: every phase has a timeout, so this returns.
     *
     * <p>Why not wait for the system alone: in the loopback tests a client whose gossip listed a member already gone
     * (the client before it, still Exiting; a node killed), one it never shook hands with, at times never stopped: its
     * remoting flushed, then went on waiting for its streams to end (Pekko 1.7's Artery waits for them without a
     * deadline: apache/pekko#3247, bounded only in 2.0 by shutdown-streams-timeout), and {@code run} returned the
     * run's result only after that, that is never. By coordinated shutdown's end this client has left the cluster; its
     * remoting, should it still be stopping, holds daemon threads only ({@link ClusterNode#config}).
     */
    @Override
    public void close() {
      CompletableFuture<?> shutDown = CoordinatedShutdown.get(system)
          .runAll(CoordinatedShutdown.actorSystemTerminateReason()).toCompletableFuture(); // what terminate() runs
      system.terminate();
      try {
        CompletableFuture.anyOf(system.getWhenTerminated().toCompletableFuture(), shutDown).get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException ignored) {
        // leaving anyway
      }
    }
  }

  private record Joined() {}

  private record JoinTimedOut() {}

  /** A run to submit (local only: never crosses the wire). */
  private record Submit(EntityTypeKey<RunCoordinator.Command> type, String entityId, RunSubmission spec,
      CompletableFuture<Ended> done, AtomicLong progress, Consumer<RunUpdate> observer) {}

  /** The client's guardian: joins, then starts a submitter per run. */
  private static Behavior<Object> guardian(CompletableFuture<Void> joined, Duration timeout) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ActorRef<SelfUp> upAdapter = ctx.messageAdapter(SelfUp.class, up -> new Joined());
      Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(upAdapter, SelfUp.class));
      timers.startSingleTimer(new JoinTimedOut(), timeout);
      return Behaviors.receive(Object.class)
          .onMessage(Joined.class, j -> {
            timers.cancel(new JoinTimedOut());
            ClusterNode.initSharding(ctx.getSystem(), null); // proxies only: runs live on nodes
            joined.complete(null);
            return Behaviors.same();
          })
          .onMessage(JoinTimedOut.class, t -> {
            joined.completeExceptionally(new BadInputException("--cluster: no cluster answered at "
                + contactOf(ctx.getSystem()) + " within " + timeout.toSeconds()
                + " s (is a node running there, and does it have this client's keys? see deploy/local-cluster.sh,"
                + " docs/security.md)"));
            return Behaviors.same();
          })
          .onMessage(Submit.class, s -> {
            ctx.spawnAnonymous(submitter(s));
            return Behaviors.same();
          })
          .build();
    }));
  }

  private record CoordinatorLost() {}

  private record Resubmit() {}

  private record AskAgain() {}

  /** Hands one run to its coordinator and follows it to its end; submits it again if the coordinator is lost. */
  private static Behavior<Object> submitter(Submit run) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ActorRef<RunUpdate> events = ctx.messageAdapter(RunUpdate.class, e -> {
        run.observer().accept(e);
        return e;
      });
      EntityRef<RunCoordinator.Command> coordinator =
          ClusterSharding.get(ctx.getSystem()).entityRefFor(run.type(), run.entityId());
      Runnable submit = () -> {
        coordinator.tell(new RunCoordinator.Start(run.spec(), events));
        timers.startSingleTimer(new AskAgain(), ASK_AGAIN_AFTER);
      };
      submit.run();
      Set<ActorRef<RunCoordinator.Command>> watched = new HashSet<>();
      long[] noNodeSince = {-1};
      // by (window, part): a window sent again after a roll-back or by a new coordinator replaces what came before
      TreeMap<Long, TreeMap<Integer, List<RecordedFact>>> facts = new TreeMap<>();
      return Behaviors.receive(Object.class)
          .onMessage(RunUpdate.Accepted.class, a -> {
            timers.cancel(new AskAgain());
            if (watched.add(a.coordinator())) ctx.watchWith(a.coordinator(), new CoordinatorLost());
            return Behaviors.same();
          })
          .onMessage(AskAgain.class, r -> {
            if (nodesUp(ctx.getSystem()) > 0) {
              noNodeSince[0] = -1;
            } else if (noNodeSince[0] < 0) {
              noNodeSince[0] = System.nanoTime();
            } else if (System.nanoTime() - noNodeSince[0] > JOIN_TIMEOUT.toNanos()) { // the nodes left (stopped)
              run.done().completeExceptionally(new SimulationException("no node of the cluster has been up for "
                  + JOIN_TIMEOUT.toSeconds() + " s (were they stopped?); run " + run.spec().runId() + " did not end"));
              return Behaviors.stopped();
            }
            submit.run(); // a coordinator already running the run answers Accepted again
            return Behaviors.same();
          })
          .onMessage(RunUpdate.Progress.class, p -> {
            if (run.progress() != null) run.progress().set(p.reachedNanos());
            return Behaviors.same();
          })
          .onMessage(RunUpdate.Facts.class, f -> {
            facts.computeIfAbsent(f.window(), w -> new TreeMap<>()).put(f.part(), f.facts());
            return Behaviors.same();
          })
          .onMessage(RunUpdate.RolledBack.class, b -> {
            facts.tailMap(b.window(), true).clear();
            return Behaviors.same();
          })
          .onMessage(RunUpdate.Done.class, d -> {
            List<RecordedFact> all = new ArrayList<>();
            facts.values().forEach(parts -> parts.values().forEach(all::addAll));
            run.done().complete(new Ended(d, all));
            return Behaviors.stopped();
          })
          .onMessage(RunUpdate.Failed.class, f -> {
            run.done().completeExceptionally(f.badInput() ? new BadInputException(f.reason())
                : new SimulationException(f.reason()));
            return Behaviors.stopped();
          })
          .onMessage(CoordinatorLost.class, l -> {
            if (CoordinatedShutdown.get(ctx.getSystem()).getShutdownReason().isPresent()) {
              return Behaviors.same(); // this client is leaving (and sees every remote actor end): nothing lost
            }
            ctx.getLog().warn("the run's coordinator was lost; submitting {} again", run.spec().runId());
            timers.startSingleTimer(new Resubmit(), RESUBMIT_AFTER);
            return Behaviors.same();
          })
          .onMessage(Resubmit.class, r -> {
            submit.run();
            return Behaviors.same();
          })
          .onSignal(PostStop.class, stop -> { // failed (an observer threw, say): the caller must not wait for ever
            run.done().completeExceptionally(new SimulationException("the submitter of run " + run.spec().runId()
                + " stopped before the run ended"));
            return Behaviors.same();
          })
          .build();
    }));
  }

  /** Members with the role of a node that are up. */
  private static int nodesUp(ActorSystem<?> system) {
    int n = 0;
    for (Member m : Cluster.get(system).state().getMembers()) {
      if (m.hasRole(ClusterNode.NODE) && m.status().equals(MemberStatus.up())) n++;
    }
    return n;
  }

  private static String contactOf(ActorSystem<?> system) {
    List<String> seeds = system.settings().config().getStringList("pekko.cluster.seed-nodes");
    return seeds.isEmpty() ? "?" : seeds.get(0).replaceFirst("^pekko://[^@]*@", "");
  }
}
