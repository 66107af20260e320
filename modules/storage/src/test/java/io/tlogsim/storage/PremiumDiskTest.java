package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kernel.VirtualTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cloud premium disk: caps held by throttling, credit bursting, I/O size counting, file limits, log rate. */
class PremiumDiskTest {

  @Test
  void anIoOfUpTo256KiBCountsOnceALargerOneAsSeveral() {
    long unit = 256 << 10;
    assertEquals(1, PremiumDisk.diskOperations(0, unit), "a flush counts as one");
    assertEquals(1, PremiumDisk.diskOperations(4096, unit));
    assertEquals(1, PremiumDisk.diskOperations(unit, unit));
    assertEquals(2, PremiumDisk.diskOperations(unit + 1, unit));
    assertEquals(4, PremiumDisk.diskOperations(1 << 20, unit));
  }

  @Test
  void aBucketLetsItsDepthThroughThenHoldsTheRateAndRefillsWhileIdle() {
    TokenBucket b = new TokenBucket(1000, 10); // 1,000 per second, 10 at once
    long t = 0;
    for (int i = 0; i < 10; i++) {
      assertEquals(0, b.readyAt(0, 1), "the burst passes at once");
      b.take(0, 1);
    }
    assertEquals(1_000_000, b.readyAt(0, 1), "then one per ms");
    b.take(1_000_000, 1);
    assertEquals(2_000_000, b.readyAt(1_000_000, 1));
    assertEquals(10, b.tokensAt(VirtualTime.seconds(1)), 1e-9, "idle for a second: full again, not above");
    TokenBucket small = new TokenBucket(1000, 2);
    assertEquals(0, small.readyAt(0, 7), "larger than the bucket: passes on a full one");
    small.take(0, 7);
    assertEquals(6_000_000, small.readyAt(0, 1), "and leaves a debt of 5 that the next one waits out");
  }

  private static Rigs.Run saturate(PremiumSpec spec, long bs, double seconds) {
    return Rigs.run(new DeviceSetup.OfPremium(spec), Rigs.job("randwrite", bs, 256, 1, 64 * Rigs.GIB, seconds), 2, 1);
  }

  @Test
  void aSaturatingLoadIsHeldAtTheCapAndNoSecondExceedsItAfterTheBurst() {
    Rigs.Run r = saturate(Catalogs.named("P30", false, 0), 8192, 10);
    DeviceSeries s = r.device().series();
    assertEquals(5000, Rigs.iops(r), 5000 * 0.01, "P30: 5,000 IOPS");
    for (int i = 1; i < s.seconds(); i++) assertTrue(s.ios(i) <= 5000, "second " + i + ": " + s.ios(i));
    assertTrue(s.ios(0) > 5000 - 5000 * 0.005 && s.ios(0) <= 5000 + 250, "the first second holds the short burst");
    assertTrue(r.device().throttledNanos() > 0);
    assertTrue(r.device().meanLatencyUs() > 5000 * 10, "256 in flight at 5,000 IOPS wait some 51 ms each");
  }

  @Test
  void anIdleDiskAnswersAtItsLatency() {
    long[] t = Script.run(new DeviceSetup.OfPremium(Catalogs.named("P30", false, 0)),
        List.of(new Script.Req(1_000, DeviceProtocol.WRITE, 8192, 0)), 50_000_000);
    assertEquals(1_000 + 5_000_000, t[0]);
  }

  @Test
  void aPacedFileHoldsEachIoForOneSlotOfItsBandEvenAtQueueDepthOne() {
    // 1 GiB file: band 0-128 GiB, 500 IOPS, so a 2 ms slot before the 5 ms latency
    PremiumSpec paced = PremiumSpec.forFile(Catalogs.azure(), 1, 5_000_000, 50_000_000, true, 0).withFilePacing(true);
    assertEquals(2_000_000, paced.fileSlotNanos());
    long[] t = Script.run(new DeviceSetup.OfPremium(paced),
        List.of(new Script.Req(1_000, DeviceProtocol.WRITE, 4096, 0),
            new Script.Req(1_000 + 100_000, DeviceProtocol.WRITE, 4096, 0)), 50_000_000);
    assertEquals(1_000 + 2_000_000 + 5_000_000, t[0], "an idle file: its slot, then the latency");
    assertEquals(1_000 + 4_000_000 + 5_000_000, t[1], "the next I/O waits for the file's next slot");
    Rigs.Run r = saturate(paced, 8192, 5);
    assertEquals(500, Rigs.iops(r), 500 * 0.01, "saturated, the file still runs at its band's IOPS");
    PremiumSpec unpaced = PremiumSpec.forFile(Catalogs.azure(), 1, 5_000_000, 50_000_000, true, 0);
    assertEquals(0, unpaced.fileSlotNanos());
    assertEquals(0, Catalogs.named("P30", false, 0).withFilePacing(true).fileSlotNanos(), "a bare disk has no file");
  }

  @Test
  void theThroughputCapHoldsLargeIos() {
    Rigs.Run r = saturate(Catalogs.named("P30", false, 0), 1 << 20, 5);
    assertEquals(200, r.device().bytesWritten() / 5.0 / (1 << 20), 200 * 0.01, "P30: 200 MiB/s");
  }

