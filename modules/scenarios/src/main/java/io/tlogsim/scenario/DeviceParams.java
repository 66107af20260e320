package io.tlogsim.scenario;

import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceConfigException;
import io.tlogsim.storage.DeviceProfiles;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.HddSpec;
import io.tlogsim.storage.PremiumCatalog;
import io.tlogsim.storage.PremiumSpec;
import io.tlogsim.storage.ProfileSpec;
import io.tlogsim.storage.RaidSpec;
import io.tlogsim.storage.SsdSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The device settings of a scenario as flat keys (ssdReadLatencyUs, hddRpm, premiumTier, raidLevel, ...), their
 * specs, and the storage setups built from them. Defaults: config/application.conf, tlogsim.storage.device. A setting
 * the storage models refuse becomes a bad-input error naming the scenario's key.
 */
public final class DeviceParams {
  private DeviceParams() {}

  public static final List<String> MODELS = List.of("simple", "ssd", "hdd", "premium", "raid", "profile");
  public static final List<String> MEMBER_MODELS = List.of("simple", "ssd", "hdd", "premium");
  private static final long GIB = 1L << 30;

  /** Every device key; {@code withChoice}: the {@code device} key too (a kind that builds devices of its own omits it). */
  public static List<ParamSpec> specs(PremiumCatalog tables, boolean withChoice) {
    List<ParamSpec> s = new ArrayList<>();
    if (withChoice) s.add(ParamSpec.choice("device", MODELS, "which device model"));
    s.addAll(List.of(
        ParamSpec.decimal("simpleLatencyUs", 0.001, 1e7, "simple device: latency of every request"),
        ParamSpec.decimal("simpleMBps", 0.001, 1e6, "simple device: transfer rate, MB/s (10^6 B/s)"),
        ParamSpec.decimal("simpleCapacityGiB", 0.001, 1 << 20, "simple device: capacity"),
        ParamSpec.decimal("ssdReadLatencyUs", 0.001, 1e7, "SSD: read latency"),
        ParamSpec.decimal("ssdWriteLatencyUs", 0.001, 1e7, "SSD: write latency"),
        ParamSpec.decimal("ssdFlushPlpUs", 0.001, 1e7, "SSD: flush latency with power-loss protection"),
        ParamSpec.decimal("ssdFlushNoPlpUs", 0.001, 1e7, "SSD: flush latency without it"),
        ParamSpec.bool("ssdPowerLossProtection", "SSD: has power-loss protection"),
        ParamSpec.decimal("ssdMBps", 0.001, 1e6, "SSD: interface bandwidth, MB/s (10^6 B/s)"),
        ParamSpec.integer("ssdChannels", 1, 1024, "SSD: requests served in parallel"),
        ParamSpec.decimal("ssdCapacityGiB", 0.001, 1 << 20, "SSD: capacity"),
        ParamSpec.integer("hddRpm", 1000, 30000, "HDD: spindle speed"),
        ParamSpec.decimal("hddSeekReadMs", 0.001, 100, "HDD: average read seek"),
        ParamSpec.decimal("hddSeekWriteMs", 0.001, 100, "HDD: average write seek"),
        ParamSpec.decimal("hddTrackToTrackMs", 0.001, 100, "HDD: one-track seek"),
        ParamSpec.decimal("hddTransferMBps", 1, 10000, "HDD: sustained media rate, MB/s (10^6 B/s)"),
        ParamSpec.decimal("hddCapacityGiB", 1, 1 << 20, "HDD: capacity"),
        ParamSpec.decimal("hddCommandOverheadUs", 1, 1e6, "HDD: command time when it reaches an idle drive"),
        ParamSpec.integer("hddQueueDepth", 1, 256, "HDD: commands it may reorder (1: arrival order)"),
        ParamSpec.choice("premiumTier", tierChoices(tables), "premium disk: tier, or auto from premiumFileSizeGiB"),
        ParamSpec.decimal("premiumFileSizeGiB", 0.001, 1 << 20,
            "premium disk (auto): size of the managed-instance file it holds"),
        ParamSpec.decimal("premiumLatencyUs", 0.001, 1e7, "premium disk: base latency"),
        ParamSpec.decimal("premiumThrottleBurstMs", 0.001, 10_000, "premium disk: burst a throttle lets through, at the cap"),
        ParamSpec.bool("premiumCreditBursting", "premium disk: credit bursting where the tier allows it"),
        ParamSpec.integer("premiumLogRateVCores", 0, 1024, "premium disk: vCores of the instance's log-rate cap (0: off)"),
        ParamSpec.bool("premiumFilePacing",
            "premium disk (auto): the file's band IOPS as a service rate, each I/O holding the file 1/IOPS"),
        ParamSpec.integer("raidLevel", 0, 10, "RAID: level (0, 1, 5, 6, 10)"),
        ParamSpec.integer("raidMembers", 1, RaidSpec.MAX_MEMBERS, "RAID: member devices"),
        ParamSpec.choice("raidMemberDevice", MEMBER_MODELS, "RAID: model of every member"),
        ParamSpec.longValue("raidStripeBytes", 1, 1L << 30, "RAID: strip size, a power of two"),
        ParamSpec.choice("raidWriteCache", List.of("write-back", "write-through"), "RAID: controller write cache mode"),
        ParamSpec.bool("raidBatteryOk", "RAID: the cache battery is good (else write-back falls back to write-through)"),
        ParamSpec.decimal("raidCacheMiB", 0, 1 << 20, "RAID: write cache size"),
        ParamSpec.decimal("raidCacheLatencyUs", 0.001, 1e7, "RAID: latency of a write the cache takes"),
        ParamSpec.decimal("raidControllerUs", 0.001, 1e7, "RAID: controller time each way"),
        ParamSpec.integer("raidDestageDepth", 1, 1024, "RAID: cached writes destaged at once, per member")));
    for (long b : DeviceProfiles.SIZES) {
      s.add(ParamSpec.decimal(DeviceProfiles.latencyKey(b), 0.001, 1e8,
          "profile device: mean latency of a synchronous write of " + b + " B, one in flight"));
    }
    s.add(ParamSpec.decimal("profileQd8Speedup", 0.1, 64,
        "profile device: rate with 8 in flight x the 4 KB latency alone (1: no gain from queueing)"));
    s.add(ParamSpec.decimal("profileFlushUs", 0.001, 1e8, "profile device: a flush with nothing to write"));
    s.add(ParamSpec.decimal("profileCapacityGiB", 0.001, 1 << 20, "profile device: capacity"));
    return s;
  }

