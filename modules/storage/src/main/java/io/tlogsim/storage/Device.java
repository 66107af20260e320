package io.tlogsim.storage;

import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.VirtualTime;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What every device model shares: a name, its {@link IoStats} and their one-second tick, and the request protocol
 * ({@link DeviceProtocol}) on input port 0. A subclass handles requests and its own timers, says what it is, and
 * what its least reply delay is (the lookahead of the link from it back to a requester).
 */
public abstract class Device implements SimComponent {
  protected final String name;
  protected IoStats stats;

  protected Device(String name, boolean emitFacts) {
    this.name = name;
    this.stats = new IoStats(name, emitFacts);
  }

  public String name() {
    return name;
  }

  /** What the device is, for the summary ("ssd", "hdd 15000 rpm", "premium P20"). */
  public abstract String model();

  /**
   * The least delay from a request's arrival to its completion, whatever the request and the device's state: the
   * lookahead of every link from this device back to a requester.
   */
  public abstract long replyLookaheadNanos();

  @Override
  public void start(Context ctx) {
    stats.noteEnd(ctx.endTime());
  }

  @Override
  public final void onEvent(Context ctx, Event ev) {
    stats.noteEnd(ctx.endTime());
    if (IoStats.isTick(ev)) {
      beforeTick(ctx);
      stats.tick(ctx, oldestUnknownArrival());
    } else {
      handle(ctx, ev);
    }
  }

  /** A request (port 0) or one of the device's own timers other than the tick. */
  protected abstract void handle(Context ctx, Event ev);

  /**
   * The arrival time of the oldest request whose completion the device does not know yet (NEVER: none; a device that
   * knows every completion on arrival).
   */
  protected long oldestUnknownArrival() {
    return VirtualTime.NEVER;
  }

  /** Called before each tick is recorded (a device that learns completions late accounts for the unfinished). */
  protected void beforeTick(Context ctx) {}

  /** Counters only this kind of device keeps (see {@link DeviceStats#counters()}). */
  protected SortedMap<String, Long> counters() {
    return new TreeMap<>();
  }

  /** Completion of a request, to the requester of the event being handled. */
  protected static void reply(Context ctx, long done, Event ev) {
    ctx.send(ctx.replyLink(), done, DeviceProtocol.DONE, ev.a(), ev.b(), ev.kind(), ev.d());
  }

  /** Bytes a request moves: 0 for a flush, whatever it carries. */
  protected static long bytesOf(Event ev) {
    return ev.kind() == DeviceProtocol.FLUSH ? 0 : Math.max(0, ev.b());
  }

  protected static void checkKind(String name, Event ev) {
    int k = ev.kind();
    if (k != DeviceProtocol.READ && k != DeviceProtocol.WRITE && k != DeviceProtocol.FLUSH
        && k != DeviceProtocol.ZERO) {
      throw new io.tlogsim.kernel.SimulationException(name + ": unknown request kind " + k);
    }
  }

  @Override
  public Object results() {
    return stats.results(model(), counters());
  }
}