  @Test
  void aP20BurstsAtThirtyFiveHundredUntilItsCreditsAreSpentThenFallsToItsCap() {
    // a bucket that lasts 60 s instead of Azure's 30 minutes: (3,500 - 2,300) x 60 credits, spent at 1,200 per second
    PremiumSpec spec = PremiumSpec.named(Catalogs.azure(60), "P20", 5_000_000, 50_000_000, true, 0);
    Rigs.Run r = saturate(spec, 8192, 90);
    DeviceSeries s = r.device().series();
    for (int i = 1; i < 59; i++) assertEquals(3500, s.ios(i), 3500 * 0.005, "second " + i);
    for (int i = 61; i < 90; i++) assertTrue(s.ios(i) <= 2300 && s.ios(i) >= 2290, "second " + i + ": " + s.ios(i));
    long spent = r.device().counter("burstCreditsSpentAtNanos");
    assertEquals(60, spent / 1e9, 0.5, "credits run out after 60 s");
  }

  @Test
  void burstCreditsComeBackWhileTheLoadIsBelowTheBase() {
    // 5 in flight at 5 ms: 1,000 IOPS, below P20's 2,300: the bucket stays full; no throttling at all
    PremiumSpec spec = PremiumSpec.named(Catalogs.azure(60), "P20", 5_000_000, 50_000_000, true, 0);
    Rigs.Run r = Rigs.run(new DeviceSetup.OfPremium(spec), Rigs.job("randwrite", 8192, 5, 1, Rigs.GIB, 100), 2, 1);
    assertEquals(1000, Rigs.iops(r), 1);
    assertEquals(-1, r.device().counter("burstCreditsSpentAtNanos"));
    assertEquals(0, r.device().throttledNanos());
    TokenBucket credits = new TokenBucket(2300, 1200 * 60.0);
    credits.take(0, 1200 * 60.0); // spent
    assertEquals(2300 * 10.0, credits.tokensAt(VirtualTime.seconds(10)), 1e-6, "refilled at the base rate");
  }

  @Test
  void aDiskAboveP20DoesNotBurst() {
    PremiumSpec p30 = Catalogs.named("P30", true, 0);
    assertTrue(!p30.creditBursting());
    DeviceConfigException e = assertThrows(DeviceConfigException.class, () -> new PremiumSpec(p30.disk(), null,
        5_000_000, 50_000_000, true, 3500, 170, 1800, 256 << 10, 0, false));
    assertEquals("creditBursting", e.key());
  }

  @Test
  void aManagedInstanceFileCountsEveryIoOnceTheDiskPer256KiB() {
    // a disk and a file band with room in MiB/s, so that only the IOPS counting shows
    PremiumTier roomy = new PremiumTier("T", 1024, 1000, 100_000, false);
    PremiumSpec bare = new PremiumSpec(roomy, null, 1_000_000, 50_000_000, false, 0, 0, 0, 256 << 10, 0, false);
    Rigs.Run disk = saturate(bare, 1 << 20, 5);
    assertEquals(250, Rigs.iops(disk), 250 * 0.02, "1 MiB counts as four of 256 KiB: 1,000 / 4");
    PremiumSpec file = new PremiumSpec(new PremiumTier("T", 1024, 100_000, 100_000, false),
        new ManagedInstanceBand("B", 1024, 1000, 100_000), 1_000_000, 50_000_000, false, 0, 0, 0, 256 << 10, 0, false);
    Rigs.Run mi = saturate(file, 1 << 20, 5);
    assertEquals(1000, Rigs.iops(mi), 1000 * 0.02, "the instance counts each I/O once");
  }

  @Test
  void aFileSizePicksItsBandAndTheSmallestDiskThatHoldsIt() {
    PremiumCatalog c = Catalogs.azure();
    PremiumSpec f = PremiumSpec.forFile(c, 128, 5_000_000, 50_000_000, true, 0);
    assertEquals("P10", f.disk().name());
    assertEquals(500, f.iopsCap());
    PremiumSpec big = PremiumSpec.forFile(c, 6000, 5_000_000, 50_000_000, true, 0);
    assertEquals("P60", big.disk().name());
    assertEquals(12500, big.iopsCap(), "the band's 12,500 under P60's 16,000");
    assertEquals(480, big.mibPerSecCap());
    DeviceConfigException e = assertThrows(DeviceConfigException.class,
        () -> PremiumSpec.forFile(c, 9000, 5_000_000, 50_000_000, true, 0));
    assertEquals("fileSizeGiB", e.key());
    assertThrows(DeviceConfigException.class, () -> c.tier("tier", "P25"));
  }

  @Test
  void aSmallFileOnABurstingDiskStaysAtItsBand() {
    PremiumSpec f = PremiumSpec.forFile(Catalogs.azure(), 100, 5_000_000, 50_000_000, true, 0);
    assertTrue(f.creditBursting(), "its P10 disk may burst");
    Rigs.Run r = saturate(f, 8192, 10);
    assertEquals(500, Rigs.iops(r), 500 * 0.01, "but the instance holds the file at 500");
  }

  @Test
  void theLogRateCapIsASeparateLimiterOnWrites() {
    PremiumSpec capped = Catalogs.named("P30", false, 2); // 2 vCores x 3 MiB/s
    Rigs.Run w = saturate(capped, 64 << 10, 5);
    double mib = w.device().bytesWritten() / 5.0 / (1 << 20);
    assertEquals(6, mib, 6 * 0.02, "3 MiB/s per vCore");
    assertTrue(w.device().counter("logRateThrottledNanos") > 0);
    Rigs.Run r = Rigs.run(new DeviceSetup.OfPremium(capped), Rigs.job("randread", 64 << 10, 256, 1, Rigs.GIB, 5), 2,
        1);
    assertEquals(200, r.device().bytesRead() / 5.0 / (1 << 20), 2, "reads are held only by the disk's 200 MiB/s");
    assertEquals(22, Catalogs.azure().logRateMiBPerSec(16), 1e-9, "at most 22 MiB/s");
  }
}
