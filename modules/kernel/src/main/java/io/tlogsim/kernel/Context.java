package io.tlogsim.kernel;

/** What a {@link SimComponent} may do while it handles an event. */
public interface Context {
  /** The port number under which a component's own scheduled events arrive. */
  int SELF_PORT = -1;

  /** This component's id in the topology. */
  int self();

  /** Virtual time of the event being handled, in ns. */
  long now();

  /** The component that sent the event being handled (this component for its own scheduled events). */
  int sender();

  /** The last instant of the run: events later than this are never handled. */
  long endTime();

  /** The seed of the run, for components that derive generators of their own entities (Rng.seedFor). */
  long seed();

  /** This component's generator, derived from (seed, component id). */
  Rng rng();

  /**
   * Sends an event on one of this component's out-links, to arrive at {@code time}. It must be no sooner than
   * now + the link's lookahead, and no sooner than the earliest output this component promised for the window.
   */
  void send(int link, long time, int kind, long a, long b);

  /** Schedules an event for this component itself at {@code time >= now}. */
  void schedule(long time, int kind, long a, long b);
}
