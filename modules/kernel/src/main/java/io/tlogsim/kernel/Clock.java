package io.tlogsim.kernel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The run's clock: grants conservative windows (DESIGN.md principle 3).
 *
 * <p>After each window every component reports its {@link Promise}: per out-link, the earliest time it may send given
 * what it holds, and per (input port, out-link) the least delay from a new input to an output. With the batches still
 * in flight, the clock solves for every link the earliest time anything can travel on it,
 * {@code EOT(link i->k) = max(quiet_i, min(held_i(k), min over links m into i of EOT(m) + delay_i(port of m, k)))},
 * a shortest-path problem (Dijkstra over links; every step only adds time). Component i may then handle every held
 * event below its horizon, {@code min over links m into i of EOT(m)}: nothing earlier can still reach it. Only
 * components with such events are woken, so idle time is skipped. A window's failures, facts and checkpoint are
 * settled once all its reports are in, in component order, so they do not depend on thread timing.
 */
public final class Clock extends AbstractBehavior<Clock.Command> {

  public sealed interface Command extends CborSerializable {}

  /**
   * What a component promises for the next window.
   *
   * @param minEvent its earliest held event (NEVER: none)
   * @param quietUntil it sends nothing before this time, whatever arrives
   * @param held per out-link slot: the earliest time it may send there because of what it holds
   * @param delay {@code delay[port * outLinks + slot]}: least delay from an input on the port to output on the link
   */
  public record Promise(long minEvent, long quietUntil, long[] held, long[] delay) implements CborSerializable {}

  /** The batches a component sent in a window: their links, earliest events and sizes (events). */
  public record Sent(int[] links, long[] minTime, int[] sizes) implements CborSerializable {}

  /** A component's actor of incarnation {@code epoch} is ready. */
  public record Placed(int component, long epoch, ActorRef<ComponentActor.Command> actor) implements Command {}

  /** A component's account of one window (the hello window included). */
  public record Report(int component, long epoch, long window, Promise promise, Sent sent, long events,
      ComponentState snapshot, List<RecordedFact> facts) implements Command {}

  /** A component's digest and results at the end of the run, and the facts it recorded as it finished. */
  public record Final(int component, long epoch, long digest, long events,
      @Typed Object results, List<RecordedFact> facts) implements Command {}

  /** A component cannot go on. */
  public record Failed(int component, long epoch, long window, String reason, boolean outOfMemory)
      implements Command {}

  /** A watched component actor stopped (its node was lost, or it failed). */
  record Lost(int component, long epoch) implements Command {}

  /** Time to ask again for the actors of incarnation {@code epoch} not yet placed (local only). */
  record PlaceAgain(long epoch) implements Command {}

  /** The run must stop now and fail with {@code reason} ({@link RunSettings#abort}; local only). */
  record Abort(String reason) implements Command {}

  /**
   * The clock of one run, whose components the placement puts where it will; {@code outcome} completes with the run's
   * outcome or its failure (a {@link SimulationException}). {@link Simulation#run} is the usual way in; a cluster's
   * run coordinator spawns this directly.
   */
  public static Behavior<Command> create(Topology topo, Placement placement, RunSettings settings,
      CompletableFuture<RunOutcome> outcome) {
    return Behaviors.setup(ctx -> {
      try {
        return new Clock(ctx, topo, placement, settings, outcome);
      } catch (RuntimeException e) { // else the run would wait forever for a clock that never started
        outcome.completeExceptionally(e instanceof SimulationException ? e
            : new SimulationException("the clock could not start: " + e));
        return Behaviors.stopped();
      }
    });
  }

  private enum Phase { PLACING, WINDOW, FINISHING }

  /** What a batch costs on the wire, estimated: a header, and time, kind and two payload longs per event. */
  private static final long BATCH_HEADER_BYTES = 64;
  private static final long EVENT_BYTES = 28;

