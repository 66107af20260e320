package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Toy models shaped like what the domain models need from the kernel: a RAID-like fan-out, a group-commit flusher
 * with a re-armed and cancelled timer, a gate. Plain mechanisms, no database terms.
 */
final class ApiToys {
  private ApiToys() {}

  static final int REQ = 10;
  static final int DONE = 11;
  static final int OPEN = 12;
  static final int CLOSE = 13;
  static final int DATA = 14;
  static final int NEXT = 15; // timers

  static final Protocol REQUESTS = Protocol.of("requests", REQ, "request");
  static final Protocol COMPLETIONS = Protocol.of("completions", DONE, "done");
  static final Protocol CONTROL = Protocol.of("control", OPEN, "open", CLOSE, "close");
  static final Protocol STREAM = Protocol.of("stream", DATA, "data");

  // ---------------------------------------------------------------------------------------------------------------
  // A closed-loop client, a controller that fans each request out to its members and gathers their completions, and
  // members that answer when they accept (they know the completion time then).

  /** Keeps {@code depth} requests outstanding; after each completion thinks, then sends the next request. */
  static final class Client implements SimComponent {
    private final int link;
    private final int depth;
    private final double thinkNs;
    private final long hopNs;
    private ClientState s = new ClientState(0, 0, 0);

    Client(int link, int depth, double thinkNs, long hopNs) {
      this.link = link;
      this.depth = depth;
      this.thinkNs = thinkNs;
      this.hopNs = hopNs;
    }

    @Override
    public void start(Context ctx) {
      for (int i = 0; i < depth; i++) request(ctx, 0);
    }

    private void request(Context ctx, long from) {
      long at = from + hopNs + ctx.rng().nextExponential(thinkNs);
      ctx.send(link, at, REQ, s.nextTag(), 4096);
      s = new ClientState(s.nextTag() + 1, s.done(), s.latencySum());
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      s = new ClientState(s.nextTag(), s.done() + 1, s.latencySum() + ev.b());
      request(ctx, ctx.now());
    }

    @Override
    public long inputDelay(int port) {
      return hopNs;
    }

    @Override
    public Object snapshot() {
      return s;
    }

    @Override
    public void restore(Object snapshot) {
      s = (ClientState) snapshot;
    }

    @Override
    public Object results() {
      return s;
    }
  }

  record ClientState(long nextTag, long done, long latencySum) implements CborSerializable {}

  /** Sends each request to every member; answers the client once all members completed it. */
  static final class FanOut implements SimComponent {
    static final int FROM_CLIENT = 0;
    static final int FROM_MEMBERS = 1;
    private final int[] memberLinks;
    private final int clientLink;
    private final long hopNs;
    private FanOutState s = new FanOutState(new long[0], new int[0], new long[0]);

    FanOut(int clientLink, int[] memberLinks, long hopNs) {
      this.clientLink = clientLink;
      this.memberLinks = memberLinks;
      this.hopNs = hopNs;
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      if (ev.kind() == REQ) {
        for (int m : memberLinks) ctx.send(m, ctx.now() + hopNs, REQ, ev.a(), ev.b());
        s = s.with(ev.a(), memberLinks.length, ctx.now());
      } else {
        int i = s.indexOf(ev.a());
        int left = s.left()[i] - 1;
        if (left == 0) {
          ctx.send(clientLink, ctx.now() + hopNs, DONE, ev.a(), ctx.now() + hopNs - s.start()[i]);
          s = s.without(i);
        } else {
          s.left()[i] = left;
        }
      }
    }

    @Override
    public long inputDelay(int port) {
      return hopNs;
    }

    /** A request goes to the members only; a completion to the client only: each link has its own promise. */
    @Override
    public long inputDelay(int port, int outLink) {
      boolean toClient = outLink == clientLink;
      return (port == FROM_CLIENT) != toClient ? hopNs : VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return new FanOutState(s.tag().clone(), s.left().clone(), s.start().clone());
    }

    @Override
    public void restore(Object snapshot) {
      s = (FanOutState) snapshot;
    }

    @Override
    public Object results() {
      return s.tag().length;
    }
  }

  record FanOutState(long[] tag, int[] left, long[] start) implements CborSerializable {
    int indexOf(long t) {
      for (int i = 0; i < tag.length; i++) if (tag[i] == t) return i;
      throw new IllegalStateException("no request " + t);
    }

