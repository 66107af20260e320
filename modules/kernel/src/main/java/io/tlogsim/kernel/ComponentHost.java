package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs one {@link SimComponent} inside the window protocol: holds its input queues, hands it its events in
 * (time, sender, sequence) order up to the window's horizon, checks and buffers what it sends, keeps its digest.
 * Plain Java (no Pekko), so that any transport can carry the batches it produces.
 */
final class ComponentHost implements Context {
  private final int id;
  private final Topology topo;
  private final SimComponent model;
  private final long endTime;
  private final long seed;
  private final EventQueue[] queues; // one per input port, then the component's own scheduled events
  private final int selfQueue;
  private final Outbox[] out;
  private Rng rng;

  private long digest = Digest.SEED;
  private long events;
  private long selfSeq;
  private long lastHorizon = Long.MIN_VALUE;
  private long now;
  private int sender;
  private long eot;

  ComponentHost(int id, Topology topo, SimComponent model, long endTime, long seed) {
    this.id = id;
    this.topo = topo;
    this.model = model;
    this.endTime = endTime;
    this.seed = seed;
    int ports = topo.ports(id);
    queues = new EventQueue[ports + 1];
    for (int p = 0; p <= ports; p++) queues[p] = new EventQueue();
    selfQueue = ports;
    int[] links = topo.outLinks(id);
    out = new Outbox[links.length];
    for (int k = 0; k < links.length; k++) out[k] = new Outbox(links[k]);
    rng = new Rng(Rng.seedFor(seed, id));
  }

  int id() {
    return id;
  }

  String name() {
    return topo.name(id);
  }

  Topology topology() {
    return topo;
  }

  long events() {
    return events;
  }

  long digest() {
    return digest;
  }

  Object results() {
    return model.results();
  }

  /** The window before the first one: the model sends its first events; nothing is handled. */
  void start() {
    now = 0;
    sender = id;
    eot = 0;
    model.start(this);
  }

  /** Adds a delivered batch to the input queue of its link's port (as a run when sorted, as senders send them). */
  void deliver(int link, long firstSeq, long[] time, int[] kind, long[] a, long[] b) {
    EventQueue q = queues[topo.port(link)];
    long rankBits = (long) topo.rank(link) << 40;
    boolean sorted = true;
    long min = VirtualTime.NEVER;
    for (int i = 0; i < time.length; i++) {
      if (i > 0 && time[i] < time[i - 1]) sorted = false;
      min = Math.min(min, time[i]);
    }
    if (min < lastHorizon) {
      throw new SimulationException(topo.name(topo.from(link)) + " -> " + topo.name(id) + ": an event at t=" + min
          + " ns arrived after " + topo.name(id) + " had handled events up to " + lastHorizon
          + " ns (a broken promise of the sender)");
    }
    if (sorted) {
      q.addRun(rankBits, firstSeq, time, kind, a, b);
    } else {
      for (int i = 0; i < time.length; i++) q.add(time[i], rankBits | (firstSeq + i), kind[i], a[i], b[i]);
    }
  }

  /** Handles every held event earlier than {@code horizon}, in order; sends nothing sooner than {@code eot}. */
  void process(long horizon, long eot) {
    this.eot = eot;
    EventQueue[] qs = queues;
    while (true) {
      EventQueue best = null;
      int bestPort = -1;
      for (int p = 0; p < qs.length; p++) {
        EventQueue q = qs[p];
        if (q.isEmpty()) continue;
        if (best == null || q.headBefore(best)) {
          best = q;
          bestPort = p;
        }
      }
      if (best == null) break;
      long t = best.headTime();
      if (t >= horizon) break;
      long tie = best.headTie();
      int kind = best.headKind();
      long a = best.headA(), b = best.headB();
      best.removeHead();
      int port = bestPort == selfQueue ? SELF_PORT : bestPort;
      now = t;
      sender = topo.senderOfRank((int) (tie >>> 40));
      digest = Digest.step(digest, t, tie, (port << 16) ^ kind, a, b);
      events++;
      model.onEvent(this, port, kind, a, b);
    }
    lastHorizon = Math.max(lastHorizon, horizon);
  }

