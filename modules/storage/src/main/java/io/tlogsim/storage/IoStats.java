package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.VirtualTime;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * The statistics every device keeps, fed once per request when its completion time is known: totals, a latency
 * histogram, and the per-second series, which it records as {@link DeviceInterval} facts on a one-second timer (the
 * timer runs only while the device has work, so an idle device costs no events).
 *
 * <p>Only requests that complete by the end of the run count, as in fio: one that would complete later is left out of
 * every figure (it still adds to the queue depth). Arrivals are fed in time order (the order a component handles its
 * events); completions may be fed later, by a device that learns them from its members.
 */
public final class IoStats {
  /** Timer kind of the one-second tick (timers never travel on links, so it only has to differ from the device's). */
  static final int TICK = 1000;
  private static final long SECOND = VirtualTime.NS_PER_S;

  private final String name;
  private final boolean emitFacts;
  private long reads, writes, flushes, zeroFills, bytesRead, bytesWritten, bytesZeroed;
  // busy time: closed busy periods, plus the current one [busyStart, lastBusyEnd) (more while completions are unknown)
  private long busyClosed, busyStart, lastBusyEnd;
  private long unknown; // requests that arrived and whose completion is not known yet
  private long latencySum, latencyMax, throttled;
  private Histogram latency = LatencyHistograms.newHistogram();
  private long[] sReads = new long[0], sWrites = new long[0], sBytes = new long[0], sQueue = new long[0],
      sThrottled = new long[0];
  private int emitted; // seconds [0, emitted) have been recorded as facts
  private long endTime = VirtualTime.NEVER; // the run's end (results() has no context), kept in checkpoints
  private long tickAt = -1; // the pending tick, or -1

  /** @param emitFacts false: keep the series in the results only, schedule no timer (the GCM-1 device) */
  IoStats(String name, boolean emitFacts) {
    this.name = name;
    this.emitFacts = emitFacts;
  }

  /**
   * A request that arrived at {@code arrival}, waited {@code throttledNs} for a throttle, and completes at
   * {@code done}: for a device that knows the completion when the request arrives ({@link #arrive} and
   * {@link #complete} in one call).
   */
  void request(Context ctx, int kind, long bytes, long arrival, long done, long throttledNs) {
    arrive(ctx, arrival);
    complete(ctx, kind, bytes, arrival, done, throttledNs);
  }

  /** A request arrived (now); requests arrive in time order. Its completion follows later through complete(). */
  void arrive(Context ctx, long arrival) {
    if (emitFacts && tickAt < 0) scheduleTick(ctx);
    if (unknown == 0 && arrival >= lastBusyEnd) { // an idle gap ends: close the busy period before it
      busyClosed += lastBusyEnd - busyStart;
      busyStart = arrival;
      lastBusyEnd = arrival;
    }
    unknown++;
  }

  /**
   * The completion of a request that arrived at {@code arrival} is known: it completes at {@code done}, having waited
   * {@code throttledNs} for a throttle. Called when it is known, which is no later than {@code done}.
   */
  void complete(Context ctx, int kind, long bytes, long arrival, long done, long throttledNs) {
    long end = ctx.endTime();
    unknown--;
    lastBusyEnd = Math.max(lastBusyEnd, done);
    if (throttledNs > 0 && arrival <= end) {
      throttled += throttledNs;
      sThrottled = add(sThrottled, second(arrival, end), throttledNs);
    }
    queue(arrival, Math.min(done, VirtualTime.plus(end, 1)), end);
    if (done > end) return; // completes after the run: not counted, as fio counts completed I/O only
    int s = second(done, end);
    switch (kind) {
      case DeviceProtocol.READ -> {
        reads++;
        bytesRead += bytes;
        sReads = add(sReads, s, 1);
      }
      case DeviceProtocol.WRITE -> {
        writes++;
        bytesWritten += bytes;
        sWrites = add(sWrites, s, 1);
      }
      case DeviceProtocol.ZERO -> {
        zeroFills++;
        bytesZeroed += bytes;
        sWrites = add(sWrites, s, 1);
      }
      default -> flushes++;
    }
    if (bytes > 0 && kind != DeviceProtocol.FLUSH) sBytes = add(sBytes, s, bytes);
    long lat = done - arrival;
    latencySum += lat;
    latencyMax = Math.max(latencyMax, lat);
    latency.recordValue(lat);
  }

  /** A request still outstanding at the end of the run, its completion unknown: it only adds to the queue depth. */
  void unfinished(Context ctx, long arrival) {
    unknown--;
    long end = ctx.endTime();
    lastBusyEnd = Math.max(lastBusyEnd, VirtualTime.plus(end, 1));
    queue(arrival, VirtualTime.plus(end, 1), end);
  }

  /** Adds the time from {@code from} to {@code to} to the per-second queue integral. */
  private void queue(long from, long to, long end) {
    if (to <= from) return;
    long first = from / SECOND;
    if ((to - 1) / SECOND == first) { // the usual case: within one second
      sQueue = add(sQueue, second(from, end), to - from);
      return;
    }
    for (long t = from; t < to; ) {
      int s = second(t, end);
      long next = Math.min(to, (t / SECOND + 1) * SECOND);
      sQueue = add(sQueue, s, next - t);
      t = next;
    }
  }

