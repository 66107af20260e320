package io.tlogsim.cluster;

import io.tlogsim.analysis.sweep.Sweep;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.SimulationException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BiConsumer;

/**
 * A sweep's runs on a cluster's nodes ({@code tlogsim sweep <experiment> --cluster host:port}), through one client
 * joined for the whole sweep. A sweep is many independent runs, so each runs whole on one node (its coordinator's,
 * {@link RunCoordinator#ON_ONE_NODE}): spreading a run's components would only add messages between nodes. The sweep's
 * parallelism is a set of slots, each a shard that Sharding gives to one node, the nodes holding as many slots as each
 * other; a run takes a free slot, so every node has as many runs at a time as it holds slots. A node lost mid-sweep
 * takes its runs with it: their submitters see their coordinators end and submit them again, and their slots' shards
 * move to the surviving nodes, where the runs start again from the beginning (a run is deterministic: the same row).
 */
public final class ClusterSweep implements Sweep.Runs {
  private final ClusterSubmit.Client client;
  private final String sweepId = UUID.randomUUID().toString().substring(0, 8); // tells this sweep's runs from others'
  private final BlockingQueue<Integer> slots = new LinkedBlockingQueue<>();
  private final BiConsumer<String, RunUpdate> observer;

  /** Runs up to {@code parallel} at once through {@code client}. */
  public ClusterSweep(ClusterSubmit.Client client, int parallel) {
    this(client, parallel, (runId, event) -> {});
  }

  /** As above, telling {@code observer} every event of every run (with the run's id) as it comes. */
  ClusterSweep(ClusterSubmit.Client client, int parallel, BiConsumer<String, RunUpdate> observer) {
    this.client = client;
    this.observer = observer;
    for (int slot = 0; slot < parallel; slot++) slots.add(slot);
  }

  @Override
  public Map<String, Object> summary(Scenario scenario, int point, int replication) {
    int slot;
    try {
      slot = slots.take(); // never waits: the sweep runs at most as many at once as there are slots
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SimulationException("interrupted");
    }
    try {
      String runId = "sweep-" + sweepId + "-" + point + "-" + replication;
      return client.run(RunCoordinator.ON_ONE_NODE, ClusterNode.BySlot.entityId(slot, runId), RunSubmission.of(runId, scenario),
          null, event -> observer.accept(runId, event)).summary();
    } finally {
      slots.add(slot);
    }
  }
}
