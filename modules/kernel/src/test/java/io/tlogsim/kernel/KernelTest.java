package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelTest {
  private static final long LINK = 1_000; // 1 us
  private static final double WAIT = 20_000; // 20 us mean

  @SuppressWarnings("unchecked")
  private static List<long[]> recorded(RunOutcome out) {
    return (List<long[]>) out.results().get(out.results().size() - 1);
  }

  private static RunOutcome ring(int n, long seed, int threads, long endNs) {
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(n, LINK, models, WAIT, 3);
    return Simulation.run(topo, models, RunSettings.of(endNs, seed, threads));
  }

  @Test
  void eventsAreHandledInTimeThenSenderOrderAcrossWindows() {
    RunOutcome out = ring(4, 7, 2, 5_000_000);
    List<long[]> seen = recorded(out);
    assertTrue(seen.size() > 100, "recorder saw " + seen.size());
    assertTrue(out.windows() > 10, "windows " + out.windows());
    for (int i = 1; i < seen.size(); i++) {
      long[] p = seen.get(i - 1), c = seen.get(i);
      assertTrue(p[0] < c[0] || (p[0] == c[0] && p[1] <= c[1]), "out of order at " + i);
      assertTrue(c[0] <= 5_000_000, "handled an event after the end");
    }
  }

  @Test
  void tiesGoBySenderIdThenSequence() {
    Topology.Builder b = Topology.builder();
    int e0 = b.component("e0", 0), e1 = b.component("e1", 0), rec = b.component("rec", 1);
    int l1 = b.link(e1, rec, 0, 5); // the higher sender id declares its link first
    int l0 = b.link(e0, rec, 0, 5);
    Topology topo = b.build();
    List<SimComponent> models = List.of(new ToyModels.Emitter(l0, 20, 10, 20), new ToyModels.Emitter(l1, 20, 10, 30),
        new ToyModels.Recorder());
    RunOutcome out = Simulation.run(topo, models, RunSettings.of(1_000, 1, 2));
    List<long[]> seen = recorded(out);
    long[][] expected = { // {time, sender, a = sequence index at the sender}
        {10, e0, 1}, {10, e1, 1}, {20, e0, 0}, {20, e0, 2}, {20, e1, 0}, {30, e1, 2}};
    assertEquals(expected.length, seen.size());
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i][0], seen.get(i)[0], "time of #" + i);
      assertEquals(expected[i][1], seen.get(i)[1], "sender of #" + i);
      assertEquals(expected[i][2], seen.get(i)[3], "sequence of #" + i);
    }
  }

  @Test
  void idleTimeIsSkipped() {
    Topology.Builder b = Topology.builder();
    int e = b.component("e", 0), rec = b.component("rec", 1);
    int l = b.link(e, rec, 0, 1); // 1 ns lookahead, events a simulated hour apart
    Topology topo = b.build();
    long hour = 3_600 * VirtualTime.NS_PER_S;
    List<SimComponent> models = List.of(new ToyModels.Emitter(l, hour, 2 * hour, 3 * hour), new ToyModels.Recorder());
    RunOutcome out = Simulation.run(topo, models, RunSettings.of(4 * hour, 1, 1));
    assertEquals(3, recorded(out).size());
    assertTrue(out.windows() <= 3, "windows " + out.windows());
  }

  @Test
  void sendingSoonerThanTheLookaheadIsAnError() {
    Topology.Builder b = Topology.builder();
    int e = b.component("early", 0), rec = b.component("rec", 1);
    int l = b.link(e, rec, 0, 5);
    Topology topo = b.build();
    List<SimComponent> models = List.of(new ToyModels.Emitter(l, 3), new ToyModels.Recorder());
    SimulationException ex = assertThrows(SimulationException.class,
        () -> Simulation.run(topo, models, RunSettings.of(1_000, 1, 1)));
    assertTrue(ex.getMessage().contains("lookahead"), ex.getMessage());
    assertTrue(ex.getMessage().contains("early -> rec"), ex.getMessage());
  }

  /** Forwards what it receives after 5 ns but claims it needs a full microsecond: a broken promise. */
  static final class Liar extends ToyModels.Recorder {
    private final int out;

    Liar(int out) {
      this.out = out;
    }

    @Override
    public void onEvent(Context ctx, int port, int kind, long a, long b) {
      ctx.send(out, ctx.now() + 5, kind, a, b);
    }

    @Override
    public long inputDelay(int port) {
      return 1_000;
    }
  }

  @Test
  void aBrokenPromiseIsAnErrorNotAReorder() {
    Topology.Builder b = Topology.builder();
    int e = b.component("source", 0), liar = b.component("liar", 1), rec = b.component("rec", 1);
    int l0 = b.link(e, liar, 0, 5);
    int l1 = b.link(liar, rec, 0, 5);
    Topology topo = b.build();
    List<SimComponent> models = List.of(new ToyModels.Emitter(l0, 10, 20, 400), new Liar(l1), new ToyModels.Recorder());
    SimulationException ex = assertThrows(SimulationException.class,
        () -> Simulation.run(topo, models, RunSettings.of(10_000, 1, 2)));
    assertTrue(ex.getMessage().contains("promised"), ex.getMessage());
  }

  @Test
  void sameSeedSameDigestOnAnyNumberOfThreads() {
    RunOutcome one = ring(8, 42, 1, 3_000_000);
    for (int threads : new int[] {2, 8}) {
      RunOutcome other = ring(8, 42, threads, 3_000_000);
      assertEquals(one.digestHex(), other.digestHex(), threads + " threads");
      assertEquals(one.events(), other.events());
      assertEquals(one.windows(), other.windows());
    }
    assertNotEquals(one.digestHex(), ring(8, 43, 2, 3_000_000).digestHex());
  }

  @Test
  void restoringACheckpointGivesTheSameDigestAsNotStopping() throws Exception {
    long end = 4_000_000;
    List<Checkpoint> taken = new ArrayList<>();
    List<SimComponent> models = new ArrayList<>();
    Topology topo = ToyModels.ring(5, LINK, models, WAIT, 4);
    RunOutcome whole = Simulation.run(topo, models, RunSettings.of(end, 11, 2).withCheckpoints(25, taken::add));
    assertTrue(taken.size() >= 3, "checkpoints " + taken.size());

    // Through CBOR, as the journal will store it.
    ObjectMapper cbor = new ObjectMapper(new CBORFactory());
    Checkpoint cp = taken.get(taken.size() / 2);
    Checkpoint back = cbor.readValue(cbor.writeValueAsBytes(cp), Checkpoint.class);
    assertEquals(cp.round(), back.round());

    List<SimComponent> fresh = new ArrayList<>();
    Topology again = ToyModels.ring(5, LINK, fresh, WAIT, 4);
    RunOutcome resumed = Simulation.run(again, fresh, RunSettings.of(end, 11, 1).resumingFrom(back));
    assertEquals(whole.digestHex(), resumed.digestHex());
    assertEquals(whole.events(), resumed.events());
    assertEquals(whole.results().subList(0, 5), resumed.results().subList(0, 5));
    assertEquals(recorded(whole).size(), recorded(resumed).size());
  }

  /** Fails on its first event, as a buggy model would. */
  static final class Faulty extends ToyModels.Recorder {
    @Override
    public void onEvent(Context ctx, int port, int kind, long a, long b) {
      throw new IllegalStateException("model bug at " + ctx.now());
    }
  }

  @Test
  void aFailingModelEndsTheRunWithItsNameAndReason() {
    Topology.Builder b = Topology.builder();
    int e = b.component("source", 0), f = b.component("faulty", 1);
    int l = b.link(e, f, 0, 5);
    Topology topo = b.build();
    List<SimComponent> models = List.of(new ToyModels.Emitter(l, 10), new Faulty());
    SimulationException ex = assertThrows(SimulationException.class,
        () -> Simulation.run(topo, models, RunSettings.of(1_000, 1, 2)));
    assertTrue(ex.getMessage().contains("faulty") && ex.getMessage().contains("model bug at 10"), ex.getMessage());
  }
}
