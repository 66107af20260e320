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

  /** What every toy port accepts and every toy emits. */
  static final Protocol TOY = Protocol.of("toy", TOKEN, "token", TICK, "tick", NOTE, "note");

  /** A component with {@code ports} toy input ports that emits toy events. */
  static int toy(Topology.Builder b, String name, int ports) {
    List<Protocol> in = new ArrayList<>();
    for (int p = 0; p < ports; p++) in.add(TOY);
    return b.component(name, in, List.of(TOY));
  }

  /** Sends a fixed list of NOTE events on one link at start (and nothing else). */
  static class Emitter implements SimComponent {
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
    public void onEvent(Context ctx, Event ev) {}

    @Override
    public long inputDelay(int port) {
      return VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return new Nothing();
    }

    @Override
    public void restore(Object snapshot) {}

    @Override
    public Object results() {
      return null;
    }
  }

  record Nothing() implements CborSerializable {}

  /** Records every event it handles as {time, sender, kind, a}. */
  static class Recorder implements SimComponent {
    private List<long[]> seen = new ArrayList<>();

    @Override
    public void onEvent(Context ctx, Event ev) {
      seen.add(new long[] {ev.time(), ev.sender(), ev.kind(), ev.a()});
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
      return new RecorderState(seen.toArray(long[][]::new));
    }
  }

  record RecorderState(long[][] seen) implements CborSerializable {
    List<long[]> list() {
      return Arrays.asList(seen);
    }
  }

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
    public void onEvent(Context ctx, Event ev) {
      if (ev.kind() == TOKEN) {
        s = new HopperState(s.hops() + 1, s.ticks());
        ctx.send(next, ctx.now() + linkNs + ctx.rng().nextExponential(meanWaitNs), TOKEN, ev.a(), ev.b() + 1);
        if (ctx.rng().nextDouble() < 0.3) {
          ctx.schedule(ctx.now() + ctx.rng().nextExponential(meanWaitNs), TICK, ev.a(), 0);
        }
      } else if (ev.kind() == TICK) {
        s = new HopperState(s.hops(), s.ticks() + 1);
        if (recorder >= 0 && s.ticks() % 4 == 0) ctx.send(recorder, ctx.now() + linkNs, NOTE, ev.a(), s.ticks());
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
    for (int i = 0; i < n; i++) toy(b, "hopper-" + i, 1);
    int rec = toy(b, "recorder", 1);
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

  /** The recorder's list from a finished run whose last component is a {@link Recorder}. */
  static List<long[]> recorded(RunOutcome out) {
    return ((RecorderState) out.results().get(out.results().size() - 1)).list();
  }
}