    FanOutState with(long t, int members, long now) {
      int n = tag.length;
      long[] tg = Arrays.copyOf(tag, n + 1);
      int[] l = Arrays.copyOf(left, n + 1);
      long[] st = Arrays.copyOf(start, n + 1);
      tg[n] = t;
      l[n] = members;
      st[n] = now;
      return new FanOutState(tg, l, st);
    }

    FanOutState without(int i) {
      int n = tag.length;
      long[] tg = new long[n - 1];
      int[] l = new int[n - 1];
      long[] st = new long[n - 1];
      for (int j = 0, k = 0; j < n; j++) {
        if (j == i) continue;
        tg[k] = tag[j];
        l[k] = left[j];
        st[k++] = start[j];
      }
      return new FanOutState(tg, l, st);
    }
  }

  /** Serves one request at a time: base + bytes / rate, with a random extra; answers when it accepts. */
  static final class Member implements SimComponent {
    private final long baseNs;
    private final double extraMeanNs;
    private MemberState s = new MemberState(0, 0);

    Member(long baseNs, double extraMeanNs) {
      this.baseNs = baseNs;
      this.extraMeanNs = extraMeanNs;
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      long done = Math.max(ctx.now(), s.busyUntil()) + baseNs + ctx.rng().nextExponential(extraMeanNs);
      ctx.send(ctx.replyLink(), done, DONE, ev.a(), 0);
      s = new MemberState(done, s.served() + 1);
    }

    @Override
    public long inputDelay(int port) {
      return baseNs;
    }

    @Override
    public Object snapshot() {
      return s;
    }

    @Override
    public void restore(Object snapshot) {
      s = (MemberState) snapshot;
    }

    @Override
    public Object results() {
      return s;
    }
  }

  record MemberState(long busyUntil, long served) implements CborSerializable {}

  record Raid(Topology topology, List<SimComponent> models, int client) {}

