package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.kernel.Protocol;
import io.tlogsim.kernel.Topology;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which components a cluster run keeps in its clock's JVM. */
class ClusterPlacementTest {
  private static final Protocol P = Protocol.of("toy", 1, "EVENT");

  @Test
  void theComponentLinkedToTheMostOthersStaysWithTheClock() {
    // GCM-1's shape: pools 0 to 2 and a device, each linked to the log manager (3) only
    Topology.Builder b = Topology.builder();
    int[] pools = {b.component("pool-0", P, P), b.component("pool-1", P, P), b.component("pool-2", P, P)};
    int log = b.component("log", P, P);
    int device = b.component("device", P, P);
    for (int p : pools) {
      b.link(p, log, 0, 1_000);
      b.link(log, p, 0, 1_000);
    }
    b.link(log, device, 0, 1);
    b.link(device, log, 0, 1);
    assertEquals(Set.of(log), ClusterPlacement.withClock(b.build()));
  }

  @Test
  void tiesGoToTheLowestIdAndALoneComponentIsSpreadLikeAny() {
    Topology.Builder b = Topology.builder();
    int x = b.component("x", P, P);
    int y = b.component("y", P, P);
    b.link(x, y, 0, 1);
    b.link(y, x, 0, 1);
    assertEquals(Set.of(x), ClusterPlacement.withClock(b.build()));
    Topology.Builder one = Topology.builder();
    one.component("alone", java.util.List.of(), java.util.List.of());
    assertEquals(Set.of(), ClusterPlacement.withClock(one.build()));
  }
}
