package io.tlogsim.scenario;

import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceConfigException;
import io.tlogsim.storage.DeviceProfiles;
import io.tlogsim.storage.DeviceSettings;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.PremiumCatalog;
import io.tlogsim.storage.RaidSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The device settings of a scenario as flat keys (ssdReadLatencyUs, hddRpm, premiumTier, raidLevel, ...): their specs,
 * and the storage's typed settings ({@link DeviceSettings}) read from them. Defaults: config/application.conf,
 * tlogsim.storage.device. A setting the storage models refuse becomes a bad-input error naming the scenario's key.
 */
public final class DeviceParams {
  private DeviceParams() {}

  public static final List<String> MODELS = DeviceSettings.MODELS;
  public static final List<String> MEMBER_MODELS = DeviceSettings.MEMBER_MODELS;

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

  /** Whether a write on this model needs a flush (fsync) to be durable ({@link DeviceSettings#volatileWriteCache}). */
  public static boolean volatileWriteCache(String model) {
    return DeviceSettings.volatileWriteCache(model);
  }

  /** The device the {@code device} key names. */
  public static DeviceSetup setup(Params p, PremiumCatalog tables) {
    return setup(p.getString("device"), p, tables);
  }

  /** A device of the given model from the scenario's keys; refused settings become {@link BadInputException}s. */
  public static DeviceSetup setup(String model, Params p, PremiumCatalog tables) {
    try {
      return settings(p, model).setup(model, tables);
    } catch (DeviceConfigException e) {
      throw badInput(e, model, p);
    }
  }

  /** A RAID of {@code level} over {@code members} members of the member model, each of {@code memberGiB} if > 0. */
  public static DeviceSetup raid(Params p, PremiumCatalog tables, int level, int members, double memberGiB) {
    try {
      return settings(p, "raid").raid(tables, level, members, memberGiB);
    } catch (DeviceConfigException e) {
      throw badInput(e, "raid", p);
    }
  }

  /**
   * The settings of {@code model} from the scenario's keys (and of its members' model, for a RAID); the other models'
   * are left out (null): a kind that builds a given model need not have the others' keys.
   */
  public static DeviceSettings settings(Params p, String model) {
    String member = model.equals("raid") ? p.getString("raidMemberDevice") : null;
    boolean raid = model.equals("raid");
    return new DeviceSettings(
        uses("simple", model, member) ? new DeviceSettings.Simple(us(p, "simpleLatencyUs"), p.getDouble("simpleMBps"),
            p.getDouble("simpleCapacityGiB")) : null,
        uses("ssd", model, member) ? new DeviceSettings.Ssd(us(p, "ssdReadLatencyUs"), us(p, "ssdWriteLatencyUs"),
            us(p, "ssdFlushPlpUs"), us(p, "ssdFlushNoPlpUs"), p.getBoolean("ssdPowerLossProtection"),
            p.getDouble("ssdMBps"), p.getInt("ssdChannels"), p.getDouble("ssdCapacityGiB")) : null,
        uses("hdd", model, member) ? new DeviceSettings.Hdd(p.getInt("hddRpm"), ms(p, "hddSeekReadMs"),
            ms(p, "hddSeekWriteMs"), ms(p, "hddTrackToTrackMs"), p.getDouble("hddTransferMBps"),
            p.getDouble("hddCapacityGiB"), us(p, "hddCommandOverheadUs"), p.getInt("hddQueueDepth")) : null,
        uses("premium", model, member) ? new DeviceSettings.Premium(p.getString("premiumTier"),
            p.getDouble("premiumFileSizeGiB"), us(p, "premiumLatencyUs"), ms(p, "premiumThrottleBurstMs"),
            p.getBoolean("premiumCreditBursting"), p.getInt("premiumLogRateVCores"), p.getBoolean("premiumFilePacing"))
            : null,
        raid ? new DeviceSettings.Raid(p.getInt("raidLevel"), p.getInt("raidMembers"), member,
            p.getLong("raidStripeBytes"), p.getString("raidWriteCache").equals("write-back"),
            p.getBoolean("raidBatteryOk"), (long) (p.getDouble("raidCacheMiB") * (1 << 20)),
            us(p, "raidCacheLatencyUs"), us(p, "raidControllerUs"), p.getInt("raidDestageDepth")) : null,
        uses("profile", model, member) ? profile(p) : null);
  }

  private static boolean uses(String group, String model, String member) {
    return group.equals(model) || group.equals(member);
  }

  private static DeviceSettings.Profile profile(Params p) {
    long[] bytes = DeviceProfiles.SIZES.stream().mapToLong(Long::longValue).toArray();
    long[] nanos = new long[bytes.length];
    for (int i = 0; i < bytes.length; i++) nanos[i] = us(p, DeviceProfiles.latencyKey(bytes[i]));
    return new DeviceSettings.Profile(bytes, nanos, p.getDouble("profileQd8Speedup"), us(p, "profileFlushUs"),
        p.getDouble("profileCapacityGiB"));
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

  /** The refusal under the scenario's key of the setting (of the model that refused it, else of {@code model}). */
  private static BadInputException badInput(DeviceConfigException e, String model, Params p) {
    if (e.key().equals("filePacing")) { // a check across two keys: the loader names where the refused one was set
      return BadInputException.about("premiumFilePacing", "paces a managed-instance file: needs premiumTier = auto"
          + " (a file's size band), got premiumTier = " + p.getString("premiumTier"));
    }
    String key = key(e.model() != null ? e.model() : model, e.key());
    return new BadInputException(key + ": " + e.detail());
  }

  private static long us(Params p, String key) {
    return Math.round(p.getDouble(key) * VirtualTime.NS_PER_US);
  }

  private static long ms(Params p, String key) {
    return Math.round(p.getDouble(key) * VirtualTime.NS_PER_MS);
  }

}
