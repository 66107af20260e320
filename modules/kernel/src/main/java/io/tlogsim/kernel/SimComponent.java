package io.tlogsim.kernel;

/**
 * The logic of one simulated component (a device, a log manager, a pool of sessions). It never sees Pekko: the
 * kernel's {@link ComponentActor} hosts it, hands it its events in (time, sender, sequence) order, and ships
 * what it sends.
 *
 * <p>The contract that makes large windows safe (DESIGN.md principle 3): {@link #inputDelay(int)} returns, for
 * the component's current state, the least delay from a new event on that input port to any message the
 * component then sends (measured to the message's timestamp), or {@link VirtualTime#NEVER} if such an event
 * cannot cause output now (e.g. a commit reaching a log manager whose write is in flight). The promise only needs
 * to hold until the component's next held event; a wrong promise is caught as an error, never reordered.
 */
public interface SimComponent {

  /** Called once at time 0 on a fresh run, never after a restore: where the first events are sent. */
  default void start(Context ctx) {}

  /** One event, addressed to input {@code port} (or {@link Context#SELF_PORT}); time is {@code ctx.now()}. */
  void onEvent(Context ctx, int port, int kind, long a, long b);

  /** Least delay from a new input on {@code port} to an output, in the current state; see the class comment. */
  long inputDelay(int port);

  /** A copy of this component's state for a checkpoint; a Jackson-serializable value. */
  Object snapshot();

  /** Replaces this component's state with one taken by {@link #snapshot()}. */
  void restore(Object snapshot);

  /** What this component measured, read once at the end of the run. */
  Object results();
}
