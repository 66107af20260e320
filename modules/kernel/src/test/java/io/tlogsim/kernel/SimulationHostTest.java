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
    }
  }
}
