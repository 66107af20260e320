package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The actor that hosts one simulated component. Per window: wait for the clock's {@link Advance} and for every batch
 * sent to it in earlier windows; take those batches in; take a checkpoint if asked; handle the held events below the
 * horizon; ship one batch per link; report to the clock. Batches sent in the window being run (by components woken
 * earlier in it) stay aside until a later window, so a checkpoint never holds an event its sender had not sent.
 */
public final class ComponentActor extends AbstractBehavior<ComponentActor.Command> {

  public sealed interface Command extends CborSerializable
      permits Wire, Hello, Advance, EventBatch, Finish, Stop {}

  /** Where batches go: the route to every component, indexed by component id. */
  public record Wire(List<ActorRef<Command>> peers) implements Command {}

  /** The window before the first: report promises; a fresh component (not restored) first sends its first events. */
  public record Hello(long window) implements Command {}

  /**
   * Run window {@code window}: once the {@code batchesBefore} batches sent to this component in earlier windows (counted
   * since the run or resume began) are here, take a checkpoint if {@code checkpoint}, take them in, handle held events
   * earlier than {@code horizon}; send nothing on out-link slot k earlier than {@code eot[k]}.
   */
  public record Advance(long window, long horizon, long[] eot, long batchesBefore, boolean checkpoint)
      implements Command {}

  /** The run is over: report digest and results. */
  public record Finish() implements Command {}

  /** This incarnation is of no further use (a component elsewhere was lost): stop at once. */
  public record Stop() implements Command {}

  /**
   * The actor of component {@code component} for incarnation {@code epoch} of a run: a fresh one, or restored from
   * {@code state} (a checkpoint's).
   */
  public static Behavior<Command> create(Topology topo, int component, SimComponent model, RunSettings settings,
      ComponentState state, ActorRef<Clock.Command> clock, long epoch) {
    return Behaviors.setup(ctx -> {
      ComponentHost host = new ComponentHost(component, topo, model, settings.endTime(), settings.seed(),
          settings.onFacts() != null);
      if (state != null) host.restore(state);
      return new ComponentActor(ctx, host, clock, epoch, state == null);
    });
  }

  static Behavior<Command> create(ComponentHost host, ActorRef<Clock.Command> clock) {
    return Behaviors.setup(ctx -> new ComponentActor(ctx, host, clock, 0, true));
  }

  private static final Comparator<EventBatch> SENDING_ORDER =
      Comparator.comparingLong(EventBatch::window).thenComparingInt(EventBatch::link);

  private final ComponentHost host;
  private final ActorRef<Clock.Command> clock;
  private final long epoch;
  private final boolean fresh;
  private List<ActorRef<Command>> peers = List.of();
  private final List<EventBatch> aside = new ArrayList<>(); // delivered, not yet taken in
  private long taken; // batches taken in since the run (or resume) began
  private Advance pending;

  private ComponentActor(ActorContext<Command> ctx, ComponentHost host, ActorRef<Clock.Command> clock, long epoch,
      boolean fresh) {
    super(ctx);
    this.host = host;
    this.clock = clock;
    this.epoch = epoch;
    this.fresh = fresh;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Wire.class, w -> {
          peers = w.peers();
          return this;
        })
        .onMessage(Hello.class, this::onHello)
        .onMessage(EventBatch.class, b -> {
          aside.add(b);
          return pending == null ? this : tryRun();
        })
        .onMessage(Advance.class, a -> {
          pending = a;
          return tryRun();
        })
        .onMessage(Finish.class, f -> onFinish())
        .onMessage(Stop.class, s -> Behaviors.stopped())
        .build();
  }

  private Behavior<Command> onHello(Hello hello) {
    try {
      if (fresh) host.start();
      return report(hello.window(), null);
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      return fail(hello.window(), e);
    }
  }

  /** Runs the pending window once every batch of earlier windows is here. */
  private Behavior<Command> tryRun() {
    Advance advance = pending;
    int readyCount = 0;
    for (EventBatch b : aside) if (b.window() < advance.window()) readyCount++;
    if (taken + readyCount < advance.batchesBefore()) return this; // a late batch is waited for, never dropped
    pending = null;
    List<EventBatch> ready = new ArrayList<>(readyCount);
    aside.removeIf(b -> b.window() < advance.window() && ready.add(b));
    taken += readyCount;
    try {
      ready.sort(SENDING_ORDER); // batches of one link in the order they were sent
      for (EventBatch b : ready) host.take(b);
      ComponentState snapshot = advance.checkpoint() ? host.snapshot() : null; // the window's start
      host.process(advance.horizon(), advance.eot());
      return report(advance.window(), snapshot);
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      return fail(advance.window(), e);
    }
  }

  private Behavior<Command> report(long window, ComponentState snapshot) {
    List<EventBatch> batches = host.drain(window);
    int[] links = new int[batches.size()];
    long[] mins = new long[batches.size()];
    int[] sizes = new int[batches.size()];
    for (int k = 0; k < links.length; k++) {
      EventBatch b = batches.get(k);
      links[k] = b.link();
      mins[k] = b.minTime();
      sizes[k] = b.size();
      peers.get(host.destination(b.link())).tell(b);
    }
    clock.tell(new Clock.Report(host.id(), epoch, window, host.promise(), new Clock.Sent(links, mins, sizes), host.events(),
        snapshot, host.drainFacts()));
    return this;
  }

  private Behavior<Command> onFinish() {
    try {
      host.finish();
      clock.tell(new Clock.Final(host.id(), epoch, host.digest(), host.events(), host.results(), host.drainFacts()));
      return this;
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      return fail(-1, e);
    }
  }

  private Behavior<Command> fail(long window, Throwable e) {
    if (e instanceof OutOfMemoryError) { // allocate as little as possible: no stack trace, no formatting
      clock.tell(new Clock.Failed(host.id(), epoch, window, "out of memory", true));
      return Behaviors.stopped();
    }
    String reason = e.getMessage();
    if (!(e instanceof SimulationException)) {
      StackTraceElement[] at = e.getStackTrace();
      reason = host.name() + " failed: " + e + (at.length > 0 ? " (at " + at[0] + ")" : "");
      getContext().getLog().debug("component {} failed", host.name(), e);
    }
    clock.tell(new Clock.Failed(host.id(), epoch, window, reason, e instanceof OutOfMemoryError));
    return Behaviors.stopped();
  }
}
