package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Components as children of the clock, in this JVM. A later incarnation (after a component was lost) needs fresh
 * model objects, which {@code models} supplies; the earlier incarnation's actors are stopped.
 */
public final class LocalPlacement implements Placement {
  private final Topology topo;
  private final Supplier<List<SimComponent>> models;
  private final RunSettings settings;
  private List<ActorRef<ComponentActor.Command>> previous = List.of();

  public LocalPlacement(Topology topo, Supplier<List<SimComponent>> models, RunSettings settings) {
    this.topo = topo;
    this.models = models;
    this.settings = settings;
  }

  @Override
  public void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from) {
    for (ActorRef<ComponentActor.Command> old : previous) clock.stop(old);
    List<SimComponent> ms = models.get();
    if (ms.size() != topo.components()) {
      throw new SimulationException(ms.size() + " models for " + topo.components() + " components");
    }
    List<ActorRef<ComponentActor.Command>> refs = new ArrayList<>();
    for (int i = 0; i < ms.size(); i++) {
      ComponentState state = from == null ? null : from.components().get(i);
      ActorRef<ComponentActor.Command> ref = clock.spawn(
          ComponentActor.create(topo, i, ms.get(i), settings, state, clock.getSelf(), epoch),
          "c" + i + "-" + topo.name(i).replaceAll("[^A-Za-z0-9_-]", "_") + (epoch == 0 ? "" : "-e" + epoch),
          DispatcherSelector.sameAsParent()); // the run's own threads (SimulationHost)
      refs.add(ref);
      clock.getSelf().tell(new Clock.Placed(i, epoch, ref));
    }
    previous = refs;
  }
}
