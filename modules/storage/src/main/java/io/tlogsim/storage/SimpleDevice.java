package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;

/**
 * A device serving one request at a time in arrival order; a request takes a latency plus bytes / bandwidth (the
 * GCM-1 device of BENCH.md), whatever its kind. The latency is fixed, or with a spread ({@link LatencySpread}: a
 * lognormal of mean the latency) drawn per request from the component's generator. It answers as soon as it accepts a
 * request, stamped with the completion time: that is what lets the requester know its future early.
 *
 * <p>It keeps its statistics and per-second series in its results but records no per-second facts: a fact needs a
 * timer, and a timer is an event, which would change GCM-1's trace and digest.
 */
public final class SimpleDevice extends Device {
  private final long baseNanos;
  private final double bytesPerNano;
  private final LatencySpread spread; // null: every request takes exactly baseNanos (GCM-1: no draw at all)
  private final long leastNanos;

  private long busyUntil;

  /**
   * @param baseNanos latency of every request (> 0: it is also the least delay of a reply)
   * @param mbPerSec transfer rate in MB/s (10^6 bytes per second)
   */
  public SimpleDevice(String name, long baseNanos, double mbPerSec) {
    this(name, baseNanos, mbPerSec, 0);
  }

  /** @param latencyCv the latency's coefficient of variation (0: fixed) */
  public SimpleDevice(String name, long baseNanos, double mbPerSec, double latencyCv) {
    super(name, false);
    if (baseNanos <= 0) throw new DeviceConfigException("latency", "must be > 0 ns, got " + baseNanos);
    DeviceConfigException.positive("mbPerSec", mbPerSec, " MB/s");
    this.baseNanos = baseNanos;
    this.bytesPerNano = mbPerSec * 1e6 / 1e9;
    this.spread = LatencySpread.of("latencyCv", latencyCv);
    this.leastNanos = LatencySpread.least(spread, baseNanos);
  }

  /** Service time of a request of {@code bytes}: base + bytes / rate, in whole ns. */
  public long serviceNanos(long bytes) {
    return baseNanos + (long) (bytes / bytesPerNano);
  }

  @Override
  public String model() {
    return "simple";
  }

  @Override
  public long replyLookaheadNanos() {
    return leastNanos;
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    checkKind(name, ev);
    long now = ctx.now();
    long bytes = bytesOf(ev);
    long service = spread == null ? serviceNanos(bytes)
        : spread.vary(baseNanos, ctx.rng()) + (long) (bytes / bytesPerNano);
    long done = Math.max(now, busyUntil) + service;
    busyUntil = done;
    stats.request(ctx, ev.kind(), bytes, now, done, 0);
    reply(ctx, done, ev);
  }

  @Override
  public long inputDelay(int port) {
    return leastNanos; // a reply is never sooner than the least service time after its request
  }

  @Override
  public Object snapshot() {
    return new State(busyUntil, stats.state());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    busyUntil = s.busyUntil();
    stats.restore(s.stats());
  }

  public record State(long busyUntil, IoStats.State stats) implements CborSerializable {}
}
