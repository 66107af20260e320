package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every failure ends the run with one line naming the component, in bounded time (the timeouts here catch a hang, a
 * defect; they measure no speed).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureTest {

  /** Fails on its first event, as a buggy model would. */
  static final class Faulty extends ToyModels.Recorder {
    @Override
    public void onEvent(Context ctx, Event ev) {
      throw new IllegalStateException("model bug at " + ctx.now());
    }
  }

  private static Topology sourceInto(String... receivers) {
    Topology.Builder b = Topology.builder();
    int e = ToyModels.toy(b, "source", 0);
    for (String r : receivers) b.link(e, ToyModels.toy(b, r, 1), 0, 5);
    return b.build();
  }

  @Test
  void aFailingModelEndsTheRunWithItsNameAndReason() {
    Topology topo = sourceInto("faulty");
    SimulationException ex = assertThrows(SimulationException.class, () -> Simulation.run(topo,
        List.of(new ToyModels.Emitter(0, 10), new Faulty()), RunSettings.of(1_000, 1, 2)));
    assertTrue(ex.getMessage().contains("faulty") && ex.getMessage().contains("model bug at 10"), ex.getMessage());
  }

  /** Two components fail in the same window: the lower id is reported, whichever thread got there first. */
  @Test
  void whenTwoComponentsFailInOneWindowTheReportedFailureIsAlwaysTheSame() {
    Set<String> reasons = new HashSet<>();
    for (int threads : new int[] {1, 2, 8}) {
      for (int rep = 0; rep < 10; rep++) {
        Topology.Builder b = Topology.builder();
        int e = ToyModels.toy(b, "source", 0);
        List<Integer> links = new ArrayList<>();
        for (int i = 0; i < 6; i++) links.add(b.link(e, ToyModels.toy(b, "faulty-" + i, 1), 0, 5));
        Topology topo = b.build();
        SimComponent source = new ToyModels.Emitter(-1) {
          @Override
          public void start(Context ctx) {
            for (int l : links) ctx.send(l, 10, ToyModels.NOTE, 0, 0);
          }
        };
        List<SimComponent> models = new ArrayList<>(List.of(source));
        for (int i = 0; i < 6; i++) models.add(new Faulty());
        reasons.add(assertThrows(SimulationException.class,
            () -> Simulation.run(topo, models, RunSettings.of(1_000, 1, threads))).getMessage());
      }
    }
    assertEquals(1, reasons.size(), reasons.toString());
    assertTrue(reasons.iterator().next().startsWith("faulty-0 failed"), reasons.toString());
  }

  @Test
  void resultsThatThrowAtTheEndFailTheRunInsteadOfHangingIt() {
    Topology topo = sourceInto("bad-results");
    SimComponent badResults = new ToyModels.Recorder() {
      @Override
      public Object results() {
        throw new IllegalStateException("cannot summarise");
      }
    };
    SimulationException ex = assertThrows(SimulationException.class, () -> Simulation.run(topo,
        List.of(new ToyModels.Emitter(0, 10), badResults), RunSettings.of(1_000, 1, 2)));
    assertTrue(ex.getMessage().contains("bad-results") && ex.getMessage().contains("cannot summarise"),
        ex.getMessage());
  }

  @Test
  void aCheckpointSinkThatThrowsFailsTheRunInsteadOfHangingIt() {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(3, 1_000, models, 10_000, 2);
    SimulationException ex = assertThrows(SimulationException.class, () -> Simulation.run(topo, models,
        RunSettings.of(1_000_000, 1, 2).withCheckpoints(CheckpointPolicy.everyWindows(3), cp -> {
          throw new IllegalStateException("disk full");
        })));
    assertTrue(ex.getMessage().contains("journal failed") && ex.getMessage().contains("disk full"), ex.getMessage());
  }

  @Test
  void aCheckpointSinkThatThrowsAnErrorFailsTheRunInsteadOfHangingIt() {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(3, 1_000, models, 10_000, 2);
    SimulationException ex = assertThrows(SimulationException.class, () -> Simulation.run(topo, models,
        RunSettings.of(1_000_000, 1, 2).withCheckpoints(CheckpointPolicy.everyWindows(3), cp -> {
          throw new AssertionError("a test's assertion in the sink");
        })));
    assertTrue(ex.getMessage().contains("clock stopped"), ex.getMessage());
  }

  @Test
  void aFactSinkThatThrowsFailsTheRunInsteadOfHangingIt() {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(3, 1_000, models, 10_000, 2);
    models.set(3, new KernelTest.Noting());
    SimulationException ex = assertThrows(SimulationException.class, () -> Simulation.run(topo, models,
        RunSettings.of(1_000_000, 1, 2).withFacts(f -> {
          throw new IllegalStateException("journal gone");
        })));
    assertTrue(ex.getMessage().contains("journal gone"), ex.getMessage());
  }

  @Test
  void aModelWhoseStateCannotBeSnapshotFailsTheRunWithItsName() {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(3, 1_000, models, 10_000, 2);
    models.set(3, new ToyModels.Recorder() {
      @Override
      public Object snapshot() {
        throw new UnsupportedOperationException("no snapshot for you");
      }
    });
    SimulationException ex = assertThrows(SimulationException.class, () -> Simulation.run(topo, models,
        RunSettings.of(1_000_000, 1, 2).withCheckpoints(CheckpointPolicy.everyWindows(2), cp -> {})));
    assertTrue(ex.getMessage().contains("recorder") && ex.getMessage().contains("no snapshot for you"),
        ex.getMessage());
  }
}
