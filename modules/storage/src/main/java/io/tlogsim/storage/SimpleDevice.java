package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;

/**
 * A device serving one request at a time in arrival order; a request takes a fixed latency plus bytes / bandwidth
 * (the GCM-1 device of BENCH.md), whatever its kind. It answers as soon as it accepts a request, stamped with the completion time:
 * that is what lets the requester know its future early.
 */
public final class SimpleDevice implements SimComponent {
  private final String name;
  private final long baseNanos;
  private final double bytesPerNano;

  private State s = new State(0, 0, 0, 0, 0, 0, 0);

  /**
   * @param baseNanos latency of every request (> 0: it is also the least delay of a reply)
   * @param mbPerSec transfer rate in MB/s (10^6 bytes per second)
   */
  public SimpleDevice(String name, long baseNanos, double mbPerSec) {
    if (baseNanos <= 0) throw new IllegalArgumentException(name + ": base latency must be > 0 ns");
    if (!(mbPerSec > 0)) throw new IllegalArgumentException(name + ": rate must be > 0 MB/s");
    this.name = name;
    this.baseNanos = baseNanos;
    this.bytesPerNano = mbPerSec * 1e6 / 1e9;
  }

  /** Service time of a write of {@code bytes}: base + bytes / rate, in whole ns. */
  public long serviceNanos(long bytes) {
    return baseNanos + (long) (bytes / bytesPerNano);
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    boolean read = ev.kind() == DeviceProtocol.READ;
    long now = ctx.now();
    long bytes = ev.b();
    long start = Math.max(now, s.busyUntil);
    long service = serviceNanos(bytes);
    long done = start + service;
    s = new State(done, s.reads + (read ? 1 : 0), s.writes + (read ? 0 : 1), s.bytesRead + (read ? bytes : 0),
        s.bytesWritten + (read ? 0 : bytes), s.busy + service, s.latency + (done - now));
    ctx.send(ctx.replyLink(), done, DeviceProtocol.DONE, ev.a(), bytes, ev.kind(), ev.d());
  }

  @Override
  public long inputDelay(int port) {
    return baseNanos; // a reply is never sooner than one service time after its request
  }

  @Override
  public Object snapshot() {
    return s;
  }

  @Override
  public void restore(Object snapshot) {
    s = (State) snapshot;
  }

  @Override
  public Object results() {
    return new DeviceStats(name, s.reads, s.writes, s.bytesWritten, s.busy, s.latency, 0);
  }

  /** Immutable, so a snapshot is the object itself. */
  public record State(long busyUntil, long reads, long writes, long bytesRead, long bytesWritten, long busy,
      long latency) implements CborSerializable {}
}