  private static List<String> tierChoices(PremiumCatalog tables) {
    List<String> c = new ArrayList<>();
    c.add("auto");
    c.addAll(tables.tierNames());
    return c;
  }

  /**
   * Whether a write on this model needs a flush (fsync) to be durable: an SSD has a volatile write cache (REFERENCE.md
   * 4, "SSD fsync", with or without power-loss protection); an HDD without one, a RAID controller's battery-backed
   * cache, a cloud disk and a profile (measured with synchronous writes) are durable when they acknowledge a write.
   */
  public static boolean volatileWriteCache(String model) {
    return model.equals("ssd");
  }

  /** The device the {@code device} key names. */
  public static DeviceSetup setup(Params p, PremiumCatalog tables) {
    return setup(p.getString("device"), p, tables);
  }

  /** A device of the given model from the scenario's keys; refused settings become {@link BadInputException}s. */
  public static DeviceSetup setup(String model, Params p, PremiumCatalog tables) {
    try {
      return build(model, p, tables, -1);
    } catch (DeviceConfigException e) {
      throw badInput(e, model, p);
    }
  }

  /** A RAID of {@code level} over {@code members} members of the member model, each of {@code memberGiB} if > 0. */
  public static DeviceSetup raid(Params p, PremiumCatalog tables, int level, int members, double memberGiB) {
    String member = p.getString("raidMemberDevice");
    DeviceSetup m;
    try {
      m = build(member, p, tables, memberGiB);
    } catch (DeviceConfigException e) {
      throw badInput(e, member, p);
    }
    try {
      RaidSpec spec = new RaidSpec(level, members, p.getLong("raidStripeBytes"), m.capacityBytes(),
          p.getString("raidWriteCache").equals("write-back"), p.getBoolean("raidBatteryOk"),
          (long) (p.getDouble("raidCacheMiB") * (1 << 20)), us(p, "raidCacheLatencyUs"), us(p, "raidControllerUs"),
          p.getInt("raidDestageDepth"));
      return new DeviceSetup.OfRaid(spec, m);
    } catch (DeviceConfigException e) {
      throw badInput(e, "raid", p);
    }
  }

