package io.tlogsim.kernel;

import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Where the actors of a run's components live: children of the clock in this JVM ({@link LocalPlacement}), or
 * entities spread over a cluster. Whatever places them, each announces itself to the clock with {@link Clock.Placed};
 * the clock watches them, and if one is lost it rolls every component back to the last checkpoint and asks for the
 * next incarnation.
 */
public interface Placement {
  /**
   * Makes the actors of incarnation {@code epoch} of every component, each restored from {@code from} (null: a fresh
   * run), and has each announced with {@link Clock.Placed}. Called at the start and, after a component was lost, for
   * each next incarnation; the actors of earlier incarnations are of no further use (stop them where possible).
   */
  void place(ActorContext<Clock.Command> clock, long epoch, Checkpoint from);
}
