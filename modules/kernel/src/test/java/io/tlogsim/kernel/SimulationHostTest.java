package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;
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
}