  /** Earliest timestamp of anything this component may send because of what it holds now. */
  long heldPromise() {
    long min = VirtualTime.NEVER;
    for (int p = 0; p < queues.length; p++) {
      long h = queues[p].headTime();
      if (h != VirtualTime.NEVER) min = Math.min(min, VirtualTime.plus(h, inputDelay(p == selfQueue ? SELF_PORT : p)));
    }
    return min;
  }

  long minEvent() {
    long min = VirtualTime.NEVER;
    for (EventQueue q : queues) min = Math.min(min, q.headTime());
    return min;
  }

  /** Input delay of each port, never less than this component's smallest out-link lookahead. */
  long[] inputDelays() {
    long[] d = new long[topo.ports(id)];
    for (int p = 0; p < d.length; p++) d[p] = inputDelay(p);
    return d;
  }

  private long inputDelay(int port) {
    long d = model.inputDelay(port);
    if (d < 0) throw new SimulationException(topo.name(id) + ": negative input delay " + d + " on port " + port);
    return Math.max(d, topo.minOutLookahead(id));
  }

  /** Takes what was sent this window, one batch per link that carries anything. */
  List<Outbox.Batch> drain() {
    List<Outbox.Batch> batches = new ArrayList<>(2);
    for (Outbox o : out) {
      Outbox.Batch batch = o.drain();
      if (batch != null) batches.add(batch);
    }
    return batches;
  }

  ComponentState snapshot() {
    EventQueue.State[] qs = new EventQueue.State[queues.length];
    for (int p = 0; p < queues.length; p++) qs[p] = queues[p].state();
    long[] seqs = new long[out.length];
    for (int k = 0; k < out.length; k++) seqs[k] = out[k].nextSeq();
    return new ComponentState(id, model.snapshot(), qs, digest, events, rng.state(), seqs, selfSeq, lastHorizon);
  }

  void restore(ComponentState s) {
    if (s.component() != id || s.queues().length != queues.length || s.outSeq().length != out.length) {
      throw new SimulationException("checkpoint state of component " + s.component() + " does not fit "
          + topo.name(id) + " in this topology");
    }
    model.restore(s.model());
    for (int p = 0; p < queues.length; p++) queues[p] = EventQueue.restore(s.queues()[p]);
    digest = s.digest();
    events = s.events();
    rng = new Rng(s.rngState());
    for (int k = 0; k < out.length; k++) out[k].setNextSeq(s.outSeq()[k]);
    selfSeq = s.selfSeq();
    lastHorizon = s.lastHorizon();
  }

  // ---- Context ----

  @Override
  public int self() {
    return id;
  }

  @Override
  public long now() {
    return now;
  }

  @Override
  public int sender() {
    return sender;
  }

  @Override
  public long endTime() {
    return endTime;
  }

  @Override
  public long seed() {
    return seed;
  }

  @Override
  public Rng rng() {
    return rng;
  }

  @Override
  public void send(int link, long time, int kind, long a, long b) {
    if (link < 0 || link >= topo.links() || topo.from(link) != id) {
      throw new SimulationException(topo.name(id) + " sent on link " + link + ", which is not its own");
    }
    long earliest = now + topo.lookahead(link);
    if (time < earliest) {
      throw new SimulationException(topo.name(id) + " -> " + topo.name(topo.to(link)) + ": event at t=" + time
          + " ns is sooner than the link's lookahead allows (now " + now + " ns + " + topo.lookahead(link)
          + " ns)");
    }
    if (time < eot) {
      throw new SimulationException(topo.name(id) + " -> " + topo.name(topo.to(link)) + ": event at t=" + time
          + " ns is earlier than the " + eot + " ns this component promised for the window (its inputDelay is"
          + " too optimistic)");
    }
    out[topo.outSlot(link)].add(time, kind, a, b);
  }

  @Override
  public void schedule(long time, int kind, long a, long b) {
    if (time < now) {
      throw new SimulationException(topo.name(id) + " scheduled an event at t=" + time + " ns, before now ("
          + now + " ns)");
    }
    if (selfSeq > Topology.MAX_SEQ) throw new SimulationException(topo.name(id) + ": too many scheduled events");
    queues[selfQueue].add(time, ((long) topo.selfRank(id) << 40) | selfSeq++, kind, a, b);
  }
}
