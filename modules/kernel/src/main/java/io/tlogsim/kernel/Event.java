package io.tlogsim.kernel;

/**
 * The event a component is handling: read it during {@link SimComponent#onEvent}, never keep it (the kernel reuses
 * one instance per component, so handling an event allocates nothing).
 *
 * <p>Payload: four longs, whose meaning the event's protocol defines, and, for rare events that need more, one
 * object (a Jackson-serializable record, see {@link CborSerializable}).
 */
public final class Event {
  long time;
  int port;
  int kind;
  int sender;
  long a;
  long b;
  long c;
  long d;
  Object payload;

  /** Virtual time of the event (ns): the same as {@link Context#now()}. */
  public long time() {
    return time;
  }

  /** The input port it arrived on, or {@link Context#SELF_PORT} for the component's own timer. */
  public int port() {
    return port;
  }

  public int kind() {
    return kind;
  }

  /** The component that sent it (the component itself for its timers). */
  public int sender() {
    return sender;
  }

  public long a() {
    return a;
  }

  public long b() {
    return b;
  }

  public long c() {
    return c;
  }

  public long d() {
    return d;
  }

  /** The object sent with the event, or null. */
  public Object payload() {
    return payload;
  }

  @Override
  public String toString() {
    return "event kind " + kind + " at " + time + " ns on port " + port + " from " + sender;
  }
}
