package io.tlogsim.storage;

import java.util.List;

/**
 * A RAID controller: level, members, stripe size, member capacity, and its write cache.
 *
 * @param stripeBytes bytes of one strip (the contiguous run on one member), a power of two
 * @param writeBack the cache is in write-back mode; it takes effect only while {@code batteryOk}: a controller whose
 *     battery has failed turns write-back off (write-through), as REFERENCE.md section 4 describes
 * @param cacheBytes the write cache: the most written bytes not yet on the members
 * @param cacheLatencyNanos what a write costs when the cache takes it
 * @param controllerNanos the controller's own time, each way (host to members, members to host)
 * @param destageDepth cached writes the controller destages at once, per member (the rest wait in the cache, so that
 *     reads are not queued behind the whole cache)
 */
public record RaidSpec(int level, int members, long stripeBytes, long memberCapacityBytes, boolean writeBack,
    boolean batteryOk, long cacheBytes, long cacheLatencyNanos, long controllerNanos, int destageDepth) {

  public static final List<Integer> LEVELS = List.of(0, 1, 5, 6, 10);
  public static final int MAX_MEMBERS = 64;

  public RaidSpec {
    if (!LEVELS.contains(level)) {
      throw new DeviceConfigException("level", "must be one of 0, 1, 5, 6, 10, got " + level);
    }
    int min = minMembers(level);
    boolean even = level == 10;
    if (members < min || members > MAX_MEMBERS || (even && members % 2 != 0)) {
      throw new DeviceConfigException("members", "RAID " + level + " needs " + (even ? "an even number of " : "")
          + min + " to " + MAX_MEMBERS + " members, got " + members);
    }
    if (stripeBytes < 512 || stripeBytes > (64L << 20) || Long.bitCount(stripeBytes) != 1) {
      throw new DeviceConfigException("stripeBytes", "must be a power of two from 512 to 67108864, got "
          + stripeBytes);
    }
    if (memberCapacityBytes < stripeBytes) {
      throw new DeviceConfigException("members", "each member must hold at least one stripe (" + stripeBytes
          + " bytes), holds " + memberCapacityBytes);
    }
    DeviceConfigException.range("cacheBytes", cacheBytes, 0, 1L << 40, " bytes");
    DeviceConfigException.range("cacheLatencyUs", cacheLatencyNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("controllerUs", controllerNanos / 1e3, 0.001, 1e7, " us");
    DeviceConfigException.range("destageDepth", destageDepth, 1, 1024, " writes per member");
  }

  /** Fewest members of a level: 2 for striping and mirroring, 3 for single parity, 4 for double parity and 1+0. */
  public static int minMembers(int level) {
    return switch (level) {
      case 5 -> 3;
      case 6, 10 -> 4;
      default -> 2;
    };
  }

  /** Write-back in force: the cache is on and its battery is good. */
  public boolean cachedWrites() {
    return writeBack && batteryOk && cacheBytes > 0;
  }

  /** Back-end I/Os of one small random write (REFERENCE.md section 4, "RAID write penalty"). */
  public int writePenalty() {
    return switch (level) {
      case 0 -> 1;
      case 1 -> members; // every mirror (2 for the usual pair)
      case 10 -> 2;
      case 5 -> 4;
      default -> 6;
    };
  }

  /** Members that hold data, stripe by stripe (the rest hold copies or parity). */
  public int dataMembers() {
    return switch (level) {
      case 0 -> members;
      case 1 -> 1;
      case 10 -> members / 2;
      case 5 -> members - 1;
      default -> members - 2;
    };
  }

  /** Usable bytes: the data members' whole stripes. */
  public long capacityBytes() {
    return memberCapacityBytes / stripeBytes * stripeBytes * dataMembers();
  }
}
