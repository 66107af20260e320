package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs one {@link SimComponent} inside the window protocol, in plain Java (no Pekko, so that any transport can carry
 * what it produces): takes in delivered batches, hands the model its events in order up to the window's horizon,
 * checks and buffers what it sends, keeps its digest, and says what it promises for the next window.
 */
final class ComponentHost implements Context {
  private final int id;
  private final Topology topo;
  private final SimComponent model;
  private final long endTime;
  private final long seed;
  private final boolean keepFacts;
  private final EventQueue queue;
  private final Outbox[] out; // by out-link slot
  private final long[] inSeq; // by in-link rank: the next sequence number expected
  private final Event event = new Event();
  private Rng rng;

  private long digest = Digest.SEED;
  private long events;
  private long lastHorizon = Long.MIN_VALUE; // every event before it has been handled
  private long[] eot; // per out-link slot: nothing may be sent earlier in this window
  private boolean handling; // inside onEvent (or start): sends and timers are allowed
  private boolean finishing; // inside finish: only facts may be recorded
  private List<RecordedFact> facts;

  ComponentHost(int id, Topology topo, SimComponent model, long endTime, long seed, boolean keepFacts) {
    this.id = id;
    this.topo = topo;
    this.model = model;
    this.endTime = endTime;
    this.seed = seed;
    this.keepFacts = keepFacts;
    int[] ins = topo.inLinks(id);
    queue = new EventQueue(id, ins.length);
    inSeq = new long[ins.length];
    int[] links = topo.outLinks(id);
    out = new Outbox[links.length];
    for (int k = 0; k < links.length; k++) out[k] = new Outbox(links[k]);
    eot = new long[links.length];
    rng = new Rng(Rng.seedFor(seed, id));
  }

  int id() {
    return id;
  }

  String name() {
    return topo.name(id);
  }