  /** The node an actor lives on: "local" for this JVM, else host:port. */
  private static String nodeName(ActorRef<?> ref) {
    org.apache.pekko.actor.Address a = ref.path().address();
    return a.hasLocalScope() ? "local" : a.hostPort();
  }

  private final Topology topo;
  private final Placement placement;
  private final RunSettings settings;
  private final CompletableFuture<RunOutcome> outcome;
  private final int n;
  private final long stop; // events with time < stop are handled
  private final long startNanos = System.nanoTime();

  @SuppressWarnings("unchecked")
  private final ActorRef<ComponentActor.Command>[] actors;
  private final Promise[] promise; // by component: its latest report's promise
  private final long[] batchesTo; // by component: batches sent to it since this incarnation began
  private final long[] inFlight; // by link: earliest event of batches its receiver has not taken in
  private final long[] eot; // by link: earliest time anything can travel on it in the coming window
  private final long[] pending; // by component: earliest event it holds or has in flight
  private final int[] portBase; // by component: index of its port 0 in portSettled
  private final boolean[] portSettled; // by (component, port): its earliest in-link was relaxed
  private final long[] inFlightByPort; // scratch: earliest event in flight to each port of one component

  private Phase phase = Phase.PLACING;
  private long epoch; // the incarnation: a lost component makes every component start again from a checkpoint
  private Checkpoint resumePoint; // where this incarnation started (null: the beginning)
  private Checkpoint lastCheckpoint;
  private long window;
  private long firstWindow; // the first window that handles events (no checkpoint there after a resume)
  private long windows; // windows of the run, those before the checkpoint a run went on from included
  // Kernel messages of the run as an uninterrupted run without checkpoints exchanges them: those before the checkpoint
  // a run went on from included; not counted: a resumed incarnation's placing and hello window, and the Advance and
  // Report of a component woken only to take a checkpoint.
  private long messages;
  private long messagesAtCut; // messages before the window whose start a checkpoint being taken is
  private final boolean[] onlyForCheckpoint; // by component: woken in this window only to take a checkpoint
  private long recoveries;
  private int awaiting;
  private long reachedNanos;
  private boolean checkpointing;
  private boolean stopCheckpointed; // the checkpoint at the stop (RunSettings.checkpointAtStop) is taken
  private ComponentState[] states;
  private final List<RecordedFact> facts = new ArrayList<>();
  private final List<Failed> failures = new ArrayList<>();
  private final boolean[] failed; // by component: reported a failure (its stopping is not a loss)
  private final long[] finalDigest;
  private final long[] finalEvents;
  private final Object[] finalResults;
  private final boolean[] finished; // by component: its Final is in
  private final int[] node; // by component: which node its actor is on (0: the clock's)
  private final List<String> nodes = new ArrayList<>(); // node addresses, the clock's first
  private long crossNodeMessages;
  private long crossNodeBytes;
  private final CriticalPath path; // the crossings between nodes on the run's critical path
  private long pathWindowsFrom; // windows before this incarnation's first (a resumed run's, a rolled-back one's)
  private long pathCrossings; // crossings on the critical path to the end of the last window counted in windows
  private boolean pathCounts; // the window being run is counted in windows (not the hello or the stop's checkpoint)

  @SuppressWarnings("unchecked")
  private Clock(ActorContext<Command> ctx, Topology topo, Placement placement, RunSettings settings,
      CompletableFuture<RunOutcome> outcome) {
    super(ctx);
    this.topo = topo;
    this.placement = placement;
    this.settings = settings;
    this.outcome = outcome;
    this.n = topo.components();
    this.stop = VirtualTime.plus(settings.stopTime(), 1);
    actors = new ActorRef[n];
    promise = new Promise[n];
    batchesTo = new long[n];
    inFlight = new long[topo.links()];
    eot = new long[topo.links()];
    pending = new long[n];
    portBase = new int[n];
    int ports = 0, maxPorts = 0;
    for (int i = 0; i < n; i++) {
      portBase[i] = ports;
      ports += topo.ports(i);
      maxPorts = Math.max(maxPorts, topo.ports(i));
    }
    portSettled = new boolean[ports];
    inFlightByPort = new long[maxPorts];
    failed = new boolean[n];
    finalDigest = new long[n];
    finalEvents = new long[n];
    finalResults = new Object[n];
    finished = new boolean[n];
    onlyForCheckpoint = new boolean[n];
    node = new int[n];
    path = new CriticalPath(node);
    nodes.add(nodeName(ctx.getSelf()));
    lastCheckpoint = settings.restoreFrom();
    if (settings.abort() != null) {
      ActorRef<Command> self = ctx.getSelf();
      settings.abort().thenAccept(reason -> self.tell(new Abort(reason)));
    }
    startIncarnation(settings.restoreFrom());
  }

