package io.tlogsim.storage;

/**
 * A cloud premium disk as the model runs it: the disk's size tier, optionally the managed-instance limits of the file
 * on it, base latency, the short burst a throttle lets through, credit bursting, the I/O unit the disk counts, and
 * optionally the per-instance log-rate cap.
 *
 * @param band the managed-instance per-file limits over the disk's own, or null for a bare disk
 * @param throttleBurstNanos the burst a throttle lets through at once, in time at the cap (a full bucket of
 *     cap x this): after it, requests are delayed so that every second stays at the cap
 * @param creditBursting true when the disk bursts on credits (only a tier that allows it, P20 and below)
 * @param logRateMiBPerSec the instance's log write rate cap applied to this disk's writes; 0: off
 * @param filePacing a managed-instance file's IOPS cap as a service rate: every I/O holds the file for 1 / IOPS of
 *     its band before its latency (so even one I/O at a time pays it), instead of a throttle that only acts above
 *     the cap
 * @param latencyCv coefficient of variation of the latency (a lognormal of mean {@code latencyNanos}:
 *     {@link LatencySpread}); 0: exactly it
 */
public record PremiumSpec(PremiumTier disk, ManagedInstanceBand band, long latencyNanos, long throttleBurstNanos,
    boolean creditBursting, long burstIops, long burstMiBPerSec, long burstSeconds, long ioUnitBytes,
    double logRateMiBPerSec, boolean filePacing, double latencyCv) {

  /** A disk whose latency is exactly {@code latencyNanos}. */
  public PremiumSpec(PremiumTier disk, ManagedInstanceBand band, long latencyNanos, long throttleBurstNanos,
      boolean creditBursting, long burstIops, long burstMiBPerSec, long burstSeconds, long ioUnitBytes,
      double logRateMiBPerSec, boolean filePacing) {
    this(disk, band, latencyNanos, throttleBurstNanos, creditBursting, burstIops, burstMiBPerSec, burstSeconds,
        ioUnitBytes, logRateMiBPerSec, filePacing, 0);
  }

  public PremiumSpec {
    DeviceConfigException.range("latencyUs", latencyNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("throttleBurstMs", throttleBurstNanos / 1e6, 0.001, 10_000, " ms");
    DeviceConfigException.range("latencyCv", latencyCv, 0, LatencySpread.MAX_CV,
        " (coefficient of variation: standard deviation / mean)");
    DeviceConfigException.range("logRateMiBPerSec", logRateMiBPerSec, 0, 1e6, " MiB/s");
    if (creditBursting && !disk.creditBursting()) {
      throw new DeviceConfigException("creditBursting", "only tiers up to the last bursting one may burst; "
          + disk.name() + " does not");
    }
  }

  /** A named disk (P10 ... P80): its own caps, counting each {@code ioUnitBytes} as one I/O. */
  public static PremiumSpec named(PremiumCatalog c, String tier, long latencyNanos, long throttleBurstNanos,
      boolean creditBursting, int logRateVCores) {
    PremiumTier t = c.tier("tier", tier);
    return new PremiumSpec(t, null, latencyNanos, throttleBurstNanos, creditBursting && t.creditBursting(),
        c.burstIops(), c.burstMiBPerSec(), c.burstSeconds(), c.ioUnitBytes(), logRate(c, logRateVCores), false);
  }

  /**
   * A managed-instance file of {@code fileGiB}: the smallest disk that holds it, under the instance's per-file limits
   * of its band (which count every I/O once). The disk's credit bursting, if any, cannot lift the file above its band.
   */
  public static PremiumSpec forFile(PremiumCatalog c, double fileGiB, long latencyNanos, long throttleBurstNanos,
      boolean creditBursting, int logRateVCores) {
    ManagedInstanceBand b = c.band("fileSizeGiB", fileGiB);
    PremiumTier t = c.tierForSize("fileSizeGiB", fileGiB);
    return new PremiumSpec(t, b, latencyNanos, throttleBurstNanos, creditBursting && t.creditBursting(),
        c.burstIops(), c.burstMiBPerSec(), c.burstSeconds(), c.ioUnitBytes(), logRate(c, logRateVCores), false);
  }

  /** The same disk with the managed-instance file paced at its band's IOPS (see {@code filePacing}). */
  public PremiumSpec withFilePacing(boolean pacing) {
    return new PremiumSpec(disk, band, latencyNanos, throttleBurstNanos, creditBursting, burstIops, burstMiBPerSec,
        burstSeconds, ioUnitBytes, logRateMiBPerSec, pacing, latencyCv);
  }

  /** The same disk with a latency of coefficient of variation {@code cv}. */
  public PremiumSpec withLatencyCv(double cv) {
    return new PremiumSpec(disk, band, latencyNanos, throttleBurstNanos, creditBursting, burstIops, burstMiBPerSec,
        burstSeconds, ioUnitBytes, logRateMiBPerSec, filePacing, cv);
  }

  /** The time a paced managed-instance file holds each I/O (1 / IOPS of its band); 0 when not paced. */
  public long fileSlotNanos() {
    return filePacing && band != null ? Math.max(1, 1_000_000_000L / band.iops()) : 0;
  }

  private static double logRate(PremiumCatalog c, int vCores) {
    DeviceConfigException.range("logRateVCores", vCores, 0, 1024, " vCores (0: no log-rate cap)");
    return vCores == 0 ? 0 : c.logRateMiBPerSec(vCores);
  }

  public long capacityBytes() {
    return disk.sizeGiB() << 30;
  }

  /** The IOPS cap in force without bursting: the band's when there is one (it is never above the disk's). */
  public long iopsCap() {
    return band == null ? disk.iops() : Math.min(band.iops(), disk.iops());
  }

  public long mibPerSecCap() {
    return band == null ? disk.mibPerSec() : Math.min(band.mibPerSec(), disk.mibPerSec());
  }
}