  /** The component a link leads to. */
  int destination(int link) {
    return topo.to(link);
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

  /** The run is over: the model may record its last facts, at the run's end time (no sends, no timers). */
  void finish() {
    event.time = endTime;
    event.sender = id;
    event.port = SELF_PORT;
    finishing = true;
    try {
      model.finish(this);
    } finally {
      finishing = false;
    }
  }

  /** The window before the first one on a fresh run: the model sends its first events at time 0. */
  void start() {
    event.time = 0;
    event.sender = id;
    event.port = SELF_PORT;
    handling = true;
    model.start(this);
    handling = false;
  }

  /** Takes a delivered batch in. Batches of one link must come in sending order (the actor sorts them). */
  void take(EventBatch batch) {
    int link = batch.link();
    if (link < 0 || link >= topo.links() || topo.to(link) != id) {
      throw new SimulationException(name() + " received a batch of link " + link + ", which does not lead to it");
    }
    int rank = topo.inRank(link);
    if (batch.firstSeq() != inSeq[rank]) {
      throw new SimulationException(topo.name(topo.from(link)) + " -> " + name() + ": batch starts at sequence "
          + batch.firstSeq() + ", expected " + inSeq[rank] + " (a batch was lost or delivered twice)");
    }
    if (batch.minTime() < lastHorizon) {
      throw new SimulationException(topo.name(topo.from(link)) + " -> " + name() + ": an event at t="
          + batch.minTime() + " ns arrived after " + name() + " had handled events up to " + lastHorizon
          + " ns (a kernel error: promises are checked when events are sent)");
    }
    inSeq[rank] += batch.size();
    queue.addRun(batch, topo.port(link), rank, topo.from(link));
  }

  /** Handles every held event earlier than {@code horizon}, in order; sends on out-link slot k no sooner than eot[k]. */
  void process(long horizon, long[] eot) {
    this.eot = eot;
    EventQueue q = queue;
    Event ev = event;
    SimComponent m = model;
    handling = true;
    while (q.headTime() < horizon) {
      long tie = q.pop(ev);
      digest = Digest.step(digest, ev.time, tie, (ev.port << 16) ^ ev.kind, ev.a, ev.b, ev.c, ev.d);
      events++;
      m.onEvent(this, ev);
    }
    handling = false;
    lastHorizon = Math.max(lastHorizon, horizon);
  }

  /**
   * What this component promises for the next window, in its current state: its earliest held event; its quiet
   * time; per out-link slot the earliest time it may send there because of what it holds ({@code quietUntil} not
   * applied: the clock applies it to everything); and the least delay from an input on each port to an output on each
   * out-link, {@code delay[port * outLinks + slot]}, never less than the link's lookahead.
   */
  Clock.Promise promise() {
    int ports = topo.ports(id), outs = out.length;
    long[] head = queue.headTimeByPort(ports);
    long[] held = new long[outs];
    java.util.Arrays.fill(held, VirtualTime.NEVER);
    long[] delay = new long[ports * outs];
    for (int p = SELF_PORT; p < ports; p++) {
      long h = head[p + 1];
      if (p == SELF_PORT && h == VirtualTime.NEVER) continue; // no timer: its delays are not needed
      for (int k = 0; k < outs; k++) {
        long d = delay(p, k);
        if (p >= 0) delay[p * outs + k] = d;
        if (h != VirtualTime.NEVER) held[k] = Math.min(held[k], VirtualTime.plus(h, d));
      }
    }
    return new Clock.Promise(queue.headTime(), model.quietUntil(), held, delay);
  }

  private long delay(int port, int slot) {
    int link = topo.outLinks(id)[slot];
    long d = model.inputDelay(port, link);
    if (d < 0) {
      throw new SimulationException(name() + ": negative input delay " + d + " for " + topo.portName(id, port));
    }
    return Math.max(d, topo.lookahead(link));
  }

  /** What was sent this window, one batch per link that carries anything. */
  List<EventBatch> drain(long window) {
    List<EventBatch> batches = new ArrayList<>(2);
    for (Outbox o : out) {
      EventBatch batch = o.drain(window);
      if (batch != null) batches.add(batch);
    }
    return batches;
  }

  /** The facts recorded since the last call, or null. */
  List<RecordedFact> drainFacts() {
    List<RecordedFact> f = facts;
    facts = null;
    return f;
  }

  ComponentState snapshot() {
    long[] outSeq = new long[out.length];
    for (int k = 0; k < out.length; k++) outSeq[k] = out[k].nextSeq();
    return new ComponentState(id, model.snapshot(), queue.state(), digest, events, rng.state(), outSeq, inSeq.clone(),
        lastHorizon);
  }

  void restore(ComponentState s) {
    if (s.component() != id || s.outSeq().length != out.length || s.inSeq().length != inSeq.length) {
      throw new SimulationException("the checkpoint's state of component " + s.component() + " does not fit "
          + name() + " in this topology (" + s.outSeq().length + " out-links and " + s.inSeq().length
          + " in-links, expected " + out.length + " and " + inSeq.length + ")");
    }
    model.restore(s.model());
    queue.restore(s.queue(), (q, rest) -> {
      int link = rest.link();
      q.addRun(rest, topo.port(link), topo.inRank(link), topo.from(link));
    });
    digest = s.digest();
    events = s.events();
    rng = new Rng(s.rngState());
    for (int k = 0; k < out.length; k++) out[k].setNextSeq(s.outSeq()[k]);
    System.arraycopy(s.inSeq(), 0, inSeq, 0, inSeq.length);
    lastHorizon = s.lastHorizon();
  }

  // ---- Context ----

  @Override
  public int self() {
    return id;
  }

  @Override
  public long now() {
    return event.time;
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
  public String name(int component) {
    return topo.name(component);
  }

  @Override
  public int linkTo(int component) {
    int l = component >= 0 && component < topo.components() ? topo.linkBetween(id, component) : -1;
    if (l < 0) throw new SimulationException(name() + " has no link to component " + component);
    return l;
  }

  @Override
  public int replyLink() {
    int l = topo.linkBetween(id, event.sender);
    if (l < 0) {
      throw new SimulationException(name() + " has no link back to " + topo.name(event.sender) + ", the sender of "
          + event);
    }
    return l;
  }

  @Override
  public void send(int link, long time, int kind, long a, long b) {
    send(link, time, kind, a, b, 0, 0, null);
  }

  @Override
  public void send(int link, long time, int kind, long a, long b, long c, long d) {
    send(link, time, kind, a, b, c, d, null);
  }

  @Override
  public void send(int link, long time, int kind, long a, long b, long c, long d, Object payload) {
    if (link < 0 || link >= topo.links() || topo.from(link) != id) {
      throw new SimulationException(name() + " sent on link " + link + ", which is not its own");
    }
    if (!handling) throw new SimulationException(name() + " sent an event outside onEvent/start");
    if (!topo.carries(link, kind)) {
      throw new SimulationException(name() + " -> " + topo.name(topo.to(link)) + ": kind " + kind + " is not part of "
          + topo.portProtocol(topo.to(link), topo.port(link)) + ", what that port accepts");
    }
    long now = event.time;
    long earliest = now + topo.lookahead(link);
    if (time < earliest) {
      throw new SimulationException(name() + " -> " + topo.name(topo.to(link)) + ": event at t=" + time
          + " ns is sooner than the link's lookahead allows (now " + now + " ns + " + topo.lookahead(link) + " ns)");
    }
    int slot = topo.outSlot(link);
    if (time < eot[slot]) {
      throw new SimulationException(name() + " broke its promise: it sent to " + topo.name(topo.to(link))
          + " an event at t=" + time + " ns while handling an event on " + topo.portName(id, event.port) + " at t="
          + now + " ns, but had promised nothing on that link before " + eot[slot] + " ns (its inputDelay or"
          + " quietUntil was too optimistic: a reported delay must hold for every input of the next window,"
          + " whatever else arrives in it)");
    }
    if (payload != null && !(payload instanceof CborSerializable)) {
      throw new SimulationException(name() + ": an event's payload must be CborSerializable, got "
          + payload.getClass().getName());
    }
    out[slot].add(time, kind, a, b, c, d, payload);
  }

  @Override
  public long schedule(long time, int kind, long a, long b) {
    return schedule(time, kind, a, b, 0, 0, null);
  }

  @Override
  public long schedule(long time, int kind, long a, long b, long c, long d, Object payload) {
    if (!handling) throw new SimulationException(name() + " scheduled an event outside onEvent/start");
    if (time < event.time) {
      throw new SimulationException(name() + " scheduled an event at t=" + time + " ns, before now (" + event.time
          + " ns)");
    }
    return queue.schedule(time, kind, a, b, c, d, payload);
  }

  @Override
  public boolean cancel(long timer) {
    return queue.cancel(timer);
  }

  @Override
  public void record(Object fact) {
    if (!keepFacts) return;
    if (!(fact instanceof CborSerializable)) {
      throw new SimulationException(name() + ": a fact must be CborSerializable, got "
          + (fact == null ? "null" : fact.getClass().getName()));
    }
    if (facts == null) facts = new ArrayList<>();
    facts.add(new RecordedFact(event.time, id, fact));
  }

  @Override
  public int crash() {
    return queue.clear();
  }
}
