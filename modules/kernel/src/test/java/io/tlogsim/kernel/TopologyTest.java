package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyTest {
  @Test
  void lookaheadMustBePositive() {
    Topology.Builder b = Topology.builder();
    int x = ToyModels.toy(b, "x", 1), y = ToyModels.toy(b, "y", 1);
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 0, 0));
    assertTrue(zero.getMessage().contains("lookahead must be > 0"), zero.getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 0, -5));
  }

  @Test
  void linksAreCheckedAgainstComponentsAndPorts() {
    Topology.Builder b = Topology.builder();
    int x = ToyModels.toy(b, "x", 1), y = ToyModels.toy(b, "y", 1);
    assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 1, 5));
    assertThrows(IllegalArgumentException.class, () -> b.link(x, 7, 0, 5));
    assertThrows(IllegalArgumentException.class, () -> b.link(x, x, 0, 5));
  }

  @Test
  void aPortRefusesALinkFromASenderThatEmitsNothingItAccepts() {
    Topology.Builder b = Topology.builder();
    int dev = b.component("device", ApiToys.REQUESTS, ApiToys.COMPLETIONS);
    int gate = b.component("gate", List.of(ApiToys.CONTROL, ApiToys.STREAM), List.of(ApiToys.STREAM));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.link(dev, gate, 0, 5));
    assertTrue(e.getMessage().contains("device -> gate") && e.getMessage().contains("control"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.link(gate, dev, 0, 5)); // a stream is not a request
  }

  @Test
  void oneLinkPerPairSoOneBatchPerDestination() {
    Topology.Builder b = Topology.builder();
    int x = ToyModels.toy(b, "x", 0), y = ToyModels.toy(b, "y", 2);
    b.link(x, y, 0, 5);
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> b.link(x, y, 1, 5));
    assertTrue(twice.getMessage().contains("one batch per destination"), twice.getMessage());
  }

  @Test
  void inLinksRankBySenderAndLinksAreFoundByEndpoints() {
    Topology.Builder b = Topology.builder();
    int a = ToyModels.toy(b, "a", 1), c = ToyModels.toy(b, "c", 2), z = ToyModels.toy(b, "z", 1);
    int zc = b.link(z, c, 0, 5); // declared first, but its sender has the larger id
    int ac = b.link(a, c, 1, 5);
    int ca = b.link(c, a, 0, 7);
    Topology t = b.build();
    assertTrue(t.inRank(ac) < t.inRank(zc));
    assertEquals(List.of(ac, zc), java.util.Arrays.stream(t.inLinks(c)).boxed().toList());
    assertEquals(ca, t.linkBetween(c, a));
    assertEquals(zc, t.linkBetween(z, c));
    assertEquals(-1, t.linkBetween(a, z));
  }
}
