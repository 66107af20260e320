package io.tlogsim.cluster;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.ComponentActor;
import io.tlogsim.kernel.ComponentState;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * One component of one run, placed by Cluster Sharding on some node (entity id {@code runId/component}). For each
 * incarnation the run's clock asks for, it makes the component's model on this node and hosts it in a kernel
 * component actor, restored from the checkpoint it is given, and tells the clock where that actor is.
 */
public final class ComponentEntity extends AbstractBehavior<ComponentEntity.Command> {
  public static final EntityTypeKey<Command> TYPE = EntityTypeKey.create(Command.class, "tlogsim-component");

  public sealed interface Command extends CborSerializable permits Host, Release {}

  /**
   * Host incarnation {@code epoch} of the component, restored from {@code state} (null: fresh), for the clock
   * {@code clock}; {@code coordinator} tells apart the incarnations of the run's coordinator.
   */
  public record Host(RunSubmission spec, int component, String coordinator, long epoch, ComponentState state,
      ActorRef<Clock.Command> clock) implements Command {}

  /** The run is over (or given up): stop. */
  public record Release() implements Command {}

  public static String entityId(String runId, int component) {
    return runId + "/" + component;
  }

  public static Behavior<Command> create() {
    return Behaviors.setup(ComponentEntity::new);
  }

  private ActorRef<ComponentActor.Command> child;
  private String runId;
  private long hosted;
  private String hostedCoordinator; // the incarnation the child is of
  private long hostedEpoch;

  private ComponentEntity(ActorContext<Command> ctx) {
    super(ctx);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Host.class, this::onHost)
        .onMessage(Release.class, r -> {
          if (runId != null) NodeModels.release(runId);
          return Behaviors.stopped();
        })
        .build();
  }

  private Behavior<Command> onHost(Host h) {
    if (child != null && h.coordinator().equals(hostedCoordinator) && h.epoch() == hostedEpoch) {
      h.clock().tell(new Clock.Placed(h.component(), h.epoch(), child)); // asked again: the same actor
      return this;
    }
    if (child != null) getContext().stop(child); // an earlier incarnation: of no further use
    hostedCoordinator = h.coordinator();
    hostedEpoch = h.epoch();
    runId = h.spec().runId();
    NodeModels.Prepared p = NodeModels.prepared(h.spec());
    SimComponent model = NodeModels.model(h.spec(), h.coordinator() + "." + h.epoch(), h.component());
    // A sink for facts makes the component keep what it records and send it to the clock with its window; the
    // clock's node hands the facts on (journal, submitter's report): this sink itself is never called here.
    RunSettings settings = RunSettings.of(p.scenario().endTimeNanos(), h.spec().seed(), 1).withFacts(batch -> {});
    child = getContext().spawn(ComponentActor.create(p.run().topology(), h.component(), model, settings, h.state(),
        h.clock(), h.epoch()), "component-" + (++hosted));
    h.clock().tell(new Clock.Placed(h.component(), h.epoch(), child));
    getContext().getLog().info("hosting component {} of run {} (incarnation {}.{})", h.component(), runId,
        h.coordinator(), h.epoch());
    return this;
  }
}
