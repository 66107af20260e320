package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The ziggurat draws follow the exponential distribution (mean, variance, tail, Kolmogorov-Smirnov). */
class ExponentialTest {
  @Test
  void drawsAreExponentialOfMeanOne() {
    int n = 4_000_000;
    long[] state = {Rng.seedFor(7, 1)};
    double[] x = new double[n];
    double sum = 0, sq = 0;
    int beyond8 = 0, beyondTail = 0;
    for (int i = 0; i < n; i++) {
      double d = Exponential.next(state, 0);
      assertTrue(d >= 0 && Double.isFinite(d), "draw " + d);
      x[i] = d;
      sum += d;
      sq += d * d;
      if (d > 8) beyond8++;
      if (d > 7.69711747013104972) beyondTail++;
    }
    double mean = sum / n, var = sq / n - mean * mean;
    assertTrue(Math.abs(mean - 1) < 4 / Math.sqrt(n), "mean " + mean); // 4 standard errors
    assertTrue(Math.abs(var - 1) < 4 * Math.sqrt(8.0 / n), "variance " + var);
    double expected8 = n * Math.exp(-8);
    assertTrue(Math.abs(beyond8 - expected8) < 5 * Math.sqrt(expected8), "beyond 8: " + beyond8 + " vs " + expected8);
    assertTrue(beyondTail > 0, "the tail is drawn");
    Arrays.sort(x);
    double ks = 0;
    for (int i = 0; i < n; i++) {
      double cdf = 1 - Math.exp(-x[i]);
      ks = Math.max(ks, Math.max(Math.abs(cdf - (double) i / n), Math.abs((double) (i + 1) / n - cdf)));
    }
    assertTrue(ks < 1.95 / Math.sqrt(n), "Kolmogorov-Smirnov distance " + ks); // alpha = 0.001
  }
}
