package io.tlogsim.kernel;

import static io.tlogsim.kernel.ToyModels.recorded;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KernelTest {
  private static final long LINK = 1_000; // 1 us
  private static final double WAIT = 20_000; // 20 us mean

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
    int e0 = ToyModels.toy(b, "e0", 0), e1 = ToyModels.toy(b, "e1", 0), rec = ToyModels.toy(b, "rec", 1);
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

  /** Records its events and, at start, sets a timer at each of the given times. */
  static class TimedRecorder extends ToyModels.Recorder {
    private final long[] timers;

    TimedRecorder(long... timers) {
      this.timers = timers;
    }

    @Override
    public void start(Context ctx) {
      for (long t : timers) ctx.schedule(t, ToyModels.TICK, -1, 0);
    }
  }

  /**
   * At one instant, arrivals come before the component's own timers, whatever the sender's id: adding a component that
   * has nothing to do with the receiver (here, one that takes id 0 and shifts every other id) changes nothing.
   */
  @Test
  void anArrivalPrecedesATimerOfTheSameInstantWhateverTheTopologyHolds() {
    for (boolean withBystander : new boolean[] {false, true}) {
      Topology.Builder b = Topology.builder();
      if (withBystander) ToyModels.toy(b, "bystander", 0);
      int rec = ToyModels.toy(b, "rec", 1);
      int e = ToyModels.toy(b, "late-sender", 0); // its id is above the receiver's
      int l = b.link(e, rec, 0, 5);
      Topology topo = b.build();
      List<SimComponent> models = new ArrayList<>();
      if (withBystander) models.add(new ToyModels.Emitter(-1));
      models.add(new TimedRecorder(50, 70));
      models.add(new ToyModels.Emitter(l, 50, 60));
      RunOutcome out = Simulation.run(topo, models, RunSettings.of(1_000, 1, 2));
      List<long[]> seen = ((ToyModels.RecorderState) out.results().get(rec)).list();
      assertEquals(4, seen.size());
      assertEquals(ToyModels.NOTE, seen.get(0)[2], "the arrival at 50 first");
      assertEquals(ToyModels.TICK, seen.get(1)[2], "then the timer at 50");
      assertEquals(60, seen.get(2)[0]);
      assertEquals(70, seen.get(3)[0]);
    }
  }

  @Test
  void idleTimeIsSkipped() {
    Topology.Builder b = Topology.builder();
    int e = ToyModels.toy(b, "e", 0), rec = ToyModels.toy(b, "rec", 1);
    int l = b.link(e, rec, 0, 1); // 1 ns lookahead, events a simulated hour apart
    Topology topo = b.build();
    long hour = 3_600 * VirtualTime.NS_PER_S;
    List<SimComponent> models = List.of(new ToyModels.Emitter(l, hour, 2 * hour, 3 * hour), new ToyModels.Recorder());
    RunOutcome out = Simulation.run(topo, models, RunSettings.of(4 * hour, 1, 1));
    assertEquals(3, recorded(out).size());
    assertEquals(3, out.windows());
  }

  /** A component without inputs would otherwise run to the end of the run in one window. */
  @Test
  void aComponentWithoutInputsIsBoundedByTheMaximumWindow() {
    ApiToys.GateRun g = ApiToys.gate(true, 10_000, 50_000_000);
    RunOutcome bounded = Simulation.run(g.topology(), g.models(), RunSettings.of(100_000_000, 3, 2)
        .withMaxWindow(5_000_000));
    ApiToys.GateRun again = ApiToys.gate(true, 10_000, 50_000_000);
    RunOutcome wide = Simulation.run(again.topology(), again.models(), RunSettings.of(100_000_000, 3, 2));
    System.out.printf("source without inputs, 100 ms: %d windows with a 5 ms maximum window, %d with 1 s%n",
        bounded.windows(), wide.windows());
    assertTrue(bounded.windows() >= 20, "windows " + bounded.windows());
    assertTrue(wide.windows() < bounded.windows());
    assertEquals(wide.digestHex(), bounded.digestHex(), "windows never change results");
  }

  @Test
  void sendingSoonerThanTheLookaheadIsAnError() {
    Topology.Builder b = Topology.builder();
    int e = ToyModels.toy(b, "early", 0), rec = ToyModels.toy(b, "rec", 1);
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
    public void onEvent(Context ctx, Event ev) {
      ctx.send(out, ctx.now() + 5, ev.kind(), ev.a(), ev.b());
    }

    @Override
    public long inputDelay(int port) {
      return 1_000;
    }
  }

  @Test
  void aBrokenPromiseIsAnErrorThatNamesTheComponentThatBrokeIt() {
    Topology.Builder b = Topology.builder();
    int e = ToyModels.toy(b, "source", 0), liar = ToyModels.toy(b, "liar", 1), rec = ToyModels.toy(b, "rec", 1);
    int l0 = b.link(e, liar, 0, 5);
    int l1 = b.link(liar, rec, 0, 5);
    Topology topo = b.build();
    List<SimComponent> models = List.of(new ToyModels.Emitter(l0, 10, 20, 400), new Liar(l1), new ToyModels.Recorder());
    SimulationException ex = assertThrows(SimulationException.class,
        () -> Simulation.run(topo, models, RunSettings.of(10_000, 1, 2)));
    assertTrue(ex.getMessage().startsWith("liar broke its promise"), ex.getMessage());
    assertTrue(ex.getMessage().contains("liar port 0"), ex.getMessage());
  }

  @Test
  void aKindThePortDoesNotAcceptFailsTheRun() {
    Topology.Builder b = Topology.builder();
    int e = b.component("mixed-up", List.of(), List.of(ApiToys.REQUESTS, ApiToys.STREAM));
    int dev = b.component("device", ApiToys.REQUESTS, ApiToys.COMPLETIONS);
    int l = b.link(e, dev, 0, 5);
    Topology topo = b.build();
    SimComponent sendsData = new ToyModels.Emitter(l) {
      @Override
      public void start(Context ctx) {
        ctx.send(l, 10, ApiToys.DATA, 0, 0);
      }
    };
    SimulationException ex = assertThrows(SimulationException.class,
        () -> Simulation.run(topo, List.of(sendsData, new ApiToys.Member(5, 1)), RunSettings.of(1_000, 1, 1)));
    assertTrue(ex.getMessage().contains("mixed-up -> device") && ex.getMessage().contains("requests"),
        ex.getMessage());
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

  /**
   * Golden digest of a small run: the same on every JVM, machine and thread count. If a deliberate change of the
   * kernel's order or hashing changes it, every stored digest changes with it: update it knowingly.
   */
  @Test
  void theDigestOfAFixedRunIsTheSameEverywhere() {
    assertEquals("c728310280ecc789", ring(4, 5, 2, 1_000_000).digestHex());
  }

  /** Records a fact for each token it sees. */
  static final class Noting extends ToyModels.Recorder {
    @Override
    public void onEvent(Context ctx, Event ev) {
      super.onEvent(ctx, ev);
      ctx.record(new Seen(ev.sender(), ev.a()));
    }
  }

  record Seen(int from, long what) implements CborSerializable {}

  @Test
  void factsReachTheSinkInWindowOrderSortedAndTheSameOnAnyNumberOfThreads() {
    List<String> reference = null;
    for (int threads : new int[] {1, 2, 8}) {
      List<SimComponent> models = new ArrayList<>();
      Topology topo = ToyModels.ring(6, LINK, models, WAIT, 3);
      models.set(models.size() - 1, new Noting());
      List<FactBatch> batches = new ArrayList<>();
      Simulation.run(topo, models, RunSettings.of(2_000_000, 9, threads).withFacts(batches::add));
      List<String> flat = new ArrayList<>();
      long lastWindow = -1;
      for (FactBatch fb : batches) {
        assertTrue(fb.window() > lastWindow, "window order");
        lastWindow = fb.window();
        for (int i = 1; i < fb.facts().size(); i++) assertTrue(fb.facts().get(i - 1).time() <= fb.facts().get(i).time());
        for (RecordedFact f : fb.facts()) flat.add(fb.window() + "@" + f.time() + ":" + f.component() + ":" + f.fact());
      }
      assertTrue(flat.size() > 50, "facts " + flat.size());
      if (reference == null) reference = flat;
      assertEquals(reference, flat, threads + " threads");
    }
  }

  /** Crashes at its first tick: drops the ticks it had set and the notes it holds; later notes still arrive. */
  static final class Crasher extends TimedRecorder {
    int dropped = -1;

    Crasher() {
      super(100, 150, 400);
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      super.onEvent(ctx, ev);
      if (ev.kind() == ToyModels.TICK && dropped < 0) dropped = ctx.crash();
    }
  }

  @Test
  void aCrashDropsWhatTheComponentHoldsButNotWhatIsStillOnItsWay() {
    Topology.Builder b = Topology.builder();
    int e = ToyModels.toy(b, "early", 0), late = ToyModels.toy(b, "late", 0), c = ToyModels.toy(b, "crasher", 2);
    int l1 = b.link(e, c, 0, 5);
    int l2 = b.link(late, c, 1, 5);
    Topology topo = b.build();
    Crasher crasher = new Crasher();
    // "early" sends at start (held by the crasher before t=100); "late" has its notes sent in a later window.
    SimComponent lateSender = new ToyModels.Emitter(l2) {
      @Override
      public void start(Context ctx) {
        ctx.schedule(200, ToyModels.TICK, 0, 0);
      }

      @Override
      public void onEvent(Context ctx, Event ev) {
        ctx.send(l2, 300, ToyModels.NOTE, 9, 0);
      }

      @Override
      public long inputDelay(int port) {
        return 100;
      }
    };
    Simulation.run(topo, List.of(new ToyModels.Emitter(l1, 50, 120, 130), lateSender, crasher),
        RunSettings.of(1_000, 1, 2));
    List<long[]> seen = ((ToyModels.RecorderState) crasher.results()).list();
    assertEquals(4, crasher.dropped, "notes at 120, 130 and ticks at 150, 400");
    assertEquals(List.of(50L, 100L, 300L), seen.stream().map(x -> x[0]).toList());
  }
}
