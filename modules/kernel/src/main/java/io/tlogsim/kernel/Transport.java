package io.tlogsim.kernel;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * How batches travel between components. The kernel only relies on each batch arriving once, in any order and with
 * any delay; a test transport delays and reorders them across windows to prove it.
 */
@FunctionalInterface
public interface Transport {
  /** The reference through which batches reach {@code component}, whose actor is {@code target}. */
  ActorRef<ComponentActor.Command> route(ActorContext<?> clock, int component, ActorRef<ComponentActor.Command> target);

  Transport DIRECT = (clock, component, target) -> target;
}