  /** The series index of time t: its second, the last second of the run for an event at its very end. */
  private static int second(long t, long end) {
    long s = t / SECOND;
    long last = end <= 0 ? 0 : (end - 1) / SECOND;
    return (int) Math.min(s, last);
  }

  private static long[] add(long[] a, int i, long v) {
    if (i >= a.length) a = Arrays.copyOf(a, Math.max(i + 1, a.length * 2));
    a[i] += v;
    return a;
  }

  private void scheduleTick(Context ctx) {
    long next = Math.min((ctx.now() / SECOND + 1) * SECOND, ctx.endTime());
    if (next < ctx.now()) return; // at the very end of the run: nothing is left to record
    tickAt = next;
    ctx.schedule(next, TICK, 0, 0);
  }

  /**
   * The tick: records as facts the seconds that are over and to which nothing more can be added: those that end by
   * now and by {@code oldestUnknownArrival}, the arrival of the oldest request whose completion is still unknown
   * (NEVER when there is none; a device that knows every completion on arrival passes NEVER). Ticks on while requests
   * are outstanding; else stops until the next arrival.
   */
  void tick(Context ctx, long oldestUnknownArrival) {
    long now = ctx.now();
    tickAt = -1;
    long end = ctx.endTime();
    long finalUpTo = Math.min(now, oldestUnknownArrival);
    int upTo = now >= end ? second(end, end) + 1 : (int) (finalUpTo / SECOND); // seconds [emitted, upTo) are final
    for (int s = emitted; s < upTo; s++) {
      ctx.record(new DeviceInterval(name, s * SECOND, Math.min((s + 1) * SECOND, end), at(sReads, s), at(sWrites, s),
          at(sBytes, s), at(sQueue, s) / (double) Math.min(SECOND, end - s * SECOND), at(sThrottled, s)));
    }
    emitted = Math.max(emitted, upTo);
    if (now < end && (unknown > 0 || lastBusyEnd > now || emitted < (int) (now / SECOND))) scheduleTick(ctx);
  }

  /** The run's end, as the device saw it at start or at an event. */
  void noteEnd(long end) {
    endTime = end;
  }

  /** True when the event is this recorder's tick. */
  static boolean isTick(io.tlogsim.kernel.Event ev) {
    return ev.port() == Context.SELF_PORT && ev.kind() == TICK;
  }

  /** The time of the pending tick, or -1. */
  long tickAt() {
    return tickAt;
  }

  private static long at(long[] a, int i) {
    return i < a.length ? a[i] : 0;
  }

  DeviceStats results(String model, java.util.SortedMap<String, Long> counters) {
    int n = endTime == VirtualTime.NEVER ? 0 : second(endTime, endTime) + 1;
    DeviceSeries series = new DeviceSeries(Arrays.copyOf(sReads, n), Arrays.copyOf(sWrites, n),
        Arrays.copyOf(sBytes, n), Arrays.copyOf(sQueue, n), Arrays.copyOf(sThrottled, n));
    long busy = busyClosed + Math.max(0, Math.min(lastBusyEnd, VirtualTime.plus(endTime, 1)) - busyStart);
    return new DeviceStats(name, model, reads, writes, flushes, zeroFills, bytesRead, bytesWritten, bytesZeroed,
        Math.min(busy, endTime), latencySum, latencyMax, throttled, LatencyHistograms.encode(latency), series,
        counters);
  }

  State state() {
    return new State(new long[] {reads, writes, flushes, zeroFills, bytesRead, bytesWritten, bytesZeroed, busyClosed,
        busyStart, lastBusyEnd, unknown, latencySum, latencyMax, throttled, emitted, tickAt, endTime},
        LatencyHistograms.encode(latency),
        sReads.clone(), sWrites.clone(), sBytes.clone(), sQueue.clone(), sThrottled.clone());
  }

  void restore(State s) {
    long[] v = s.totals();
    reads = v[0];
    writes = v[1];
    flushes = v[2];
    zeroFills = v[3];
    bytesRead = v[4];
    bytesWritten = v[5];
    bytesZeroed = v[6];
    busyClosed = v[7];
    busyStart = v[8];
    lastBusyEnd = v[9];
    unknown = v[10];
    latencySum = v[11];
    latencyMax = v[12];
    throttled = v[13];
    emitted = (int) v[14];
    tickAt = v[15];
    endTime = v[16];
    latency = LatencyHistograms.decode(s.latency());
    sReads = s.reads().clone();
    sWrites = s.writes().clone();
    sBytes = s.bytes().clone();
    sQueue = s.queue().clone();
    sThrottled = s.throttled().clone();
  }

  /** The recorder's state in a checkpoint. */
  public record State(long[] totals, byte[] latency, long[] reads, long[] writes, long[] bytes, long[] queue,
      long[] throttled) implements CborSerializable {}
}