  private static DeviceSetup build(String model, Params p, PremiumCatalog tables, double capacityGiB) {
    switch (model) {
      case "simple":
        return new DeviceSetup.Simple(us(p, "simpleLatencyUs"), p.getDouble("simpleMBps"),
            gib(capacityGiB > 0 ? capacityGiB : p.getDouble("simpleCapacityGiB")));
      case "ssd":
        return new DeviceSetup.OfSsd(new SsdSpec(us(p, "ssdReadLatencyUs"), us(p, "ssdWriteLatencyUs"),
            us(p, "ssdFlushPlpUs"), us(p, "ssdFlushNoPlpUs"), p.getBoolean("ssdPowerLossProtection"),
            p.getDouble("ssdMBps"), p.getInt("ssdChannels"),
            gib(capacityGiB > 0 ? capacityGiB : p.getDouble("ssdCapacityGiB"))));
      case "hdd":
        return new DeviceSetup.OfHdd(new HddSpec(p.getInt("hddRpm"), ms(p, "hddSeekReadMs"), ms(p, "hddSeekWriteMs"),
            ms(p, "hddTrackToTrackMs"), p.getDouble("hddTransferMBps"),
            gib(capacityGiB > 0 ? capacityGiB : p.getDouble("hddCapacityGiB")), us(p, "hddCommandOverheadUs"),
            p.getInt("hddQueueDepth")));
      case "premium": {
        String tier = p.getString("premiumTier");
        long latency = us(p, "premiumLatencyUs");
        long burst = ms(p, "premiumThrottleBurstMs");
        boolean credits = p.getBoolean("premiumCreditBursting");
        int vCores = p.getInt("premiumLogRateVCores");
        PremiumSpec spec = tier.equals("auto")
            ? PremiumSpec.forFile(tables, capacityGiB > 0 ? capacityGiB : p.getDouble("premiumFileSizeGiB"), latency,
                burst, credits, vCores)
            : PremiumSpec.named(tables, tier, latency, burst, credits, vCores);
        if (p.getBoolean("premiumFilePacing") && !tier.equals("auto")) {
          throw BadInputException.about("premiumFilePacing", "paces a managed-instance file: needs premiumTier = auto"
              + " (a file's size band), got premiumTier = " + tier);
        }
        return new DeviceSetup.OfPremium(spec.withFilePacing(p.getBoolean("premiumFilePacing")));
      }
      case "raid":
        return raid(p, tables, p.getInt("raidLevel"), p.getInt("raidMembers"), -1);
      case "profile": {
        long[] bytes = DeviceProfiles.SIZES.stream().mapToLong(Long::longValue).toArray();
        long[] nanos = new long[bytes.length];
        for (int i = 0; i < bytes.length; i++) nanos[i] = us(p, DeviceProfiles.latencyKey(bytes[i]));
        return new DeviceSetup.OfProfile(new ProfileSpec(bytes, nanos, p.getDouble("profileQd8Speedup"),
            us(p, "profileFlushUs"), gib(capacityGiB > 0 ? capacityGiB : p.getDouble("profileCapacityGiB"))));
      }
      default:
        throw new BadInputException("device: must be one of " + String.join(", ", MODELS) + ", got '" + model + "'");
    }
  }

  /** The scenario key of a storage setting of a model. */
  public static String key(String model, String storageKey) {
    Map<String, String> special = switch (model) {
      case "simple" -> Map.of("latency", "simpleLatencyUs", "mbPerSec", "simpleMBps");
      case "ssd" -> Map.of("mbPerSec", "ssdMBps");
      case "premium" -> Map.of("tier", "premiumTier", "logRateMiBPerSec", "premiumLogRateVCores");
      case "raid" -> Map.of("cacheBytes", "raidCacheMiB");
      case "profile" -> Map.of("latency", "profile512Us", "flush", "profileFlushUs", "capacity", "profileCapacityGiB");
      default -> Map.of();
    };
    String k = special.get(storageKey);
    if (k != null) return k;
    return model + Character.toUpperCase(storageKey.charAt(0)) + storageKey.substring(1);
  }

  private static BadInputException badInput(DeviceConfigException e, String model, Params p) {
    String key = key(model, e.key());
    return new BadInputException(key + ": " + e.detail());
  }

  private static long us(Params p, String key) {
    return Math.round(p.getDouble(key) * VirtualTime.NS_PER_US);
  }

  private static long ms(Params p, String key) {
    return Math.round(p.getDouble(key) * VirtualTime.NS_PER_MS);
  }

  private static long gib(double g) {
    return (long) (g * GIB);
  }
}
