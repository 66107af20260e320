package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every device setting the models refuse names its key and what is allowed. */
class BadSettingsTest {
  private static void refused(String key, String message, Executable build) {
    DeviceConfigException e = assertThrows(DeviceConfigException.class, build);
    assertEquals(key, e.key());
    assertEquals(key + ": " + message, e.getMessage());
  }

  @Test
  void negativeOrZeroLatencies() {
    refused("readLatencyUs", "must be from 0.001 to 10000000 us, got -5",
        () -> new SsdSpec(-5_000, 20_000, 35_000, 2_200_000, true, 2000, 8, Rigs.GIB));
    refused("latency", "must be > 0 ns, got 0", () -> new SimpleDevice("d", 0, 200));
    refused("latencyUs", "must be from 0.001 to 10000000 us, got -1",
        () -> PremiumSpec.named(Catalogs.azure(), "P10", -1_000, 50_000_000, false, 0));
    refused("seekReadMs", "must be from 0.001 to 100 ms, got -3.3",
        () -> new HddSpec(15_000, -3_300_000, 3_800_000, 200_000, 75, Rigs.GIB, 50_000, 1));
    refused("cacheLatencyUs", "must be from 0.001 to 10000000 us, got -50",
        () -> new RaidSpec(10, 4, 65536, Rigs.GIB, true, true, 1 << 20, -50_000, 20_000, 4));
  }

  @Test
  void unknownTier() {
    refused("tier", "must be one of P10, P15, P20, P30, P40, P50, P60, P70, P80, got 'P25'",
        () -> PremiumSpec.named(Catalogs.azure(), "P25", 5_000_000, 50_000_000, false, 0));
    refused("fileSizeGiB", "must be at most 8192 GiB (the managed-instance per-file table ends there), got 10000.0",
        () -> PremiumSpec.forFile(Catalogs.azure(), 10_000, 5_000_000, 50_000_000, false, 0));
  }

  @Test
  void raidFiveWithTwoMembersAndOtherMemberCounts() {
    refused("members", "RAID 5 needs 3 to 64 members, got 2",
        () -> new RaidSpec(5, 2, 65536, Rigs.GIB, false, true, 0, 50_000, 20_000, 4));
    refused("members", "RAID 6 needs 4 to 64 members, got 3",
        () -> new RaidSpec(6, 3, 65536, Rigs.GIB, false, true, 0, 50_000, 20_000, 4));
    refused("members", "RAID 10 needs an even number of 4 to 64 members, got 5",
        () -> new RaidSpec(10, 5, 65536, Rigs.GIB, false, true, 0, 50_000, 20_000, 4));
    refused("level", "must be one of 0, 1, 5, 6, 10, got 4",
        () -> new RaidSpec(4, 4, 65536, Rigs.GIB, false, true, 0, 50_000, 20_000, 4));
  }

  @Test
  void stripeNotAPowerOfTwo() {
    refused("stripeBytes", "must be a power of two from 512 to 67108864, got 3000",
        () -> new RaidSpec(0, 4, 3000, Rigs.GIB, false, true, 0, 50_000, 20_000, 4));
  }

  @Test
  void otherRanges() {
    refused("channels", "must be from 1 to 1024, got 0",
        () -> new SsdSpec(80_000, 20_000, 35_000, 2_200_000, true, 2000, 0, Rigs.GIB));
    refused("rpm", "must be from 1000 to 30000 rpm, got 0",
        () -> new HddSpec(0, 3_300_000, 3_800_000, 200_000, 75, Rigs.GIB, 50_000, 1));
    refused("trackToTrackMs", "must be at most the average seeks (3.3 and 3.8 ms), got 5.0",
        () -> new HddSpec(15_000, 3_300_000, 3_800_000, 5_000_000, 75, Rigs.GIB, 50_000, 1));
    refused("logRateVCores", "must be from 0 to 1024 vCores (0: no log-rate cap), got -1",
        () -> PremiumSpec.named(Catalogs.azure(), "P30", 5_000_000, 50_000_000, false, -1));
  }
}
