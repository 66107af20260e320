package io.tlogsim.storage;

import java.util.List;

/**
 * Every device model's settings as a scenario gives them (times in ns, sizes in GiB as set), and the device setup of
 * one model built from them. Only the model built is checked: the others' settings may hold anything. A setting the
 * models refuse is a {@link DeviceConfigException} naming it as the model's spec does ("stripeBytes"), and the model.
 * A model never built may have no settings (null).
 */
public record DeviceSettings(Simple simple, Ssd ssd, Hdd hdd, Premium premium, Raid raid, Profile profile) {

  /** The device models by the names scenarios give them. */
  public static final List<String> MODELS = List.of("simple", "ssd", "hdd", "premium", "raid", "profile");
  /** The models a RAID's members may be. */
  public static final List<String> MEMBER_MODELS = List.of("simple", "ssd", "hdd", "premium");

  private static final long GIB = 1L << 30;

  /** The GCM-1 device: latency + bytes / rate. */
  public record Simple(long latencyNanos, double mbPerSec, double capacityGiB) {}

  public record Ssd(long readLatencyNanos, long writeLatencyNanos, long flushPlpNanos, long flushNoPlpNanos,
      boolean powerLossProtection, double mbPerSec, int channels, double capacityGiB) {}

  public record Hdd(int rpm, long seekReadNanos, long seekWriteNanos, long trackToTrackNanos, double transferMBps,
      double capacityGiB, long commandOverheadNanos, int queueDepth) {}

  /**
   * A cloud premium disk: {@code tier} "auto" picks the smallest disk that holds a managed-instance file of
   * {@code fileSizeGiB}; {@code filePacing} paces such a file's I/Os at its band's IOPS (auto only).
   */
  public record Premium(String tier, double fileSizeGiB, long latencyNanos, long throttleBurstNanos,
      boolean creditBursting, int logRateVCores, boolean filePacing) {}

  public record Raid(int level, int members, String memberModel, long stripeBytes, boolean writeBack,
      boolean batteryOk, long cacheBytes, long cacheLatencyNanos, long controllerNanos, int destageDepth) {}

  /** A device measured by calibrate-device: the latency of a synchronous write of each of {@code bytes}. */
  public record Profile(long[] bytes, long[] latencyNanos, double qd8Speedup, long flushNanos, double capacityGiB) {}

  /**
   * Whether a write on this model needs a flush (fsync) to be durable: an SSD has a volatile write cache (REFERENCE.md
   * 4, "SSD fsync", with or without power-loss protection); an HDD without one, a RAID controller's battery-backed
   * cache, a cloud disk and a profile (measured with synchronous writes) are durable when they acknowledge a write.
   */
  public static boolean volatileWriteCache(String model) {
    return model.equals("ssd");
  }

  /** The device of {@code model} (one of {@link #MODELS}). */
  public DeviceSetup setup(String model, PremiumCatalog tables) {
    return build(model, tables, -1);
  }

  /** A RAID of {@code level} over {@code members} members of the member model, each of {@code memberGiB} if > 0. */
  public DeviceSetup raid(PremiumCatalog tables, int level, int members, double memberGiB) {
    DeviceSetup m = build(raid.memberModel(), tables, memberGiB);
    try {
      RaidSpec spec = new RaidSpec(level, members, raid.stripeBytes(), m.capacityBytes(), raid.writeBack(),
          raid.batteryOk(), raid.cacheBytes(), raid.cacheLatencyNanos(), raid.controllerNanos(), raid.destageDepth());
      return new DeviceSetup.OfRaid(spec, m);
    } catch (DeviceConfigException e) {
      throw e.of("raid");
    }
  }

  private DeviceSetup build(String model, PremiumCatalog tables, double capacityGiB) {
    try {
      return buildChecked(model, tables, capacityGiB);
    } catch (DeviceConfigException e) {
      throw e.of(model); // a RAID's member's or controller's refusal names its own model
    }
  }

  private DeviceSetup buildChecked(String model, PremiumCatalog tables, double capacityGiB) {
    return switch (model) {
      case "simple" -> new DeviceSetup.Simple(simple.latencyNanos(), simple.mbPerSec(),
          gib(capacityGiB > 0 ? capacityGiB : simple.capacityGiB()));
      case "ssd" -> new DeviceSetup.OfSsd(new SsdSpec(ssd.readLatencyNanos(), ssd.writeLatencyNanos(),
          ssd.flushPlpNanos(), ssd.flushNoPlpNanos(), ssd.powerLossProtection(), ssd.mbPerSec(), ssd.channels(),
          gib(capacityGiB > 0 ? capacityGiB : ssd.capacityGiB())));
      case "hdd" -> new DeviceSetup.OfHdd(new HddSpec(hdd.rpm(), hdd.seekReadNanos(), hdd.seekWriteNanos(),
          hdd.trackToTrackNanos(), hdd.transferMBps(), gib(capacityGiB > 0 ? capacityGiB : hdd.capacityGiB()),
          hdd.commandOverheadNanos(), hdd.queueDepth()));
      case "premium" -> {
        boolean auto = premium.tier().equals("auto");
        PremiumSpec spec = auto
            ? PremiumSpec.forFile(tables, capacityGiB > 0 ? capacityGiB : premium.fileSizeGiB(), premium.latencyNanos(),
                premium.throttleBurstNanos(), premium.creditBursting(), premium.logRateVCores())
            : PremiumSpec.named(tables, premium.tier(), premium.latencyNanos(), premium.throttleBurstNanos(),
                premium.creditBursting(), premium.logRateVCores());
        if (premium.filePacing() && !auto) {
          throw new DeviceConfigException("filePacing", "paces a managed-instance file: needs tier auto (a file's"
              + " size band), got " + premium.tier());
        }
        yield new DeviceSetup.OfPremium(spec.withFilePacing(premium.filePacing()));
      }
      case "raid" -> raid(tables, raid.level(), raid.members(), -1);
      case "profile" -> new DeviceSetup.OfProfile(new ProfileSpec(profile.bytes(), profile.latencyNanos(),
          profile.qd8Speedup(), profile.flushNanos(), gib(capacityGiB > 0 ? capacityGiB : profile.capacityGiB())));
      default -> throw new IllegalArgumentException("device model must be one of " + String.join(", ", MODELS)
          + ", got '" + model + "'");
    };
  }

  private static long gib(double g) {
    return (long) (g * GIB);
  }
}
