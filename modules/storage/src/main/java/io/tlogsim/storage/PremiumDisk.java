package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.VirtualTime;
import java.util.SortedMap;

/**
 * An Azure Premium SSD (REFERENCE.md section 4), alone or holding one managed-instance file.
 *
 * <p>Requests are admitted in arrival order through throttles, then complete after the base latency. Each throttle
 * is a {@link TokenBucket}: a full bucket lets a short burst through, after which requests are delayed so that every
 * second stays at the cap.
 * <ul>
 *   <li>Disk IOPS. <b>An I/O counts as ceil(bytes / 256 KiB) operations, at least one</b>: Azure's disk documentation
 *       counts an I/O of up to 256 KiB once and a larger one as several (AWS EBS counts provisioned IOPS the same
 *       way); the unit is {@code ioUnitBytes} in config. A flush counts as one.</li>
 *   <li>Disk MiB/s, by bytes.</li>
 *   <li>Credit bursting (tiers up to P20): a credit bucket that refills at the base rate and holds (burst - base) x
 *       30 minutes, full at the start, so a saturating load runs at the burst rate for exactly 30 minutes and then at
 *       the base rate, and credits come back while the load is below the base rate; a second bucket caps the burst
 *       rate itself. Both for IOPS and for MiB/s.</li>
 *   <li>Managed-instance file limits (when the disk holds an instance's file): IOPS and MiB/s of the file's band, where
 *       <b>every I/O counts once, whatever its size</b>, while the disk underneath still counts per 256 KiB.</li>
 *   <li>Paced managed-instance file ({@code filePacing}): the band's IOPS as a service rate, every I/O holding the
 *       file for 1 / IOPS before its latency, so that one I/O at a time already pays it.</li>
 *   <li>Per-instance log rate (off unless configured): a cap on the bytes of writes, a separate throttle whose delay
 *       is counted apart ({@code logRateThrottledNanos}).</li>
 * </ul>
 * Every completion is known on arrival (admission time + latency), so the reply goes at once. With a spread the
 * latency is a lognormal draw of mean the base latency ({@link LatencySpread}): admission stays in arrival order,
 * completions need not.
 */
public final class PremiumDisk extends Device {
  private final PremiumSpec spec;
  private final TokenBucket diskIops; // the base rate; with bursting, the credit bucket
  private final TokenBucket diskBytes;
  private final TokenBucket burstIops; // the burst rate itself (bursting only), else null
  private final TokenBucket burstBytes;
  private final TokenBucket fileIops; // managed-instance limits, else null
  private final TokenBucket fileBytes;
  private final TokenBucket logRate; // per-instance log rate, else null

  private final LatencySpread spread; // null: every I/O takes exactly the latency
  private final long leastLatency;

  private long lastAdmit;
  private long logRateThrottled;
  private long creditsOutAt = -1; // when a request first had to wait for burst credits

  public PremiumDisk(String name, PremiumSpec spec) {
    super(name, true);
    this.spec = spec;
    this.spread = LatencySpread.of("latencyCv", spec.latencyCv());
    this.leastLatency = LatencySpread.least(spread, spec.latencyNanos());
    double tol = spec.throttleBurstNanos() / 1e9;
    PremiumTier t = spec.disk();
    double mib = 1 << 20;
    if (spec.creditBursting()) {
      diskIops = new TokenBucket(t.iops(), Math.max(1, (spec.burstIops() - t.iops()) * (double) spec.burstSeconds()));
      diskBytes = new TokenBucket(t.mibPerSec() * mib,
          Math.max(mib, (spec.burstMiBPerSec() - t.mibPerSec()) * mib * spec.burstSeconds()));
      burstIops = new TokenBucket(spec.burstIops(), Math.max(1, spec.burstIops() * tol));
      burstBytes = new TokenBucket(spec.burstMiBPerSec() * mib, spec.burstMiBPerSec() * mib * tol);
    } else {
      diskIops = new TokenBucket(t.iops(), Math.max(1, t.iops() * tol));
      diskBytes = new TokenBucket(t.mibPerSec() * mib, t.mibPerSec() * mib * tol);
      burstIops = null;
      burstBytes = null;
    }
    ManagedInstanceBand b = spec.band();
    // paced: one I/O per slot, no burst; else a throttle that lets a short burst through
    fileIops = b == null ? null : new TokenBucket(b.iops(), spec.filePacing() ? 1 : Math.max(1, b.iops() * tol));
    fileBytes = b == null ? null : new TokenBucket(b.mibPerSec() * mib, b.mibPerSec() * mib * tol);
    double log = spec.logRateMiBPerSec() * mib;
    logRate = log > 0 ? new TokenBucket(log, log * tol) : null;
  }

  @Override
  public String model() {
    String disk = "premium " + spec.disk().name() + (spec.creditBursting() ? " bursting" : "");
    return spec.band() == null ? disk : "managed-instance file " + spec.band().name() + " on " + disk;
  }

