package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The run's clock: grants conservative windows (DESIGN.md principle 3).
 *
 * <p>After each window every component reports (a) the earliest timestamp it may send given what it holds and
 * (b) per input port the least delay from a new input to an output. Adding the batches still in flight, the clock
 * takes the fixed point {@code EOT_i = min(a_i, min over links j->i of EOT_j + d_i(port))} (a shortest-path
 * computation, all delays non-negative) and gives component i the horizon {@code min over links j->i of EOT_j}:
 * no event below it can still arrive, so i handles every held event below it. Only components with such events
 * are woken; idle time is skipped because horizons follow the promises, not a fixed step.
 */
public final class Clock extends AbstractBehavior<Clock.Command> {

  public sealed interface Command extends CborSerializable {}

  /** A component's account of one window. */
  public record Report(int component, long round, long heldPromise, long minEvent, long[] inputDelay,
      int[] sentLinks, long[] sentMin, long events, ComponentState snapshot) implements Command {}

  /** A component's digest and results at the end of the run. */
  public record Final(int component, long digest, long events, Object results) implements Command {}

  /** A component cannot go on. */
  public record Failed(int component, String reason) implements Command {}

  public static Behavior<Command> create(Topology topo, List<SimComponent> models, RunSettings settings,
      CompletableFuture<RunOutcome> outcome) {
    return Behaviors.setup(ctx -> new Clock(ctx, topo, models, settings, outcome));
  }

  private final Topology topo;
  private final RunSettings settings;
  private final CompletableFuture<RunOutcome> outcome;
  private final List<ActorRef<ComponentActor.Command>> refs = new ArrayList<>();
  private final int n;
  private final long stop; // handle events with time < stop

  private final long[] held;
  private final long[] minEvent;
  private final long[][] delay;
  private final long[] inflight; // per link: earliest event of batches not yet taken in by the receiver
  private final long[] expected; // per component: batches sent to it since the run began
  private final long[] eot;
  private final long[] horizon;
  private final long[] pendingMin; // per component: earliest event it holds or has in flight
  private final DistanceHeap heap;

  private long round;
  private long windows;
  private int awaiting;
  private boolean checkpointing;
  private ComponentState[] states;
  private long messages;
  private long lastTime; // simulated time reached: the earliest pending event of the last window
  private final long startNanos = System.nanoTime();
  private boolean finishing;
  private final long[] finalDigest;
  private final long[] finalEvents;
  private final Object[] finalResults;

