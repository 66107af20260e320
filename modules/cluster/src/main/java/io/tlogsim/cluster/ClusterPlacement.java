package io.tlogsim.cluster;

import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.ComponentActor;
import io.tlogsim.kernel.ComponentState;
import io.tlogsim.kernel.Placement;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * Components as sharded entities spread over the cluster's nodes, but for the run's hub, kept in the clock's JVM: each
 * incarnation sends every sharded component entity its part of the checkpoint; Cluster Sharding puts the entities
 * where it will (a lost node's on the survivors).
 *
 * <p>Why the hub stays with the clock: a window's critical path crosses between nodes twice for each component on
 * another node it wakes (its Advance, its report: {@code run.criticalPathCrossingsPerWindow}), and the component
 * linked to the most others (a log manager among its sessions and devices) is woken in most windows, often alone. With
 * it beside the clock those windows cross nothing. If the clock's node is lost, the whole run is taken up elsewhere
 * anyway (its coordinator with it).
 */
final class ClusterPlacement implements Placement {
  private final ClusterSharding sharding;
  private final RunSubmission spec;
  private final String coordinator;
  private final int components;
  private final Set<Integer> withClock;
  @SuppressWarnings("unchecked")
  private ActorRef<ComponentActor.Command>[] local; // by component: its actor here, of incarnation localEpoch
  private long localEpoch = -1;

  /** @param coordinator this incarnation of the run's coordinator (its entities' models are made afresh) */
  @SuppressWarnings("unchecked")
  ClusterPlacement(ClusterSharding sharding, RunSubmission spec, String coordinator, Topology topology) {
    this.sharding = sharding;
    this.spec = spec;
    this.coordinator = coordinator;
    this.components = topology.components();
    this.withClock = withClock(topology);
    this.local = new ActorRef[components];
  }

  /**
   * The components kept in the clock's JVM: the one linked to the most others (the lowest id of those tied), when the
   * run has more than one component (a one-component run is spread like any).
   */
  static Set<Integer> withClock(Topology t) {
    Set<Integer> keep = new HashSet<>();
    if (t.components() < 2) return keep;
    int hub = 0, most = -1;
    for (int i = 0; i < t.components(); i++) {
      Set<Integer> peers = new HashSet<>();
      for (int l : t.outLinks(i)) peers.add(t.to(l));
      for (int l : t.inLinks(i)) peers.add(t.from(l));
      peers.remove(i);
      if (peers.size() > most) {
        most = peers.size();
        hub = i;
      }
    }
    keep.add(hub);
    return keep;
  }

  /**
   * A Host sent just as a node is lost can be routed to that node's shard region (the sender's region has not yet
   * learned it is gone) and vanish: the clock asks again after this long.
   */
  static final Duration PLACE_AGAIN_AFTER = Duration.ofSeconds(5);

  @Override
  public void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from) {
    for (int i = 0; i < components; i++) {
      if (withClock.contains(i)) here(clock, epoch, from, i);
      else host(clock, epoch, from, i);
    }
  }

  @Override
  public Duration placeAgainAfter() {
    return PLACE_AGAIN_AFTER;
  }

  @Override
  public void placeAgain(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, List<Integer> missing) {
    for (int i : missing) {
      if (withClock.contains(i)) here(clock, epoch, from, i); // announced again with the same actor
      else host(clock, epoch, from, i);
    }
  }

  /**
   * Component i in the clock's JVM, as a child of the clock (its model made on this node, as an entity's is); the
   * actor of an earlier incarnation is stopped.
   */
  private void here(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, int i) {
    if (localEpoch != epoch) {
      for (int k = 0; k < components; k++) {
        if (local[k] != null) clock.stop(local[k]);
        local[k] = null;
      }
      // the models of the incarnation given up (an entity here of the same run made them too, and is stopped)
      if (localEpoch >= 0) NodeModels.forget(spec, coordinator + "." + localEpoch);
      localEpoch = epoch;
    }
    if (local[i] == null) {
      NodeModels.Prepared p = NodeModels.prepared(spec);
      SimComponent model = NodeModels.model(spec, coordinator + "." + epoch, i);
      // as ComponentEntity's: the component keeps what it records and sends it with its window
      RunSettings settings = RunSettings.of(p.scenario().endTimeNanos(), spec.seed(), 1).withFacts(batch -> {});
      ComponentState state = from == null ? null : from.components().get(i);
      local[i] = clock.spawn(ComponentActor.create(p.run().topology(), i, model, settings, state, clock.getSelf(),
          epoch), "component-" + i + "-" + epoch);
    }
    clock.getSelf().tell(new Clock.Placed(i, epoch, local[i]));
  }

  private void host(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, int i) {
    sharding.entityRefFor(ComponentEntity.TYPE, ComponentEntity.entityId(spec.runId(), i))
        .tell(new ComponentEntity.Host(spec, i, coordinator, epoch, from == null ? null : from.components().get(i),
            clock.getSelf()));
  }

  void release() {
    NodeModels.release(spec.runId()); // what the components kept here were made from
    for (int i = 0; i < components; i++) {
      if (withClock.contains(i)) continue; // the clock's children: they end with it
      sharding.entityRefFor(ComponentEntity.TYPE, ComponentEntity.entityId(spec.runId(), i))
          .tell(new ComponentEntity.Release());
    }
  }
}
