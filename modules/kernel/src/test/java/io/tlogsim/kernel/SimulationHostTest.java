package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Runs in one host actor system, one after another, give what each gives in an actor system of its own. */
class SimulationHostTest {
  private static final long END = 2_000_000;

  private static RunOutcome alone(long seed) {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(8, 1_000, models, 20_000, 4);
    return Simulation.run(topo, models, RunSettings.of(END, seed, 2));
  }

  @Test
  void aHostsRunsGiveTheDigestsOfRunsAlone() {
    try (SimulationHost host = SimulationHost.start("tlogsim-host", com.typesafe.config.ConfigFactory.empty())) {
      for (long seed = 1; seed <= 3; seed++) {
        List<SimComponent> models = new ArrayList<>();
        Topology topo = ToyModels.ring(8, 1_000, models, 20_000, 4);
        RunOutcome hosted = host.run(topo, models, RunSettings.of(END, seed, 2));
        RunOutcome own = alone(seed);
        assertEquals(own.digestHex(), hosted.digestHex(), "seed " + seed);
        assertEquals(own.events(), hosted.events());
        if (seed > 1) assertNotEquals(alone(1).digestHex(), hosted.digestHex(), "seeds differ");
      }
      assertEquals(1, host.dispatchersMade(), "runs one after another take the same dispatcher again");
      // Two runs at once (the first waits in its first window until the second has started): one dispatcher each.
      java.util.concurrent.CountDownLatch bothRunning = new java.util.concurrent.CountDownLatch(2);
      java.util.concurrent.CompletableFuture<?>[] together = new java.util.concurrent.CompletableFuture<?>[2];
      for (int k = 0; k < 2; k++) {
        long seed = k + 1;
        boolean[] once = {false};
        CheckpointPolicy meet = (window, t) -> {
          if (!once[0]) {
            once[0] = true;
            bothRunning.countDown();
            try {
              bothRunning.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          return false;
        };
        together[k] = java.util.concurrent.CompletableFuture.runAsync(() -> {
          List<SimComponent> models = new ArrayList<>();
          Topology topo = ToyModels.ring(8, 1_000, models, 20_000, 4);
          RunSettings s = RunSettings.of(END, seed, 2).withCheckpoints(meet, cp -> {});
          assertEquals(alone(seed).digestHex(), host.run(topo, models, s).digestHex());
        });
      }
      java.util.concurrent.CompletableFuture.allOf(together).join();
      assertEquals(2, host.dispatchersMade(), "two runs at once have a dispatcher each");
    }
  }

  @Test
  void aRunReportsEachThreadsBusyShare() {
    for (int threads = 1; threads <= 3; threads++) {
      List<SimComponent> models = new ArrayList<>();
      Topology topo = ToyModels.ring(8, 1_000, models, 20_000, 4);
      RunOutcome out = Simulation.run(topo, models, RunSettings.of(END, 1, threads));
      List<Double> busy = out.threadBusy();
      assertEquals(threads, busy.size(), "one share per thread of the run's dispatcher: " + busy);
      for (double b : busy) assertTrue(b >= 0 && b <= 1, "a share of wall time: " + busy);
      assertTrue(busy.get(0) > 0, "the busiest thread ran the run: " + busy);
      for (int i = 1; i < busy.size(); i++) assertTrue(busy.get(i) <= busy.get(i - 1), "busiest first: " + busy);
      assertEquals(alone(1).digestHex(), out.digestHex(), "the meter does not touch the run");
      assertEquals(0.0, out.criticalPathCrossingsPerWindow(), "one node: nothing crosses between nodes");
    }
  }

  @Test
  void busySharesCountOnlyTheRunsOwnTimeAndPadIdleThreads() {
    Thread a = new Thread(() -> {});
    Thread b = new Thread(() -> {});
    Thread gone = new Thread(() -> {});
    // a: 600 of 1,000 ns in this run (400 before it); b: 2,000 (more than the wall: capped); gone: none in this run
    Map<Thread, Long> before = Map.of(a, 400L, gone, 50L);
    Map<Thread, Long> after = new java.util.LinkedHashMap<>(Map.of(a, 1_000L, gone, 50L));
    after.put(b, 2_000L);
    assertEquals(List.of(1.0, 0.6, 0.0), BusyMeter.shares(before, after, 1_000, 3));
    assertEquals(List.of(1.0, 0.6), BusyMeter.shares(before, after, 1_000, 1), "every thread that ran is shown");
    assertEquals(List.of(0.0, 0.0), BusyMeter.shares(Map.of(), Map.of(), 1_000, 2));
    assertNull(new RunOutcome(1, 0, 0, 0, List.of(), 0, 0, 1, 0, 0).threadBusy(), "not measured: left out");
  }
}