  private Clock(ActorContext<Command> ctx, Topology topo, List<SimComponent> models, RunSettings settings,
      CompletableFuture<RunOutcome> outcome) {
    super(ctx);
    this.topo = topo;
    this.settings = settings;
    this.outcome = outcome;
    this.n = topo.components();
    if (models.size() != n) throw new IllegalArgumentException(models.size() + " models for " + n + " components");
    this.stop = VirtualTime.plus(settings.endTime(), 1);
    held = new long[n];
    minEvent = new long[n];
    delay = new long[n][];
    inflight = new long[topo.links()];
    Arrays.fill(inflight, VirtualTime.NEVER);
    expected = new long[n];
    eot = new long[n];
    horizon = new long[n];
    pendingMin = new long[n];
    heap = new DistanceHeap(n + topo.links() + 1);
    finalDigest = new long[n];
    finalEvents = new long[n];
    finalResults = new Object[n];

    Checkpoint restore = settings.restoreFrom();
    for (int i = 0; i < n; i++) {
      ComponentHost host = new ComponentHost(i, topo, models.get(i), settings.endTime(), settings.seed());
      if (restore != null) host.restore(restore.components().get(i));
      refs.add(ctx.spawn(ComponentActor.create(host, restore == null, ctx.getSelf()), "c" + i + "-"
          + topo.name(i).replaceAll("[^A-Za-z0-9_-]", "_")));
    }
    if (restore != null) {
      round = restore.round();
      messages = restore.messages();
    }
    ComponentActor.Wire wire = new ComponentActor.Wire(List.copyOf(refs));
    for (ActorRef<ComponentActor.Command> r : refs) r.tell(wire);
    messages += n;
    // The hello window: every component reports its promises; on a fresh run models send their first events.
    for (int i = 0; i < n; i++) refs.get(i).tell(new ComponentActor.Advance(round, Long.MIN_VALUE, 0, 0, false, true));
    messages += n;
    awaiting = n;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Report.class, this::onReport)
        .onMessage(Final.class, this::onFinal)
        .onMessage(Failed.class, f -> {
          outcome.completeExceptionally(new SimulationException(f.reason()));
          return Behaviors.stopped();
        })
        .build();
  }

  private Behavior<Command> onReport(Report r) {
    int i = r.component();
    messages += 1 + r.sentLinks().length;
    held[i] = r.heldPromise();
    minEvent[i] = r.minEvent();
    delay[i] = r.inputDelay();
    for (int k = 0; k < r.sentLinks().length; k++) {
      int l = r.sentLinks()[k];
      inflight[l] = Math.min(inflight[l], r.sentMin()[k]);
      expected[topo.to(l)]++;
    }
    if (checkpointing) states[i] = r.snapshot();
    if (--awaiting > 0) return this;
    if (checkpointing) {
      checkpointing = false;
      if (settings.onCheckpoint() != null) {
        settings.onCheckpoint().accept(new Checkpoint(round, lastTime, messages, List.of(states)));
      }
    }
    return nextWindow();
  }

  private Behavior<Command> nextWindow() {
    round++;
    // a'_i: what i holds, plus what is in flight to it.
    long globalMin = VirtualTime.NEVER;
    for (int i = 0; i < n; i++) {
      long a = held[i];
      long m = minEvent[i];
      for (int l : topo.inLinks(i)) {
        long f = inflight[l];
        if (f == VirtualTime.NEVER) continue;
        m = Math.min(m, f);
        a = Math.min(a, VirtualTime.plus(f, delay[i][topo.port(l)]));
      }
      eot[i] = a;
      pendingMin[i] = m;
      globalMin = Math.min(globalMin, m);
    }
    if (globalMin >= stop) return finish();
    lastTime = globalMin;
    if (settings.progress() != null) settings.progress().set(globalMin);

    fixedPoint();
    boolean checkpoint = settings.checkpointEveryWindows() > 0 && round % settings.checkpointEveryWindows() == 0;
    int woken = 0;
    for (int i = 0; i < n; i++) {
      long h = stop;
      for (int l : topo.inLinks(i)) h = Math.min(h, eot[topo.from(l)]);
      horizon[i] = h;
      if (pendingMin[i] < h || checkpoint) woken++;
    }
    if (woken == 0) {
      outcome.completeExceptionally(new SimulationException("no component can advance at t=" + globalMin
          + " ns: the promised input delays form a cycle without delay"));
      return Behaviors.stopped();
    }
    windows++;
    checkpointing = checkpoint;
    if (checkpoint) states = new ComponentState[n];
    awaiting = woken;
    for (int i = 0; i < n; i++) {
      if (pendingMin[i] < horizon[i] || checkpoint) {
        for (int l : topo.inLinks(i)) inflight[l] = VirtualTime.NEVER; // it takes them in before this window
        refs.get(i).tell(new ComponentActor.Advance(round, horizon[i], eot[i], expected[i], checkpoint, false));
        messages++;
      }
    }
    return this;
  }

  /** EOT_i = min(a_i, min over links j->i of EOT_j + d_i(port)): Dijkstra from every a_i at once. */
  private void fixedPoint() {
    heap.clear();
    for (int i = 0; i < n; i++) if (eot[i] != VirtualTime.NEVER) heap.push(eot[i], i);
    while (!heap.isEmpty()) {
      long d = heap.topKey();
      int j = heap.topNode();
      heap.pop();
      if (d > eot[j]) continue; // stale entry
      for (int l : topo.outLinks(j)) {
        int i = topo.to(l);
        long cand = VirtualTime.plus(d, delay[i][topo.port(l)]);
        if (cand < eot[i]) {
          eot[i] = cand;
          heap.push(cand, i);
        }
      }
    }
  }

  private Behavior<Command> finish() {
    finishing = true;
    awaiting = n;
    for (ActorRef<ComponentActor.Command> r : refs) r.tell(new ComponentActor.Finish());
    messages += n;
    return this;
  }

  private Behavior<Command> onFinal(Final f) {
    if (!finishing) return this;
    messages++;
    finalDigest[f.component()] = f.digest();
    finalEvents[f.component()] = f.events();
    finalResults[f.component()] = f.results();
    if (--awaiting > 0) return this;
    long digest = Digest.SEED;
    long events = 0;
    for (int i = 0; i < n; i++) {
      digest = Digest.combine(Digest.combine(digest, i), finalDigest[i]);
      events += finalEvents[i];
    }
    outcome.complete(new RunOutcome(digest, events, windows, messages, Arrays.asList(finalResults),
        System.nanoTime() - startNanos));
    return Behaviors.stopped();
  }

  /** A binary heap of (distance, node) pairs for the fixed point; stale entries are skipped by the caller. */
  private static final class DistanceHeap {
    private long[] key;
    private int[] node;
    private int size;

    DistanceHeap(int capacity) {
      key = new long[capacity];
      node = new int[capacity];
    }

    void clear() {
      size = 0;
    }

    boolean isEmpty() {
      return size == 0;
    }

    long topKey() {
      return key[0];
    }

    int topNode() {
      return node[0];
    }

    void push(long k, int v) {
      if (size == key.length) {
        key = Arrays.copyOf(key, size * 2);
        node = Arrays.copyOf(node, size * 2);
      }
      int i = size++;
      while (i > 0) {
        int p = (i - 1) >>> 1;
        if (key[p] <= k) break;
        key[i] = key[p];
        node[i] = node[p];
        i = p;
      }
      key[i] = k;
      node[i] = v;
    }

    void pop() {
      int last = --size;
      if (last == 0) return;
      long k = key[last];
      int v = node[last];
      int i = 0;
      while (true) {
        int c = 2 * i + 1;
        if (c >= last) break;
        if (c + 1 < last && key[c + 1] < key[c]) c++;
        if (k <= key[c]) break;
        key[i] = key[c];
        node[i] = node[c];
        i = c;
      }
      key[i] = k;
      node[i] = v;
    }
  }
}
