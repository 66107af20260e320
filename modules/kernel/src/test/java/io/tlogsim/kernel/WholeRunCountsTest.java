package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A run's windows and kernel messages are those of the whole run: the same with checkpoints as without, and after a
 * resume from any checkpoint as without one (run.windows and run.messages of summary.json). An abort stops a run at
 * once with its reason.
 */
class WholeRunCountsTest {
  record Model(Topology topology, List<SimComponent> models) {}

  private static Model ring() {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(12, 1_000, models, 20_000, 4);
    return new Model(topo, models);
  }

  private static Model raid() {
    ApiToys.Raid r = ApiToys.raid(4, 3);
    return new Model(r.topology(), r.models());
  }

  private static void countsAreWhole(Supplier<Model> build, long end) {
    Model plain = build.get();
    RunOutcome whole = Simulation.run(plain.topology(), plain.models(), RunSettings.of(end, 3, 2));
    for (long every : new long[] {1, 3, 17}) {
      Model m = build.get();
      List<Checkpoint> taken = new ArrayList<>();
      RunOutcome checkpointed = Simulation.run(m.topology(), m.models(), RunSettings.of(end, 3, 2)
          .withCheckpoints(CheckpointPolicy.everyWindows(every), taken::add));
      assertEquals(whole.digestHex(), checkpointed.digestHex());
      assertEquals(whole.windows(), checkpointed.windows(), "windows with a checkpoint every " + every);
      assertEquals(whole.messages(), checkpointed.messages(), "messages with a checkpoint every " + every);
      assertTrue(taken.size() > 2, "checkpoints " + taken.size());
      for (int k = 0; k < taken.size(); k += Math.max(1, taken.size() / 4)) {
        Model again = build.get();
        RunOutcome resumed = Simulation.run(again.topology(), again.models(),
            RunSettings.of(end, 3, 2).resumingFrom(taken.get(k)));
        String at = "resumed from window " + taken.get(k).window();
        assertEquals(whole.digestHex(), resumed.digestHex(), at);
        assertEquals(whole.windows(), resumed.windows(), at);
        assertEquals(whole.messages(), resumed.messages(), at);
      }
    }
  }

  @Test
  void windowsAndMessagesDoNotDependOnCheckpointsOrResumes() {
    countsAreWhole(WholeRunCountsTest::ring, 1_000_000);
    countsAreWhole(WholeRunCountsTest::raid, 20_000_000);
  }

  @Test
  void anAbortStopsTheRunAtOnceWithItsReason() throws Exception {
    Model m = ring();
    CompletableFuture<String> abort = new CompletableFuture<>();
    AtomicLong reached = new AtomicLong();
    CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> Simulation.run(m.topology(), m.models(),
        RunSettings.of(Long.MAX_VALUE / 4, 1, 2).withProgress(reached).withAbort(abort)));
    while (reached.get() == 0) Thread.sleep(10);
    long t0 = System.nanoTime();
    abort.complete("the journal cannot be written");
    Exception e = assertThrows(Exception.class, run::join);
    assertTrue(String.valueOf(e.getCause().getMessage()).equals("the journal cannot be written"), e.toString());
    assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "stopped within a window or so, not at the run's end");
  }
}
