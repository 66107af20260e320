package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A component lost mid-run (its actor stops, as when its node dies) costs time, not results: every component goes back
 * to the last checkpoint in a new incarnation and the run ends with the digest of an uninterrupted one.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RecoveryTest {
  private static final long END = 3_000_000;

  private static Supplier<List<SimComponent>> ring(Topology[] topo) {
    return () -> {
      List<SimComponent> models = new ArrayList<>();
      topo[0] = ToyModels.ring(8, 1_000, models, 20_000, 4);
      return models;
    };
  }

  /**
   * Local placement whose victim's first actor stops once its model handles an event at or after {@code at} (a lost
   * node): the model itself tells its actor to stop, so the loss falls mid-run whatever the threads' timing.
   */
  static final class Sabotage implements Placement {
    private final Topology topo;
    private final Supplier<List<SimComponent>> models;
    private final RunSettings settings;
    private final int victim;
    private final long at;

    Sabotage(Topology topo, Supplier<List<SimComponent>> models, RunSettings settings, int victim, long at) {
      this.topo = topo;
      this.models = models;
      this.settings = settings;
      this.victim = victim;
      this.at = at;
    }

    @Override
    public void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from) {
      List<SimComponent> ms = models.get();
      for (int i = 0; i < ms.size(); i++) {
        StopAt stopper = epoch == 0 && i == victim ? new StopAt(ms.get(i), at) : null;
        ActorRef<ComponentActor.Command> ref = clock.spawn(ComponentActor.create(topo, i,
            stopper != null ? stopper : ms.get(i), settings, from == null ? null : from.components().get(i),
            clock.getSelf(), epoch), "c" + i + "-e" + epoch);
        if (stopper != null) stopper.self = ref; // before the clock wires the actors: before any event
        clock.getSelf().tell(new Clock.Placed(i, epoch, ref));
      }
    }
  }

  /** A model that, at its first event at or after {@code at}, has its own actor stopped after that event. */
  static final class StopAt implements SimComponent {
    private final SimComponent model;
    private final long at;
    volatile ActorRef<ComponentActor.Command> self;
    private boolean told;

    StopAt(SimComponent model, long at) {
      this.model = model;
      this.at = at;
    }

    @Override
    public void start(Context ctx) {
      model.start(ctx);
    }

    @Override
    public void onEvent(Context ctx, Event event) {
      model.onEvent(ctx, event);
      if (!told && ctx.now() >= at) {
        told = true;
        self.tell(new ComponentActor.Stop());
      }
    }

    @Override
    public long inputDelay(int port) {
      return model.inputDelay(port);
    }

    @Override
    public long inputDelay(int port, int outLink) {
      return model.inputDelay(port, outLink);
    }

    @Override
    public long quietUntil() {
      return model.quietUntil();
    }

    @Override
    public Object snapshot() {
      return model.snapshot();
    }

    @Override
    public void restore(Object snapshot) {
      model.restore(snapshot);
    }

    @Override
    public void finish(Context ctx) {
      model.finish(ctx);
    }

    @Override
    public Object results() {
      return model.results();
    }
  }

  private static RunOutcome sabotaged(long checkpointEvery, List<Long> rollbacks, int threads) {
    Topology[] topo = new Topology[1];
    Supplier<List<SimComponent>> models = ring(topo);
    models.get(); // builds the topology
    RunSettings settings = RunSettings.of(END, 3, threads).withRollbacks(rollbacks::add);
    if (checkpointEvery > 0) settings = settings.withCheckpoints(CheckpointPolicy.everyWindows(checkpointEvery), cp -> {});
    return Simulation.run(topo[0], new Sabotage(topo[0], models, settings, 5, END / 2), settings);
  }

  @Test
  void aLostComponentCostsTimeNotResults() {
    Topology[] topo = new Topology[1];
    Supplier<List<SimComponent>> models = ring(topo);
    List<SimComponent> first = models.get();
    RunOutcome whole = Simulation.run(topo[0], first, RunSettings.of(END, 3, 2));

    List<Long> rollbacks = new ArrayList<>();
    RunOutcome lost = sabotaged(10, rollbacks, 2);
    assertEquals(1, lost.recoveries());
    assertEquals(1, rollbacks.size());
    assertTrue(rollbacks.get(0) > 0 && rollbacks.get(0) % 10 == 0, "back to a checkpoint: " + rollbacks);
    assertEquals(whole.digestHex(), lost.digestHex());
    assertEquals(whole.events(), lost.events());
    assertEquals(Results.of(whole), Results.of(lost));

    List<Long> fromStart = new ArrayList<>();
    RunOutcome noCheckpoint = sabotaged(0, fromStart, 8);
    assertEquals(List.of(0L), fromStart, "without a checkpoint the run starts again from the beginning");
    assertEquals(whole.digestHex(), noCheckpoint.digestHex());
  }

  /** Local placement whose first request for one component is lost on the way (as when routed to a dying node). */
  static final class LossyPlacement implements Placement {
    private final Topology topo;
    private final List<SimComponent> models;
    private final RunSettings settings;
    private final int dropped;
    final List<List<Integer>> askedAgain = new ArrayList<>();

    LossyPlacement(Topology topo, List<SimComponent> models, RunSettings settings, int dropped) {
      this.topo = topo;
      this.models = models;
      this.settings = settings;
      this.dropped = dropped;
    }

    @Override
    public void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from) {
      for (int i = 0; i < models.size(); i++) if (i != dropped) spawn(clock, epoch, i);
    }

    @Override
    public Duration placeAgainAfter() {
      return Duration.ofMillis(200);
    }

    @Override
    public void placeAgain(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, List<Integer> missing) {
      askedAgain.add(List.copyOf(missing));
      for (int i : missing) spawn(clock, epoch, i);
    }

    private void spawn(ActorContext<Clock.Command> clock, long epoch, int i) {
      ActorRef<ComponentActor.Command> ref = clock.spawn(ComponentActor.create(topo, i, models.get(i), settings, null,
          clock.getSelf(), epoch), "c" + i);
      clock.getSelf().tell(new Clock.Placed(i, epoch, ref));
    }
  }

  @Test
  void aLostPlacementRequestIsAskedAgain() {
    Topology[] topo = new Topology[1];
    Supplier<List<SimComponent>> models = ring(topo);
    List<SimComponent> first = models.get(); // builds the topology
    RunOutcome whole = Simulation.run(topo[0], first, RunSettings.of(END, 3, 2));

    List<SimComponent> fresh = models.get();
    RunSettings settings = RunSettings.of(END, 3, 2);
    LossyPlacement lossy = new LossyPlacement(topo[0], fresh, settings, 5);
    RunOutcome late = Simulation.run(topo[0], lossy, settings);
    assertEquals(List.of(List.of(5)), lossy.askedAgain, "only the missing component is asked for, once");
    assertEquals(whole.digestHex(), late.digestHex());
    assertEquals(0, late.recoveries());
  }
}
