package io.tlogsim.cluster;

import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.Placement;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * Components as sharded entities spread over the cluster's nodes: each incarnation sends every component entity its
 * part of the checkpoint; Cluster Sharding puts the entities where it will (a lost node's on the survivors).
 */
final class ClusterPlacement implements Placement {
  private final ClusterSharding sharding;
  private final RunSubmission spec;
  private final String coordinator;
  private final int components;

  /** @param coordinator this incarnation of the run's coordinator (its entities' models are made afresh) */
  ClusterPlacement(ClusterSharding sharding, RunSubmission spec, String coordinator, int components) {
    this.sharding = sharding;
    this.spec = spec;
    this.coordinator = coordinator;
    this.components = components;
  }

  /**
   * A Host sent just as a node is lost can be routed to that node's shard region (the sender's region has not yet
   * learned it is gone) and vanish: the clock asks again after this long.
   */
  static final Duration PLACE_AGAIN_AFTER = Duration.ofSeconds(5);

  @Override
  public void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from) {
    for (int i = 0; i < components; i++) host(clock, epoch, from, i);
  }

  @Override
  public Duration placeAgainAfter() {
    return PLACE_AGAIN_AFTER;
  }

  @Override
  public void placeAgain(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, List<Integer> missing) {
    for (int i : missing) host(clock, epoch, from, i);
  }

  private void host(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, int i) {
    sharding.entityRefFor(ComponentEntity.TYPE, ComponentEntity.entityId(spec.runId(), i))
        .tell(new ComponentEntity.Host(spec, i, coordinator, epoch, from == null ? null : from.components().get(i),
            clock.getSelf()));
  }

  void release() {
    for (int i = 0; i < components; i++) {
      sharding.entityRefFor(ComponentEntity.TYPE, ComponentEntity.entityId(spec.runId(), i))
          .tell(new ComponentEntity.Release());
    }
  }
}
