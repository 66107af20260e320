package io.tlogsim.kernel;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The actor that hosts one simulated component. Per window: wait for the clock's {@link Advance} and for every
 * batch announced in it, handle the held events below the horizon, ship one batch per link, report to the clock.
 */
public final class ComponentActor extends AbstractBehavior<ComponentActor.Command> {

  public sealed interface Command extends CborSerializable {}

  /** The actors of all components, indexed by component id: where batches go. */
  public record Wire(List<ActorRef<Command>> peers) implements Command {}

  /**
   * Run window {@code round}: first receive batches until {@code expectedBatches} (counted since the run began)
   * have arrived, then handle held events earlier than {@code horizon}; send nothing earlier than {@code eot}.
   * On a {@code checkpoint} window, report the state taken before handling anything. A {@code hello} window
   * handles nothing; on a fresh run it lets the model send its first events.
   */
  public record Advance(long round, long horizon, long eot, long expectedBatches, boolean checkpoint, boolean hello)
      implements Command {}

  /** Events sent on one link in one window; event i has sequence number firstSeq + i on that link. */
  public record EventBatch(int link, long firstSeq, long[] time, int[] kind, long[] a, long[] b)
      implements Command {}

  /** The run is over: report digest and results. */
  public record Finish() implements Command {}

  public static Behavior<Command> create(ComponentHost host, boolean fresh, ActorRef<Clock.Command> clock) {
    return Behaviors.setup(ctx -> new ComponentActor(ctx, host, fresh, clock));
  }

  private final ComponentHost host;
  private final boolean fresh;
  private final ActorRef<Clock.Command> clock;
  private List<ActorRef<Command>> peers = List.of();
  private long received;
  private Advance pending;

  private ComponentActor(ActorContext<Command> ctx, ComponentHost host, boolean fresh,
      ActorRef<Clock.Command> clock) {
    super(ctx);
    this.host = host;
    this.fresh = fresh;
    this.clock = clock;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Wire.class, w -> {
          peers = w.peers();
          return this;
        })
        .onMessage(EventBatch.class, this::onBatch)
        .onMessage(Advance.class, this::onAdvance)
        .onMessage(Finish.class, f -> {
          clock.tell(new Clock.Final(host.id(), host.digest(), host.events(), host.results()));
          return this;
        })
        .build();
  }

  private Behavior<Command> onBatch(EventBatch batch) {
    try {
      host.deliver(batch.link(), batch.firstSeq(), batch.time(), batch.kind(), batch.a(), batch.b());
    } catch (RuntimeException e) {
      return fail(e);
    }
    received++;
    if (pending != null && received >= pending.expectedBatches()) {
      Advance advance = pending;
      pending = null;
      return runWindow(advance);
    }
    return this;
  }

  private Behavior<Command> onAdvance(Advance advance) {
    if (received < advance.expectedBatches()) {
      pending = advance; // a late batch is waited for, never dropped
      return this;
    }
    return runWindow(advance);
  }

  private Behavior<Command> runWindow(Advance advance) {
    try {
      ComponentState snapshot = advance.checkpoint() ? host.snapshot() : null;
      if (advance.hello()) {
        if (fresh) host.start();
      } else {
        host.process(advance.horizon(), advance.eot());
      }
      List<Outbox.Batch> batches = host.drain();
      int[] links = new int[batches.size()];
      long[] mins = new long[batches.size()];
      for (int k = 0; k < links.length; k++) {
        Outbox.Batch b = batches.get(k);
        links[k] = b.link();
        mins[k] = b.minTime();
        peers.get(host.topology().to(b.link()))
            .tell(new EventBatch(b.link(), b.firstSeq(), b.time(), b.kind(), b.a(), b.b()));
      }
      clock.tell(new Clock.Report(host.id(), advance.round(), host.heldPromise(), host.minEvent(),
          host.inputDelays(), links, mins, host.events(), snapshot));
      return this;
    } catch (RuntimeException e) {
      return fail(e);
    }
  }

  private Behavior<Command> fail(RuntimeException e) {
    String reason = e.getMessage();
    if (!(e instanceof SimulationException)) {
      StackTraceElement[] at = e.getStackTrace();
      reason = host.name() + " failed: " + e + (at.length > 0 ? " (at " + at[0] + ")" : "");
      getContext().getLog().debug("component {} failed", host.name(), e);
    }
    clock.tell(new Clock.Failed(host.id(), reason));
    return Behaviors.stopped();
  }
}
