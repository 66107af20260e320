package io.tlogsim.storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The cloud storage tables the premium disk model reads (REFERENCE.md section 4; {@link StorageTables} loads them from
 * config/application.conf): Premium SSD sizes, the managed-instance per-file bands, credit bursting (burst IOPS and
 * MiB/s, for how long a full bucket lasts), the I/O unit a disk counts against its IOPS cap, and the per-instance log
 * rate (per vCore and at most).
 */
public record PremiumCatalog(List<PremiumTier> tiers, List<ManagedInstanceBand> bands, long burstIops,
    long burstMiBPerSec, long burstSeconds, long ioUnitBytes, double logRateMiBPerVCore, double logRateMaxMiB) {

  public PremiumCatalog {
    tiers = tiers.stream().sorted(Comparator.comparingLong(PremiumTier::sizeGiB)).toList();
    bands = bands.stream().sorted(Comparator.comparingLong(ManagedInstanceBand::maxGiB)).toList();
    if (tiers.isEmpty() || bands.isEmpty()) throw new IllegalArgumentException("empty premium disk tables");
    if (ioUnitBytes <= 0) throw new IllegalArgumentException("ioUnitBytes must be > 0");
  }

  /** The tier of this name, or a {@link DeviceConfigException} naming {@code key} and the tiers there are. */
  public PremiumTier tier(String key, String name) {
    for (PremiumTier t : tiers) if (t.name().equalsIgnoreCase(name)) return t;
    throw new DeviceConfigException(key, "must be one of " + String.join(", ", tierNames()) + ", got '" + name + "'");
  }

  public List<String> tierNames() {
    List<String> names = new ArrayList<>();
    for (PremiumTier t : tiers) names.add(t.name());
    return names;
  }

  /** The smallest disk that holds a file of {@code fileGiB}: what a managed instance puts the file on. */
  public PremiumTier tierForSize(String key, double fileGiB) {
    for (PremiumTier t : tiers) if (fileGiB <= t.sizeGiB()) return t;
    throw new DeviceConfigException(key, "must be at most " + tiers.get(tiers.size() - 1).sizeGiB()
        + " GiB (the largest disk), got " + fileGiB);
  }

  /** The managed-instance band of a file of {@code fileGiB}. */
  public ManagedInstanceBand band(String key, double fileGiB) {
    if (!(fileGiB > 0)) throw new DeviceConfigException(key, "must be > 0 GiB, got " + fileGiB);
    for (ManagedInstanceBand b : bands) if (fileGiB <= b.maxGiB()) return b;
    throw new DeviceConfigException(key, "must be at most " + bands.get(bands.size() - 1).maxGiB()
        + " GiB (the managed-instance per-file table ends there), got " + fileGiB);
  }

  /** The per-instance log write rate cap for {@code vCores}, MiB/s: per vCore, at most the maximum. */
  public double logRateMiBPerSec(int vCores) {
    return Math.min(logRateMiBPerVCore * vCores, logRateMaxMiB);
  }
}
