package io.tlogsim.kernel;

import java.util.List;
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

  /**
   * How long the clock waits for incarnation {@code epoch}'s actors to announce themselves before it asks again for
   * those that have not ({@link #placeAgain}); null: never (nothing is lost on the way, as in one JVM).
   */
  default java.time.Duration placeAgainAfter() {
    return null;
  }

  /**
   * Asks again for the actors of incarnation {@code epoch} of the components {@code missing}: a request sent as a node
   * was lost can be routed to that node and vanish. A component already placed for this incarnation must answer with
   * the same actor, not make a second one.
   */
  default void placeAgain(ActorContext<Clock.Command> clock, long epoch, Checkpoint from, List<Integer> missing) {}
}
