package io.tlogsim.storage;

import java.util.List;

/** The premium disk tables of REFERENCE.md section 4 as tests use them (StorageTables reads the same from config). */
final class Catalogs {
  private Catalogs() {}

  static PremiumCatalog azure() {
    return azure(1800);
  }

  /** With a full burst bucket lasting {@code burstSeconds} (30 minutes in Azure). */
  static PremiumCatalog azure(long burstSeconds) {
    List<PremiumTier> tiers = List.of(
        new PremiumTier("P10", 128, 500, 100, true),
        new PremiumTier("P15", 256, 1100, 125, true),
        new PremiumTier("P20", 512, 2300, 150, true),
        new PremiumTier("P30", 1024, 5000, 200, false),
        new PremiumTier("P40", 2048, 7500, 250, false),
        new PremiumTier("P50", 4096, 7500, 250, false),
        new PremiumTier("P60", 8192, 16000, 500, false),
        new PremiumTier("P70", 16384, 18000, 750, false),
        new PremiumTier("P80", 32767, 20000, 900, false));
    List<ManagedInstanceBand> bands = List.of(
        new ManagedInstanceBand("0-128GiB", 128, 500, 100),
        new ManagedInstanceBand("128-256GiB", 256, 1100, 125),
        new ManagedInstanceBand("256-512GiB", 512, 2300, 150),
        new ManagedInstanceBand("512GiB-1TiB", 1024, 5000, 200),
        new ManagedInstanceBand("1-2TiB", 2048, 7500, 250),
        new ManagedInstanceBand("2-4TiB", 4096, 7500, 250),
        new ManagedInstanceBand("4-8TiB", 8192, 12500, 480));
    return new PremiumCatalog(tiers, bands, 3500, 170, burstSeconds, 256 << 10, 3, 22);
  }

  static PremiumSpec named(String tier, boolean bursting, int logRateVCores) {
    return PremiumSpec.named(azure(), tier, 5_000_000, 50_000_000, bursting, logRateVCores);
  }
}
