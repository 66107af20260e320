package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Small components for kernel tests: no domain, just timing, randomness and ordering. */
final class ToyModels {
  private ToyModels() {}

  static final int TOKEN = 1;
  static final int TICK = 2;
  static final int NOTE = 3;

  /** Sends a fixed list of events on one link at start (and nothing else). */
  static final class Emitter implements SimComponent {
    private final int link;
    private final long[] times;

    Emitter(int link, long... times) {
      this.link = link;
      this.times = times;
    }

    @Override
    public void start(Context ctx) {
      for (int i = 0; i < times.length; i++) ctx.send(link, times[i], NOTE, i, 0);
    }

    @Override
    public void onEvent(Context ctx, int port, int kind, long a, long b) {}

    @Override
    public long inputDelay(int port) {
      return VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return "emitter";
    }

    @Override
    public void restore(Object snapshot) {}

    @Override
    public Object results() {
      return null;
    }
  }

  /** Records every event it handles as {time, sender, kind, a}. */
  static class Recorder implements SimComponent {
    private List<long[]> seen = new ArrayList<>();

    @Override
    public void onEvent(Context ctx, int port, int kind, long a, long b) {
      seen.add(new long[] {ctx.now(), ctx.sender(), kind, a});
    }

    @Override
    public long inputDelay(int port) {
      return VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return new RecorderState(seen.stream().map(long[]::clone).toArray(long[][]::new));
    }

    @Override
    public void restore(Object snapshot) {
      seen = new ArrayList<>(Arrays.asList(((RecorderState) snapshot).seen()));
    }

    @Override
    public Object results() {
      return List.copyOf(seen);
    }
  }

  record RecorderState(long[][] seen) implements CborSerializable {}

  /**
   * One station of a ring: forwards each token to the next station after its link delay plus a random wait,
   * sometimes schedules a tick for itself, and copies every fourth tick to a recorder.
   */
  static final class Hopper implements SimComponent {
    private final int next;
    private final int recorder; // -1: none
    private final double meanWaitNs;
    private final long linkNs;
    private final int startTokens;
    private HopperState s = new HopperState(0, 0);

    Hopper(int next, int recorder, double meanWaitNs, long linkNs, int startTokens) {
      this.next = next;
      this.recorder = recorder;
      this.meanWaitNs = meanWaitNs;
      this.linkNs = linkNs;
      this.startTokens = startTokens;
    }

    @Override
    public void start(Context ctx) {
      for (int i = 0; i < startTokens; i++) {
        ctx.send(next, linkNs + ctx.rng().nextExponential(meanWaitNs), TOKEN, ctx.self() * 1000L + i, 0);
      }
    }

    @Override
    public void onEvent(Context ctx, int port, int kind, long a, long b) {
      if (kind == TOKEN) {
        s = new HopperState(s.hops() + 1, s.ticks());
        ctx.send(next, ctx.now() + linkNs + ctx.rng().nextExponential(meanWaitNs), TOKEN, a, b + 1);
        if (ctx.rng().nextDouble() < 0.3) ctx.schedule(ctx.now() + ctx.rng().nextExponential(meanWaitNs), TICK, a, 0);
      } else if (kind == TICK) {
        s = new HopperState(s.hops(), s.ticks() + 1);
        if (recorder >= 0 && s.ticks() % 4 == 0) ctx.send(recorder, ctx.now() + linkNs, NOTE, a, s.ticks());
      }
    }

    @Override
    public long inputDelay(int port) {
      return linkNs;
    }

    @Override
    public Object snapshot() {
      return s;
    }

    @Override
    public void restore(Object snapshot) {
      s = (HopperState) snapshot;
    }

    @Override
    public Object results() {
      return s;
    }
  }

  record HopperState(long hops, long ticks) implements CborSerializable {}

  /** A ring of {@code n} hoppers that also report to one recorder (the last component). */
  static Topology ring(int n, long linkNs, List<SimComponent> models, double meanWaitNs, int tokens) {
    Topology.Builder b = Topology.builder();
    for (int i = 0; i < n; i++) b.component("hopper-" + i, 1);
    int rec = b.component("recorder", 1);
    int[] nextLink = new int[n];
    int[] recLink = new int[n];
    for (int i = 0; i < n; i++) {
      nextLink[i] = b.link(i, (i + 1) % n, 0, linkNs);
      recLink[i] = b.link(i, rec, 0, linkNs);
    }
    for (int i = 0; i < n; i++) models.add(new Hopper(nextLink[i], recLink[i], meanWaitNs, linkNs, tokens));
    models.add(new Recorder());
    return b.build();
  }
}