  @Override
  public long replyLookaheadNanos() {
    return spec.fileSlotNanos() + leastLatency;
  }

  /** Operations an I/O of {@code bytes} counts against the disk's IOPS cap: per started I/O unit, at least one. */
  public static long diskOperations(long bytes, long ioUnitBytes) {
    return Math.max(1, (bytes + ioUnitBytes - 1) / ioUnitBytes);
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    checkKind(name, ev);
    long now = ctx.now();
    int kind = ev.kind();
    long bytes = bytesOf(ev);
    long ops = diskOperations(bytes, spec.ioUnitBytes());
    long t0 = Math.max(now, lastAdmit);
    long t = Math.max(diskIops.readyAt(t0, ops), diskBytes.readyAt(t0, bytes));
    if (burstIops != null) {
      if (creditsOutAt < 0 && diskIops.readyAt(t0, ops) > t0) {
        creditsOutAt = t0;
        ctx.record(new BurstCreditsSpent(name, t0));
      }
      t = Math.max(t, Math.max(burstIops.readyAt(t0, ops), burstBytes.readyAt(t0, bytes)));
    }
    if (fileIops != null) t = Math.max(t, Math.max(fileIops.readyAt(t0, 1), fileBytes.readyAt(t0, bytes)));
    if (logRate != null && kind == DeviceProtocol.WRITE) {
      long withLog = Math.max(t, logRate.readyAt(t0, bytes));
      logRateThrottled += withLog - t;
      t = withLog;
      logRate.take(t, bytes);
    }
    diskIops.take(t, ops);
    diskBytes.take(t, bytes);
    if (burstIops != null) {
      burstIops.take(t, ops);
      burstBytes.take(t, bytes);
    }
    if (fileIops != null) {
      fileIops.take(t, 1);
      fileBytes.take(t, bytes);
    }
    lastAdmit = t;
    long done = t + spec.fileSlotNanos() + LatencySpread.vary(spread, spec.latencyNanos(), ctx.rng());
    stats.request(ctx, kind, bytes, now, done, t - now);
    reply(ctx, done, ev);
  }

  /** A fact: the disk ran out of burst credits (from here on it is held to its base rate while the load stays). */
  public record BurstCreditsSpent(String device, long atNanos) implements io.tlogsim.kernel.EventFact {}

  @Override
  public long inputDelay(int port) {
    return port == Context.SELF_PORT ? VirtualTime.NEVER : spec.fileSlotNanos() + leastLatency;
  }

  /** Nothing completes before the next admission the throttles allow, plus the latency. */
  @Override
  public long quietUntil() {
    long t = Math.max(lastAdmit, Math.max(diskIops.readyAt(lastAdmit, 1), diskBytes.readyAt(lastAdmit, 0)));
    if (burstIops != null) t = Math.max(t, Math.max(burstIops.readyAt(lastAdmit, 1), burstBytes.readyAt(lastAdmit, 0)));
    if (fileIops != null) t = Math.max(t, Math.max(fileIops.readyAt(lastAdmit, 1), fileBytes.readyAt(lastAdmit, 0)));
    return VirtualTime.plus(t, spec.fileSlotNanos() + leastLatency);
  }

  @Override
  protected SortedMap<String, Long> counters() {
    SortedMap<String, Long> c = super.counters();
    c.put("iopsCap", spec.iopsCap());
    if (spec.creditBursting()) {
      c.put("burstIops", spec.burstIops());
      c.put("burstCreditsSpentAtNanos", creditsOutAt);
    }
    if (logRate != null) c.put("logRateThrottledNanos", logRateThrottled);
    return c;
  }

  @Override
  public Object snapshot() {
    return new State(bucket(diskIops), bucket(diskBytes), bucket(burstIops), bucket(burstBytes), bucket(fileIops),
        bucket(fileBytes), bucket(logRate), lastAdmit, logRateThrottled, creditsOutAt, stats.state());
  }

  private static TokenBucket.State bucket(TokenBucket b) {
    return b == null ? null : b.state();
  }

  private static void restore(TokenBucket b, TokenBucket.State s) {
    if (b != null) b.restore(s);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    restore(diskIops, s.diskIops());
    restore(diskBytes, s.diskBytes());
    restore(burstIops, s.burstIops());
    restore(burstBytes, s.burstBytes());
    restore(fileIops, s.fileIops());
    restore(fileBytes, s.fileBytes());
    restore(logRate, s.logRate());
    lastAdmit = s.lastAdmit();
    logRateThrottled = s.logRateThrottled();
    creditsOutAt = s.creditsOutAt();
    stats.restore(s.stats());
  }

  public record State(TokenBucket.State diskIops, TokenBucket.State diskBytes, TokenBucket.State burstIops,
      TokenBucket.State burstBytes, TokenBucket.State fileIops, TokenBucket.State fileBytes,
      TokenBucket.State logRate, long lastAdmit, long logRateThrottled, long creditsOutAt, IoStats.State stats)
      implements CborSerializable {}
}
