package io.tlogsim.cluster;

import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.Placement;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;

/**
 * Components as sharded entities spread over the cluster's nodes: each incarnation sends every component entity its
 * part of the checkpoint; Cluster Sharding puts the entities where it will (a lost node's on the survivors).
 */
final class ClusterPlacement implements Placement {
  private final ClusterSharding sharding;
  private final RunSpec spec;
  private final String coordinator;
  private final int components;

  /** @param coordinator this incarnation of the run's coordinator (its entities' models are made afresh) */
  ClusterPlacement(ClusterSharding sharding, RunSpec spec, String coordinator, int components) {
    this.sharding = sharding;
    this.spec = spec;
    this.coordinator = coordinator;
    this.components = components;
  }

  @Override
  public void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from) {
    for (int i = 0; i < components; i++) {
      sharding.entityRefFor(ComponentEntity.TYPE, ComponentEntity.entityId(spec.runId(), i))
          .tell(new ComponentEntity.Host(spec, i, coordinator, epoch, from == null ? null : from.components().get(i),
              clock.getSelf()));
    }
  }

  void release() {
    for (int i = 0; i < components; i++) {
      sharding.entityRefFor(ComponentEntity.TYPE, ComponentEntity.entityId(spec.runId(), i))
          .tell(new ComponentEntity.Release());
    }
  }
}
