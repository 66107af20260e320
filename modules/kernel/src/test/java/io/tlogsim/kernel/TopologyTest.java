package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TopologyTest {
  @Test
  void lookaheadMustBePositive() {
    Topology.Builder b = Topology.builder();
    int x = b.component("x", 1), y = b.component("y", 1);
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 0, 0));
    assertTrue(zero.getMessage().contains("lookahead must be > 0"), zero.getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 0, -5));
  }

  @Test
  void linksAreCheckedAgainstComponentsAndPorts() {
    Topology.Builder b = Topology.builder();
    int x = b.component("x", 1), y = b.component("y", 1);
    assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 1, 5));
    assertThrows(IllegalArgumentException.class, () -> b.link(x, 7, 0, 5));
    assertThrows(IllegalArgumentException.class, () -> b.link(x, x, 0, 5));
  }

  @Test
  void oneLinkPerPairSoOneBatchPerDestination() {
    Topology.Builder b = Topology.builder();
    int x = b.component("x", 0), y = b.component("y", 2);
    b.link(x, y, 0, 5);
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 1, 5));
    assertTrue(twice.getMessage().contains("one batch per destination"), twice.getMessage());
  }

  @Test
  void tiesRankBySenderFirst() {
    Topology.Builder b = Topology.builder();
    int a = b.component("a", 1), c = b.component("c", 2), z = b.component("z", 1);
    int zc = b.link(z, c, 0, 5); // declared first, but its sender has the larger id
    int ac = b.link(a, c, 1, 5);
    Topology t = b.build();
    assertTrue(t.rank(ac) < t.rank(zc));
    assertEquals(a, t.senderOfRank(t.rank(ac)));
    assertEquals(z, t.senderOfRank(t.rank(zc)));
    assertEquals(5, t.minOutLookahead(z));
  }
}