  /** Asks for every component's actor of a new incarnation, starting from {@code from} (null: the beginning). */
  private void startIncarnation(Checkpoint from) {
    resumePoint = from;
    window = from == null ? 0 : from.window() - 1; // the hello window
    firstWindow = window + 1;
    windows = window; // windows before the checkpoint's (none on a fresh start: window 0 is the hello window)
    pathWindowsFrom = windows;
    pathCrossings = 0;
    pathCounts = false;
    path.reset();
    messages = from == null ? 0 : from.messages();
    java.util.Arrays.fill(actors, null);
    java.util.Arrays.fill(batchesTo, 0);
    java.util.Arrays.fill(inFlight, VirtualTime.NEVER);
    java.util.Arrays.fill(failed, false);
    java.util.Arrays.fill(onlyForCheckpoint, false);
    facts.clear();
    failures.clear();
    checkpointing = false;
    states = null;
    phase = Phase.PLACING;
    awaiting = n;
    placement.place(getContext(), epoch, from);
    schedulePlaceAgain();
  }

  private void schedulePlaceAgain() {
    Duration after = placement.placeAgainAfter();
    if (after != null) getContext().scheduleOnce(after, getContext().getSelf(), new PlaceAgain(epoch));
  }

  /** Some actors of this incarnation have not announced themselves in time: ask for them again. */
  private Behavior<Command> onPlaceAgain(PlaceAgain p) {
    if (p.epoch() != epoch || phase != Phase.PLACING) return this;
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < n; i++) if (actors[i] == null) missing.add(i);
    List<String> names = new ArrayList<>();
    for (int i : missing) names.add(topo.name(i));
    getContext().getLog().warn("incarnation {}: {} component(s) not placed yet, asking again: {}", epoch,
        missing.size(), names);
    placement.placeAgain(getContext(), epoch, resumePoint, missing);
    schedulePlaceAgain();
    return this;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Placed.class, this::onPlaced)
        .onMessage(Report.class, this::onReport)
        .onMessage(Final.class, this::onFinal)
        .onMessage(Failed.class, this::onFailed)
        .onMessage(Lost.class, this::onLost)
        .onMessage(PlaceAgain.class, this::onPlaceAgain)
        .onMessage(Abort.class, a -> fail(new SimulationException(a.reason())))
        .onSignal(PostStop.class, stop -> {
          // stopped by an error no handler caught (an Error thrown by a journal's sink): the run must end, not hang
          if (!outcome.isDone()) {
            outcome.completeExceptionally(new SimulationException("the run's clock stopped at window " + window
                + " on an error (the log above says which)"));
          }
          return this;
        })
        .build();
  }

  private Behavior<Command> onPlaced(Placed p) {
    if (p.epoch() != epoch || phase != Phase.PLACING) return this;
    if (actors[p.component()] != null) return this; // announced again, after the clock asked again
    awaiting--;
    actors[p.component()] = p.actor();
    String where = nodeName(p.actor());
    if (!nodes.contains(where)) nodes.add(where);
    node[p.component()] = nodes.indexOf(where);
    getContext().watchWith(p.actor(), new Lost(p.component(), p.epoch()));
    if (awaiting > 0) return this;
    // Every actor is there: wire them and run the hello window (a fresh component sends its first events).
    List<ActorRef<ComponentActor.Command>> routes = new ArrayList<>();
    for (int i = 0; i < n; i++) routes.add(settings.transport().route(getContext(), i, actors[i]));
    ComponentActor.Wire wire = new ComponentActor.Wire(List.copyOf(routes));
    path.grant();
    for (int i = 0; i < n; i++) path.advance(i);
    for (ActorRef<ComponentActor.Command> a : actors) {
      a.tell(wire);
      a.tell(new ComponentActor.Hello(window));
    }
    if (resumePoint == null) messages += 2L * n; // a resumed incarnation's placing is not part of the run
    phase = Phase.WINDOW;
    awaiting = n;
    return this;
  }

  /**
   * A component's actor is gone without having failed (its node was lost): every component starts again from the last
   * checkpoint (or the beginning), in a new incarnation; the fact sink is told to forget what came after it.
   */
  private Behavior<Command> onLost(Lost l) {
    if (l.epoch() != epoch || failed[l.component()]) return this;
    if (phase == Phase.FINISHING && finished[l.component()]) return this;
    recoveries++;
    epoch++;
    getContext().getLog().warn("component {} lost in window {}: resuming every component from {}",
        topo.name(l.component()), window, lastCheckpoint == null ? "the start" : "window " + lastCheckpoint.window());
    try {
      if (settings.onRollback() != null) settings.onRollback().accept(lastCheckpoint == null ? 0 : lastCheckpoint.window());
      java.util.Arrays.fill(finished, false);
      startIncarnation(lastCheckpoint);
    } catch (RuntimeException e) {
      return fail(new SimulationException("component " + topo.name(l.component()) + " was lost and the run could not"
          + " start again: " + e.getMessage()));
    }
    return this;
  }

  private Behavior<Command> onReport(Report r) {
    if (r.epoch() != epoch) return this; // from an incarnation given up
    int i = r.component();
    // the report of a resumed incarnation's hello window, or of a component woken only for a checkpoint, is overhead
    boolean overhead = onlyForCheckpoint[i] || (resumePoint != null && r.window() == firstWindow - 1);
    onlyForCheckpoint[i] = false;
    messages += (overhead ? 0 : 1) + r.sent().links().length;
    if (node[i] != 0) crossNodeMessages += 2; // its window's Advance and this report
    for (int k = 0; k < r.sent().links().length; k++) {
      int l = r.sent().links()[k];
      if (node[topo.from(l)] != node[topo.to(l)]) {
        crossNodeMessages++;
        crossNodeBytes += BATCH_HEADER_BYTES + (long) r.sent().sizes()[k] * EVENT_BYTES;
      }
    }
    promise[i] = r.promise();
    for (int k = 0; k < r.sent().links().length; k++) {
      int l = r.sent().links()[k];
      inFlight[l] = Math.min(inFlight[l], r.sent().minTime()[k]);
      batchesTo[topo.to(l)]++;
      if (!overhead) path.batch(i, topo.to(l));
    }
    if (!overhead) path.report(i); // a component woken only for a checkpoint: not on the run's path
    if (r.facts() != null) facts.addAll(r.facts());
    if (checkpointing) states[i] = r.snapshot();
    return --awaiting > 0 ? this : endOfWindow();
  }

  private Behavior<Command> onFailed(Failed f) {
    if (f.epoch() != epoch) return this;
    failed[f.component()] = true;
    messages++;
    failures.add(f);
    if (--awaiting > 0) return this;
    return phase == Phase.WINDOW ? endOfWindow() : endOfRun();
  }

  /** Every woken component has answered: settle the window (in component order), then grant the next. */
  private Behavior<Command> endOfWindow() {
    if (!failures.isEmpty()) return failRun();
    try {
      if (!facts.isEmpty() && settings.onFacts() != null) {
        facts.sort(Comparator.comparingLong(RecordedFact::time).thenComparingInt(RecordedFact::component));
        settings.onFacts().accept(new FactBatch(window, List.copyOf(facts)));
      }
      facts.clear();
      if (checkpointing) {
        checkpointing = false;
        lastCheckpoint = new Checkpoint(window, reachedNanos, messagesAtCut, List.of(states));
        settings.onCheckpoint().accept(lastCheckpoint);
        states = null;
      }
    } catch (RuntimeException e) {
      return fail(new SimulationException("the run's journal failed at window " + window + ": " + e.getMessage()));
    }
    return nextWindow();
  }

  private Behavior<Command> nextWindow() {
    if (pathCounts) pathCrossings = path.crossings(); // the window that just ended is counted in windows
    window++;
    long globalMin = VirtualTime.NEVER;
    for (int i = 0; i < n; i++) {
      long m = promise[i].minEvent();
      for (int l : topo.inLinks(i)) m = Math.min(m, inFlight[l]);
      pending[i] = m;
      globalMin = Math.min(globalMin, m);
    }
    // At the stop, with a checkpoint asked for there: one window more that handles nothing (every event left is at
    // or after the stop) and only takes it, then the finish.
    boolean atStop = globalMin >= stop;
    if (atStop && (!settings.checkpointAtStop() || stopCheckpointed)) return finish();
    reachedNanos = globalMin;
    if (settings.progress() != null && !atStop) settings.progress().set(globalMin);

    solveEarliestOutputTimes();
    boolean checkpoint = atStop || settings.checkpoints() != null && window != firstWindow
        && settings.checkpoints().checkpointNow(window, globalMin);
    stopCheckpointed |= atStop;
    long windowEnd = Math.min(stop, VirtualTime.plus(globalMin, settings.maxWindowNanos()));
    List<Integer> woken = new ArrayList<>();
    long[] horizon = new long[n];
    for (int i = 0; i < n; i++) {
      long h = windowEnd;
      for (int l : topo.inLinks(i)) h = Math.min(h, eot[l]);
      horizon[i] = h;
      if (pending[i] < h || checkpoint) woken.add(i);
    }
    if (woken.isEmpty()) {
      return fail(new SimulationException("no component can advance at t=" + globalMin + " ns: the promised input"
          + " delays form a cycle without delay"));
    }
    if (!atStop) windows++; // the stop's checkpoint window is not part of the run
    checkpointing = checkpoint;
    if (checkpoint) states = new ComponentState[n];
    messagesAtCut = messages;
    awaiting = woken.size();
    path.grant();
    if (window == firstWindow) path.firstWindow();
    pathCounts = !atStop;
    int overhead = 0;
    for (int i : woken) {
      if (checkpoint && pending[i] >= horizon[i]) {
        onlyForCheckpoint[i] = true;
        overhead++;
      } else {
        path.advance(i); // woken to handle events: on the run's path (a checkpoint's wake depends on wall time)
      }
      for (int l : topo.inLinks(i)) inFlight[l] = VirtualTime.NEVER; // it takes them in before this window
      int[] outs = topo.outLinks(i);
      long[] linkEot = new long[outs.length];
      for (int k = 0; k < outs.length; k++) linkEot[k] = eot[outs[k]];
      actors[i].tell(new ComponentActor.Advance(window, horizon[i], linkEot, batchesTo[i], checkpoint));
    }
    messages += woken.size() - overhead;
    return this;
  }

  /**
   * EOT of every link (see the class comment): Dijkstra from what each component holds and has in flight. Links into
   * the same port of a component share its delays, so only the earliest of them is relaxed (the later ones could not
   * give anything earlier).
   */
  private void solveEarliestOutputTimes() {
    Arrays.fill(eot, VirtualTime.NEVER);
    Arrays.fill(portSettled, false);
    PriorityQueue<long[]> queue = new PriorityQueue<>(Comparator.comparingLong((long[] e) -> e[0]));
    for (int i = 0; i < n; i++) {
      Promise p = promise[i];
      int[] outs = topo.outLinks(i);
      if (outs.length == 0) continue;
      int ports = topo.ports(i);
      Arrays.fill(inFlightByPort, 0, ports, VirtualTime.NEVER);
      for (int m : topo.inLinks(i)) inFlightByPort[topo.port(m)] = Math.min(inFlightByPort[topo.port(m)], inFlight[m]);
      for (int k = 0; k < outs.length; k++) {
        long t = p.held()[k];
        for (int q = 0; q < ports; q++) {
          if (inFlightByPort[q] != VirtualTime.NEVER) {
            t = Math.min(t, VirtualTime.plus(inFlightByPort[q], delay(p, q, k, outs.length)));
          }
        }
        if (t == VirtualTime.NEVER) continue;
        eot[outs[k]] = Math.max(p.quietUntil(), t);
        queue.add(new long[] {eot[outs[k]], outs[k]});
      }
    }
    while (!queue.isEmpty()) {
      long[] e = queue.poll();
      int m = (int) e[1];
      if (e[0] > eot[m]) continue; // superseded
      int i = topo.to(m);
      int q = topo.port(m);
      if (portSettled[portBase[i] + q]) continue; // an earlier link into this port was relaxed already
      portSettled[portBase[i] + q] = true;
      Promise p = promise[i];
      int[] outs = topo.outLinks(i);
      for (int k = 0; k < outs.length; k++) {
        long cand = VirtualTime.plus(e[0], delay(p, q, k, outs.length));
        if (cand == VirtualTime.NEVER) continue;
        cand = Math.max(p.quietUntil(), cand);
        if (cand < eot[outs[k]]) {
          eot[outs[k]] = cand;
          queue.add(new long[] {cand, outs[k]});
        }
      }
    }
  }

  private static long delay(Promise p, int port, int slot, int outLinks) {
    return p.delay()[port * outLinks + slot];
  }

  private Behavior<Command> finish() {
    phase = Phase.FINISHING;
    awaiting = n;
    for (ActorRef<ComponentActor.Command> a : actors) a.tell(new ComponentActor.Finish());
    messages += n;
    return this;
  }

  private Behavior<Command> onFinal(Final f) {
    if (f.epoch() != epoch) return this;
    messages++;
    finalDigest[f.component()] = f.digest();
    finalEvents[f.component()] = f.events();
    finalResults[f.component()] = f.results();
    if (f.facts() != null) facts.addAll(f.facts());
    finished[f.component()] = true;
    return --awaiting > 0 ? this : endOfRun();
  }

  private Behavior<Command> endOfRun() {
    if (!failures.isEmpty()) return failRun();
    try { // the facts recorded as components finished: one last batch, numbered after every window
      if (!facts.isEmpty() && settings.onFacts() != null) {
        facts.sort(Comparator.comparingLong(RecordedFact::time).thenComparingInt(RecordedFact::component));
        settings.onFacts().accept(new FactBatch(window, List.copyOf(facts)));
      }
      facts.clear();
    } catch (RuntimeException e) {
      return fail(new SimulationException("the run's journal failed at its end: " + e.getMessage()));
    }
    long digest = Digest.SEED;
    long events = 0;
    for (int i = 0; i < n; i++) {
      digest = Digest.combine(Digest.combine(digest, i), finalDigest[i]);
      events += finalEvents[i];
    }
    outcome.complete(new RunOutcome(digest, events, windows, messages, Arrays.asList(finalResults),
        System.nanoTime() - startNanos, recoveries, nodes.size(), crossNodeMessages, crossNodeBytes, null,
        windows == pathWindowsFrom ? 0.0 : pathCrossings / (double) (windows - pathWindowsFrom)));
    return Behaviors.stopped();
  }

  /** Of the failures of one window, the lowest component's: the same whichever thread failed first. */
  private Behavior<Command> failRun() {
    Failed first = failures.stream().min(Comparator.comparingInt(Failed::component)).orElseThrow();
    return fail(new SimulationException(first.reason(), first.outOfMemory()));
  }

  private Behavior<Command> fail(SimulationException e) {
    outcome.completeExceptionally(e);
    return Behaviors.stopped();
  }
}