  static Raid raid(int members, int depth) {
    long hop = 1_000, memberLink = 1_000;
    Topology.Builder b = Topology.builder();
    int client = b.component("client", COMPLETIONS, REQUESTS);
    int ctl = b.component("controller", List.of(REQUESTS, COMPLETIONS), List.of(REQUESTS, COMPLETIONS));
    int[] m = new int[members];
    for (int i = 0; i < members; i++) m[i] = b.component("member-" + i, REQUESTS, COMPLETIONS);
    int toCtl = b.link(client, ctl, FanOut.FROM_CLIENT, hop);
    int toClient = b.link(ctl, client, 0, hop);
    int[] toMember = new int[members];
    for (int i = 0; i < members; i++) {
      toMember[i] = b.link(ctl, m[i], 0, memberLink);
      b.link(m[i], ctl, FanOut.FROM_MEMBERS, 50_000);
    }
    List<SimComponent> models = new ArrayList<>();
    models.add(new Client(toCtl, depth, 200_000, hop));
    models.add(new FanOut(toClient, toMember, hop));
    for (int i = 0; i < members; i++) models.add(new Member(50_000, 20_000));
    return new Raid(b.build(), models, client);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Group commit: committers send commits to a flusher, which writes when K wait or when a timer set at the first
  // waiting commit fires (the timer is cancelled by a K-flush and re-armed after each write), one write in flight.

  /** N committers in one component: think, commit, wait for the acknowledgement. */
  static final class Committers implements SimComponent {
    private final int link;
    private final int n;
    private final double thinkNs;
    private final long hopNs;
    private long acked;

    Committers(int link, int n, double thinkNs, long hopNs) {
      this.link = link;
      this.n = n;
      this.thinkNs = thinkNs;
      this.hopNs = hopNs;
    }

    @Override
    public void start(Context ctx) {
      for (int i = 0; i < n; i++) ctx.send(link, hopNs + ctx.rng().nextExponential(thinkNs), REQ, i, 0);
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      acked++;
      ctx.send(link, ctx.now() + hopNs + ctx.rng().nextExponential(thinkNs), REQ, ev.a(), 0);
    }

    @Override
    public long inputDelay(int port) {
      return hopNs;
    }

    @Override
    public Object snapshot() {
      return new long[] {acked};
    }

    @Override
    public void restore(Object snapshot) {
      acked = ((long[]) snapshot)[0];
    }

    @Override
    public Object results() {
      return acked;
    }
  }

  static final class Flusher implements SimComponent {
    static final int COMMITS = 0;
    static final int DISK = 1;
    private final int diskLink;
    private final int ackLink;
    private final int k;
    private final long waitNs;
    private final long hopNs;
    private final boolean perLink;
    private FlusherState s = new FlusherState(new long[0], new long[0], false, -1, 0, 0, 0, 0);

    /** @param perLink false: report one delay per port (the smallest over links), to compare windows */
    Flusher(int diskLink, int ackLink, int k, long waitNs, long hopNs, boolean perLink) {
      this.diskLink = diskLink;
      this.ackLink = ackLink;
      this.k = k;
      this.waitNs = waitNs;
      this.hopNs = hopNs;
      this.perLink = perLink;
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      switch (ev.kind()) {
        case REQ -> {
          long[] w = Arrays.copyOf(s.waiting(), s.waiting().length + 1);
          w[w.length - 1] = ev.a();
          s = s.withWaiting(w);
          if (!s.busy()) {
            if (w.length >= k) {
              flush(ctx);
            } else if (s.timer() < 0) {
              s = s.withTimer(ctx.schedule(ctx.now() + waitNs, NEXT, 0, 0), s.armed() + 1);
            }
          }
        }
        case NEXT -> {
          s = s.withTimer(-1, s.armed());
          if (!s.busy() && s.waiting().length > 0) flush(ctx);
        }
        case DONE -> {
          for (long c : s.writing()) ctx.send(ackLink, ctx.now() + hopNs, DONE, c, 0);
          s = new FlusherState(s.waiting(), new long[0], false, s.timer(), s.flushes(), s.cancelled(), s.armed(),
              s.timerFlushes());
          if (s.waiting().length >= k) {
            flush(ctx);
          } else if (s.waiting().length > 0 && s.timer() < 0) {
            s = s.withTimer(ctx.schedule(ctx.now() + waitNs, NEXT, 0, 0), s.armed() + 1); // re-armed
          }
        }
        default -> throw new IllegalStateException("kind " + ev.kind());
      }
    }

    private void flush(Context ctx) {
      boolean byTimer = s.timer() < 0;
      long cancelled = s.cancelled();
      if (s.timer() >= 0) {
        if (!ctx.cancel(s.timer())) throw new IllegalStateException("timer " + s.timer() + " was not pending");
        cancelled++;
      }
      ctx.send(diskLink, ctx.now() + 1, REQ, s.flushes(), s.waiting().length * 200L);
      s = new FlusherState(new long[0], s.waiting(), true, -1, s.flushes() + 1, cancelled, s.armed(),
          s.timerFlushes() + (byTimer ? 1 : 0));
    }

    @Override
    public long inputDelay(int port) {
      return 1; // the disk link's lookahead: the smallest a reaction can take
    }

    @Override
    public long inputDelay(int port, int outLink) {
      if (!perLink) return inputDelay(port);
      if (outLink == ackLink) return port == DISK ? hopNs : VirtualTime.NEVER; // only a completion acknowledges
      if (port == COMMITS || port == Context.SELF_PORT) return s.busy() ? VirtualTime.NEVER : 1;
      return 1;
    }

    @Override
    public Object snapshot() {
      return s;
    }

    @Override
    public void restore(Object snapshot) {
      s = (FlusherState) snapshot;
    }

    @Override
    public Object results() {
      return s;
    }
  }

  record FlusherState(long[] waiting, long[] writing, boolean busy, long timer, long flushes, long cancelled,
      long armed, long timerFlushes) implements CborSerializable {
    FlusherState withWaiting(long[] w) {
      return new FlusherState(w, writing, busy, timer, flushes, cancelled, armed, timerFlushes);
    }

    FlusherState withTimer(long t, long armedCount) {
      return new FlusherState(waiting, writing, busy, t, flushes, cancelled, armedCount, timerFlushes);
    }
  }

  record GroupCommit(Topology topology, List<SimComponent> models, int flusher) {}

  static GroupCommit groupCommit(int committers, int k, long waitNs, boolean perLink) {
    long hop = 5_000;
    Topology.Builder b = Topology.builder();
    int pool = b.component("committers", COMPLETIONS, REQUESTS);
    int fl = b.component("flusher", List.of(REQUESTS, COMPLETIONS), List.of(REQUESTS, COMPLETIONS));
    int disk = b.component("disk", REQUESTS, COMPLETIONS);
    int toFl = b.link(pool, fl, Flusher.COMMITS, hop);
    int toPool = b.link(fl, pool, 0, hop);
    int toDisk = b.link(fl, disk, 0, 1);
    b.link(disk, fl, Flusher.DISK, 100_000);
    List<SimComponent> models = new ArrayList<>();
    models.add(new Committers(toFl, committers, 1_000_000, hop));
    models.add(new Flusher(toDisk, toPool, k, waitNs, hop, perLink));
    models.add(new Member(100_000, 10_000));
    return new GroupCommit(b.build(), models, fl);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // A gate: data passes while it is open and waits while it is closed; a controller opens and closes it.

  /** Sends data at random times, driven by its own timers (it has no inputs). */
  static final class Source implements SimComponent {
    private final int link;
    private final double gapNs;
    private final long hopNs;

    Source(int link, double gapNs, long hopNs) {
      this.link = link;
      this.gapNs = gapNs;
      this.hopNs = hopNs;
    }

    @Override
    public void start(Context ctx) {
      ctx.schedule(ctx.rng().nextExponential(gapNs), NEXT, 0, 0);
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      ctx.send(link, ctx.now() + hopNs, DATA, ev.a(), 0);
      ctx.schedule(ctx.now() + ctx.rng().nextExponential(gapNs), NEXT, ev.a() + 1, 0);
    }

    @Override
    public long inputDelay(int port) {
      return hopNs;
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

  /** Sends open and close at fixed times, all at start. */
  static final class Controller implements SimComponent {
    private final int link;
    private final long[] times;

    Controller(int link, long... times) {
      this.link = link;
      this.times = times;
    }

    @Override
    public void start(Context ctx) {
      for (int i = 0; i < times.length; i++) ctx.send(link, times[i], i % 2 == 0 ? OPEN : CLOSE, i, 0);
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

  static final class Gate implements SimComponent {
    static final int CONTROL_PORT = 0;
    static final int DATA_PORT = 1;
    private final int out;
    private final long hopNs;
    private final boolean honest;
    private GateState s = new GateState(false, new long[0], 0);

    /** @param honest false: promise NEVER for data while closed (the old, too weak reading of the contract) */
    Gate(int out, long hopNs, boolean honest) {
      this.out = out;
      this.hopNs = hopNs;
      this.honest = honest;
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      switch (ev.kind()) {
        case OPEN -> {
          for (long d : s.held()) ctx.send(out, ctx.now() + hopNs, DATA, d, 0);
          s = new GateState(true, new long[0], s.passed() + s.held().length);
        }
        case CLOSE -> s = new GateState(false, s.held(), s.passed());
        case DATA -> {
          if (s.open()) {
            ctx.send(out, ctx.now() + hopNs, DATA, ev.a(), 0);
            s = new GateState(true, s.held(), s.passed() + 1);
          } else {
            long[] h = Arrays.copyOf(s.held(), s.held().length + 1);
            h[h.length - 1] = ev.a();
            s = new GateState(false, h, s.passed());
          }
        }
        default -> throw new IllegalStateException("kind " + ev.kind());
      }
    }

    /**
     * Data passes after one hop if the gate is open, or if it can open within the window (an open may arrive on the
     * control port at any time): so one hop, even while closed. A control event causes output only when data wait.
     */
    @Override
    public long inputDelay(int port) {
      if (port == DATA_PORT) return s.open() || honest ? hopNs : VirtualTime.NEVER;
      return s.held().length > 0 ? hopNs : VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return s;
    }

    @Override
    public void restore(Object snapshot) {
      s = (GateState) snapshot;
    }

    @Override
    public Object results() {
      return s;
    }
  }

  record GateState(boolean open, long[] held, long passed) implements CborSerializable {}

  record GateRun(Topology topology, List<SimComponent> models, int gate) {}

  static GateRun gate(boolean honest, long... controlTimes) {
    long hop = 2_000;
    Topology.Builder b = Topology.builder();
    int src = b.component("source", null, STREAM);
    int ctl = b.component("controller", null, CONTROL);
    int gate = b.component("gate", List.of(CONTROL, STREAM), List.of(STREAM));
    int sink = b.component("sink", STREAM, null);
    int toGateData = b.link(src, gate, Gate.DATA_PORT, hop);
    int toGateCtl = b.link(ctl, gate, Gate.CONTROL_PORT, hop);
    int toSink = b.link(gate, sink, 0, hop);
    List<SimComponent> models = new ArrayList<>();
    models.add(new Source(toGateData, 10_000, hop));
    models.add(new Controller(toGateCtl, controlTimes));
    models.add(new Gate(toSink, hop, honest));
    models.add(new ToyModels.Recorder());
    return new GateRun(b.build(), models, gate);
  }
}
