package io.tlogsim.kernel;

/** What a {@link SimComponent} may do while it handles an event (or starts). */
public interface Context {
  /** The port number under which a component's own timers arrive. */
  int SELF_PORT = -1;

  /** This component's id in the topology. */
  int self();

  /** Virtual time of the event being handled, in ns. */
  long now();

  /** The last instant of the run: events later than this are never handled. */
  long endTime();

  /** The seed of the run, for components that derive generators of their own entities ({@link Rng#seedFor}). */
  long seed();

  /** This component's generator, derived from (seed, component id). */
  Rng rng();

  /** The link from this component to {@code component}; fails the run if there is none. */
  int linkTo(int component);

  /** The link back to the sender of the event being handled; fails the run if there is none. */
  int replyLink();

  /**
   * Sends an event on one of this component's out-links, to arrive at {@code time}: no sooner than now + the link's
   * lookahead, and no sooner than what this component promised for the window (its input delays and
   * {@link SimComponent#quietUntil()}). Send it as soon as it is known, stamped with its future time: that is what
   * keeps windows long.
   */
  void send(int link, long time, int kind, long a, long b);

  void send(int link, long time, int kind, long a, long b, long c, long d);

  /** As {@link #send(int, long, int, long, long)} with four longs and an object (Jackson-serializable, or null). */
  void send(int link, long time, int kind, long a, long b, long c, long d, Object payload);

  /** Schedules an event for this component at {@code time >= now}; returns a handle for {@link #cancel}. */
  long schedule(long time, int kind, long a, long b);

  long schedule(long time, int kind, long a, long b, long c, long d, Object payload);

  /** Cancels a scheduled event that has not happened yet; false if it already happened or was cancelled. */
  boolean cancel(long timer);

  /**
   * Reports a fact (a Jackson-serializable record: a flush issued, a VLF created, a crash, a phase) at the current
   * time. Facts go to the run's fact sink (the journal, the report), never back into the simulation.
   */
  void record(Object fact);

  /**
   * Drops every event this component holds and has not handled yet (arrivals and timers): what a crashed server
   * loses. Events already on their way to it still arrive later; a model that must ignore them tags its requests
   * (e.g. with an epoch). Returns how many events were dropped.
   */
  int crash();

  /** The name of a component, for messages. */
  String name(int component);
}
