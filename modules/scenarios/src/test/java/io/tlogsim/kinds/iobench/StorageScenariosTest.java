package io.tlogsim.kinds.iobench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The built-in storage scenarios against REFERENCE.md section 4 (shortened runs: the figures are saturated rates, so
 * a shorter run gives the same rate): the RAID examples within 15%, the managed-instance bands within 3% of their caps
 * with no whole second above, the P20 burst and its end at 30 minutes.
 */
class StorageScenariosTest {

  @Test
  void theRaidExamplesComeWithinFifteenPercentOfThePublishedFigures() {
    Scenario s = StorageRuns.load("storage-raid-examples", "runtime", "20");
    ScenarioResult r = StorageRuns.run(s, 2);
    Map<String, Object> sum = r.summary();
    // REFERENCE.md 4, lines 78-79
    double[][] published = {{185, 11.5}, {345, 22}, {1609, 101}};
    String[] names = {"raid1-2x600g", "raid5-5x146g", "raid10-14x73g"};
    for (int i = 0; i < names.length; i++) {
      double iops = StorageRuns.num(sum, "devices." + names[i] + ".iops");
      double mib = StorageRuns.num(sum, "devices." + names[i] + ".mibPerSec");
      System.out.printf("%s: %.1f IOPS (published %.0f), %.2f MiB/s (published %.1f)%n", names[i], iops,
          published[i][0], mib, published[i][1]);
      assertEquals(published[i][0], iops, published[i][0] * 0.15, names[i] + " IOPS");
      assertEquals(published[i][1], mib, published[i][1] * 0.15, names[i] + " MiB/s");
    }
    assertTrue(String.join("\n", r.humanLines()).contains("raid10-14x73g"));
  }

  @Test
  void theBandsHoldTheirCapsAndTheP20BurstsForThirtyMinutes() {
    Scenario s = StorageRuns.load("storage-premium-tiers", "bandRuntime", "20");
    Map<String, Object> sum = StorageRuns.run(s, 2).summary();
    // REFERENCE.md 4, lines 93-95
    String[] bands = {"mi-0-128gib", "mi-128-256gib", "mi-256-512gib", "mi-512gib-1tib", "mi-1-2tib", "mi-2-4tib",
        "mi-4-8tib"};
    long[] caps = {500, 1100, 2300, 5000, 7500, 7500, 12500};
    for (int i = 0; i < bands.length; i++) {
      double iops = StorageRuns.num(sum, "devices." + bands[i] + ".iops");
      assertEquals(caps[i], iops, caps[i] * 0.03, bands[i]);
      assertTrue(StorageRuns.num(sum, "devices." + bands[i] + ".peakIops1s") <= caps[i], bands[i]
          + ": no whole second after the first above the cap");
      assertEquals(caps[i], StorageRuns.num(sum, "devices." + bands[i] + ".capIops"));
    }
    // REFERENCE.md 4, lines 87-88
    assertEquals(3500, StorageRuns.num(sum, "devices.p20-burst.burstIops"), 3500 * 0.01);
    assertEquals(30, StorageRuns.num(sum, "devices.p20-burst.burstMinutes"), 0.05);
    assertEquals(2300, StorageRuns.num(sum, "devices.p20-burst.afterBurstIops"), 2300 * 0.01);
    assertTrue(StorageRuns.num(sum, "devices.p20-burst.peakIops1sAfterBurst") <= 2300);
    double spent = StorageRuns.num(sum, "devices.p20-burst.counters.burstCreditsSpentAtNanos") / 1e9;
    assertEquals(1800, spent, 1, "(3,500 - 2,300) x 1,800 credits at 1,200 a second: 30 minutes");
  }
}
