package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kernel.Rng;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The latency spread: draws of mean 1 whose percentiles are the lognormal's of the given coefficient of variation
 * (within sampling error), the same from the same generator, bounded below (the device's promise); and a device's
 * latencies under it.
 */
class LatencySpreadTest {
  private static final int N = 400_000;

  private static double[] draws(LatencySpread s, long seed) {
    Rng rng = new Rng(seed);
    double[] d = new double[N];
    for (int i = 0; i < N; i++) d[i] = s.draw(rng);
    return d;
  }

  @Test
  void percentilesMatchTheLognormalOfTheCoefficientOfVariation() {
    for (double cv : new double[] {0.1, 0.5, 1.0}) {
      LatencySpread s = LatencySpread.of("cv", cv);
      double[] d = draws(s, 42);
      double mean = Arrays.stream(d).average().orElseThrow();
      double var = Arrays.stream(d).map(x -> (x - mean) * (x - mean)).sum() / (N - 1);
      Arrays.sort(d);
      // the standard error of the mean is cv / sqrt(N): 0.0016 at cv = 1; the table clips only beyond 3.67 sigma
      assertEquals(1.0, mean, 4 * cv / Math.sqrt(N), "mean at cv " + cv);
      assertEquals(cv, Math.sqrt(var) / mean, cv * 0.03, "coefficient of variation");
      for (double p : new double[] {0.05, 0.5, 0.9, 0.99}) {
        double want = LatencySpread.quantile(cv, p);
        // a sample quantile's standard error: sqrt(p (1 - p) / N) / density; 1.5% covers it up to p99 at cv = 1
        assertEquals(want, d[(int) (p * N)], want * 0.015, "p" + (int) (p * 100) + " at cv " + cv);
      }
      assertTrue(d[0] >= s.minFactor() && d[N - 1] <= s.maxFactor());
      System.out.printf("spread cv %.1f: p50 %.3f p99 %.3f (p99/p50 %.2f), min %.3f max %.3f%n", cv, d[N / 2],
          d[(int) (0.99 * N)], d[(int) (0.99 * N)] / d[N / 2], s.minFactor(), s.maxFactor());
    }
  }

  @Test
  void aMeasuredP99OverP50GivesTheCoefficientOfVariationBack() {
    for (double cv : new double[] {0.05, 0.2, 0.5, 1.0, 2.0}) {
      double ratio = LatencySpread.quantile(cv, 0.99) / LatencySpread.quantile(cv, 0.5);
      assertEquals(cv, LatencySpread.cvOfP99OverP50(ratio), cv * 1e-6, "p99 / p50 = " + ratio);
    }
    assertEquals(0, LatencySpread.cvOfP99OverP50(1.0), "no spread measured");
    assertEquals(LatencySpread.MAX_CV, LatencySpread.cvOfP99OverP50(1e6), "bounded");
  }

  @Test
  void theSameGeneratorGivesTheSameDrawsAndNoSpreadIsNoObject() {
    LatencySpread s = LatencySpread.of("cv", 0.5);
    assertTrue(Arrays.equals(draws(s, 7), draws(s, 7)));
    assertTrue(!Arrays.equals(draws(s, 7), draws(s, 8)));
    assertNull(LatencySpread.of("cv", 0));
    Rng rng = new Rng(1);
    assertEquals(1234, LatencySpread.vary(null, 1234, rng));
    assertEquals(1, rng.state(), "no spread, no draw");
    assertEquals(1234, LatencySpread.least(null, 1234));
    assertEquals((long) Math.floor(1000 * s.minFactor()), s.least(1000));
    DeviceConfigException e = assertThrows(DeviceConfigException.class, () -> LatencySpread.of("ssdLatencyCv", 4));
    assertEquals("ssdLatencyCv", e.key());
  }

  @Test
  void aSimpleDevicesLatenciesFollowTheSpreadAndTheirMeanStays() {
    // one 4 KiB read at a time, each as soon as the previous completes: latency = 1 ms x draw + 20.48 us
    DeviceSetup varied = new DeviceSetup.Simple(1_000_000, 200, 100 * Rigs.GIB, 0.5);
    Rigs.Run r = Rigs.run(varied, Rigs.job("randread", 4096, 1, 1, 10 * Rigs.GIB, 30), 2, 3);
    DeviceStats d = r.device();
    double transferUs = 4096 / 200.0;
    assertTrue(d.reads() > 25_000, "reads: " + d.reads());
    assertEquals(1000 + transferUs, d.meanLatencyUs(), 1000 * 0.5 * 4 / Math.sqrt(d.reads()), "mean latency");
    double p50 = d.latencyPercentileUs(50) - transferUs, p99 = d.latencyPercentileUs(99) - transferUs;
    assertEquals(1000 * LatencySpread.quantile(0.5, 0.5), p50, 1000 * 0.03, "p50, us");
    assertEquals(1000 * LatencySpread.quantile(0.5, 0.99), p99, 1000 * 0.06, "p99, us");
    Rigs.Run fixed = Rigs.run(new DeviceSetup.Simple(1_000_000, 200, 100 * Rigs.GIB),
        Rigs.job("randread", 4096, 1, 1, 10 * Rigs.GIB, 1), 2, 3);
    assertEquals(fixed.device().latencyPercentileUs(50), fixed.device().latencyPercentileUs(99), 1.0, "no spread: one latency");
  }

  @Test
  void everyModelVariesItsLatency() {
    List<DeviceSetup> models = List.of(
        new DeviceSetup.OfSsd(new SsdSpec(80_000, 20_000, 35_000, 2_200_000, true, 2000, 8, 400 * Rigs.GIB, 0.5)),
        new DeviceSetup.OfPremium(Catalogs.named("P30", false, 0).withLatencyCv(0.2)),
        new DeviceSetup.OfProfile(new ProfileSpec(new long[] {512, 65536}, new long[] {100_000, 400_000}, 1,
            50_000, 100 * Rigs.GIB, 0.3)),
        new DeviceSetup.OfHdd(Rigs.hdd15k(146 * Rigs.GIB, 1).with(0, HddSpec.WriteCache.NONE, 0.3)));
    for (DeviceSetup m : models) {
      Rigs.Run r = Rigs.run(m, Rigs.job("randread", 4096, 1, 1, 10 * Rigs.GIB, 3), 2, 5);
      DeviceStats d = r.device();
      assertTrue(d.latencyPercentileUs(99) > d.latencyPercentileUs(50) * 1.1, d.model() + ": p50 " + d.latencyPercentileUs(50) + " p99 " + d.latencyPercentileUs(99));
    }
  }
}
