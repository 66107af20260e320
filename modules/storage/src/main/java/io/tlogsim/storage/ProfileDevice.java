package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import java.util.Arrays;

/**
 * A device that replays what {@code tlogsim calibrate-device} measured on a real disk ({@link ProfileSpec}): one
 * request at a time in arrival order, each taking the measured latency of its size, divided by the measured speed-up
 * for the number of requests outstanding when it arrives (itself included). So one in flight gives the measured
 * synchronous latency and eight in flight the measured rate. It answers when it accepts a request (FIFO: the
 * completion is known then). Writes are durable when they complete; a flush costs the measured clean flush. With the
 * profile's measured spread, each service is a lognormal draw of mean that time ({@link LatencySpread}).
 */
public final class ProfileDevice extends Device {
  private final ProfileSpec spec;
  private final LatencySpread spread; // null: every request its mean latency
  private final long leastService;
  private long busyUntil;
  // completion times of the requests outstanding, ascending (FIFO), as a ring
  private long[] pending = new long[16];
  private int head;
  private int size;

  public ProfileDevice(String name, ProfileSpec spec) {
    super(name, false);
    this.spec = spec;
    this.spread = LatencySpread.of("latencyCv", spec.latencyCv());
    this.leastService = LatencySpread.least(spread, spec.minServiceNanos());
  }

  @Override
  public String model() {
    return "profile";
  }

  @Override
  public long replyLookaheadNanos() {
    return leastService;
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    checkKind(name, ev);
    long now = ctx.now();
    while (size > 0 && pending[head] <= now) {
      head = (head + 1) % pending.length;
      size--;
    }
    long bytes = bytesOf(ev);
    long alone = ev.kind() == DeviceProtocol.FLUSH ? spec.flushNanos() : spec.serviceNanos(bytes);
    long mean = Math.max(spec.minServiceNanos(), Math.round(alone / spec.speedup(size + 1)));
    long service = Math.max(leastService, LatencySpread.vary(spread, mean, ctx.rng()));
    long done = Math.max(now, busyUntil) + service;
    busyUntil = done;
    push(done);
    stats.request(ctx, ev.kind(), bytes, now, done, 0);
    reply(ctx, done, ev);
  }

  private void push(long done) {
    if (size == pending.length) {
      long[] bigger = new long[pending.length * 2];
      for (int i = 0; i < size; i++) bigger[i] = pending[(head + i) % pending.length];
      pending = bigger;
      head = 0;
    }
    pending[(head + size) % pending.length] = done;
    size++;
  }

  @Override
  public long inputDelay(int port) {
    return leastService;
  }

  @Override
  public Object snapshot() {
    long[] out = new long[size];
    for (int i = 0; i < size; i++) out[i] = pending[(head + i) % pending.length];
    return new State(busyUntil, out, stats.state());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    busyUntil = s.busyUntil();
    pending = Arrays.copyOf(s.pending(), Math.max(16, s.pending().length));
    head = 0;
    size = s.pending().length;
    stats.restore(s.stats());
  }

  public record State(long busyUntil, long[] pending, IoStats.State stats) implements CborSerializable {}
}
