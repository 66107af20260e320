package io.tlogsim.kernel;

/**
 * The logic of one simulated component (a device, a log manager, a pool of sessions). It never sees Pekko, a clock
 * or a thread: the kernel hosts it, hands it its events in (time, sender, sequence) order, and ships what it sends.
 *
 * <h2>Promises, the contract that makes windows long (DESIGN.md principle 3)</h2>
 * After each window the kernel asks the component, for its current state, how soon it could send anything:
 * <ul>
 *   <li>{@link #inputDelay(int, int)}: the least delay from a new event on input {@code port} (or a held timer, port
 *       {@link Context#SELF_PORT}) to anything the component then sends on out-link {@code outLink}, measured to the
 *       sent event's timestamp; {@link VirtualTime#NEVER} when such an event cannot cause output there.</li>
 *   <li>{@link #quietUntil()}: an absolute time before which it sends nothing at all, whatever arrives (stalled until
 *       a zero-fill ends, throttled until credits refill); 0 when it cannot say.</li>
 * </ul>
 * <b>The rule:</b> a reported delay must hold for every event on that port that the component handles until it is
 * asked again, i.e. for the whole next window, and for the events it already holds, <i>whatever else it handles in
 * between</i>. A gate that is closed but may be opened within the window by an event on another port (or by a timer
 * it holds) must report its open delay for data, not NEVER: NEVER is right only while nothing it can receive or holds
 * could open it in that window. The kernel never reorders: sending earlier than promised fails the run with a message
 * that names this component and the port of the event it was handling.
 */
public interface SimComponent {

  /** Called once at time 0 on a fresh run, never after a restore: where the first events are sent. */
  default void start(Context ctx) {}

  /** One event (valid only during this call); its time is {@code ctx.now()}. */
  void onEvent(Context ctx, Event event);

  /** The least delay from an input on {@code port} to any output, in the current state; see the class comment. */
  long inputDelay(int port);

  /**
   * The least delay from an input on {@code port} to an output on {@code outLink}; by default
   * {@link #inputDelay(int)}. Override where links differ (a log manager's 1 ns link to its device must not limit its
   * links to the sessions). The kernel never uses less than the link's lookahead.
   */
  default long inputDelay(int port, int outLink) {
    return inputDelay(port);
  }

  /** An absolute time before which this component sends nothing in the next window, whatever arrives; see above. */
  default long quietUntil() {
    return 0;
  }

  /** A copy of this component's state for a checkpoint; a Jackson-serializable value. */
  Object snapshot();

  /** Replaces this component's state with one taken by {@link #snapshot()}. */
  void restore(Object snapshot);

  /**
   * The run is over (at its last instant, {@code ctx.now() == ctx.endTime()}), just before {@link #results()}: where a
   * component records the facts it still holds open (the last interval of a per-interval aggregate). Only
   * {@link Context#record} is allowed here; it costs no event, so the digest does not see it.
   */
  default void finish(Context ctx) {}

  /** What this component measured, read once at the end of the run. */
  Object results();
}
