package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.VirtualTime;

/**
 * An SSD: requests move their bytes over one shared interface at the drive's bandwidth, in arrival order, and each
 * then occupies one of {@code channels} flash channels for its latency (read or write); the channel free soonest takes
 * it. A flush is not queued with the others (as SATA's FLUSH CACHE): it waits until every request accepted before it
 * has completed, then costs the flush latency, which is short with power-loss protection and long without
 * (REFERENCE.md section 4, "SSD fsync"). A zero-fill is a write. With a spread, every latency is the spec's times a
 * lognormal draw of mean 1 ({@link LatencySpread}). Every completion is known on arrival, so the reply
 * goes at once.
 */
public final class Ssd extends Device {
  private final SsdSpec spec;
  private final double nsPerByte;
  private final long minMediaNanos;
  private final long flushLeast;
  private final LatencySpread spread; // null: every latency exactly the spec's

  private final long[] channelFree;
  private long busFree;
  private long lastDone; // the latest completion of any request accepted

  public Ssd(String name, SsdSpec spec) {
    super(name, true);
    this.spec = spec;
    this.nsPerByte = 1e3 / spec.mbPerSec();
    this.spread = LatencySpread.of("latencyCv", spec.latencyCv());
    this.minMediaNanos = LatencySpread.least(spread, Math.min(spec.readNanos(), spec.writeNanos()));
    this.flushLeast = LatencySpread.least(spread, spec.flushNanos());
    this.channelFree = new long[spec.channels()];
  }

  @Override
  public String model() {
    return "ssd (" + spec.channels() + " channels, " + (spec.powerLossProtection() ? "with" : "without")
        + " power-loss protection)";
  }

  @Override
  public long replyLookaheadNanos() {
    return Math.min(minMediaNanos, flushLeast);
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    checkKind(name, ev);
    long now = ctx.now();
    int kind = ev.kind();
    long bytes = bytesOf(ev);
    long done;
    if (kind == DeviceProtocol.FLUSH) {
      done = Math.max(now, lastDone) + LatencySpread.vary(spread, spec.flushNanos(), ctx.rng());
    } else {
      long transferred = Math.max(now, busFree) + (long) (bytes * nsPerByte);
      busFree = transferred;
      int c = 0;
      for (int i = 1; i < channelFree.length; i++) if (channelFree[i] < channelFree[c]) c = i;
      long media = kind == DeviceProtocol.READ ? spec.readNanos() : spec.writeNanos();
      done = Math.max(transferred, channelFree[c]) + LatencySpread.vary(spread, media, ctx.rng());
      channelFree[c] = done;
    }
    lastDone = Math.max(lastDone, done);
    stats.request(ctx, kind, bytes, now, done, 0);
    reply(ctx, done, ev);
  }

  @Override
  public long inputDelay(int port) {
    return port == Context.SELF_PORT ? VirtualTime.NEVER : replyLookaheadNanos(); // the tick sends nothing
  }

  /** Nothing completes before the soonest-free channel's next job, nor a flush before every request accepted. */
  @Override
  public long quietUntil() {
    long soonest = channelFree[0];
    for (long f : channelFree) soonest = Math.min(soonest, f);
    return Math.min(VirtualTime.plus(soonest, minMediaNanos), VirtualTime.plus(lastDone, flushLeast));
  }

  @Override
  public Object snapshot() {
    return new State(channelFree.clone(), busFree, lastDone, stats.state());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    System.arraycopy(s.channelFree(), 0, channelFree, 0, channelFree.length);
    busFree = s.busFree();
    lastDone = s.lastDone();
    stats.restore(s.stats());
  }

  public record State(long[] channelFree, long busFree, long lastDone, IoStats.State stats)
      implements CborSerializable {}
}
