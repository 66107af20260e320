package io.tlogsim.storage;

import io.tlogsim.kernel.Rng;

/**
 * How much a device's latency varies from one request to the next: a lognormal multiplier of mean 1 and a given
 * coefficient of variation (standard deviation / mean), applied to a model's nominal latency. Storage latencies are
 * skewed to the right (most requests near the median, a tail of slow ones), which a lognormal shows with one
 * parameter; the nominal latency stays the mean, so a spread changes percentiles and queueing, not the average cost.
 *
 * <p>A draw is cheap and the same on every JVM: the quantile function is tabulated once ({@link #KNOTS} + 1 knots
 * between the 0.012% and 99.988% quantiles, computed with StrictMath), and a draw is one 64-bit number from the
 * component's {@link Rng}, a table index and a linear interpolation (no logarithm, no exponential). The table is
 * normalized so that the mean of the draws is exactly 1. Its ends bound every draw: {@link #minFactor()} is what a
 * device promises as its least latency, so the lookahead stays above zero.
 *
 * <p>A device with no spread holds no {@code LatencySpread} at all ({@link #of} returns null for 0), so a constant
 * latency costs nothing per request (GCM-1's device).
 */
public final class LatencySpread {
  /** Intervals of the quantile table. */
  static final int KNOTS = 4096;
  private static final double UNIT = 0x1.0p-53;
  /** The largest coefficient of variation accepted (a p99 of about 7 x the median). */
  public static final double MAX_CV = 3;

  private final double cv;
  private final double[] knots = new double[KNOTS + 1];

  private LatencySpread(double cv) {
    this.cv = cv;
    double sigma = sigma(cv);
    double sum = 0;
    for (int j = 0; j <= KNOTS; j++) {
      double z = normalQuantile((j + 0.5) / (KNOTS + 1));
      knots[j] = StrictMath.exp(sigma * z - sigma * sigma / 2);
    }
    for (int j = 0; j < KNOTS; j++) sum += (knots[j] + knots[j + 1]) / 2;
    double mean = sum / KNOTS;
    for (int j = 0; j <= KNOTS; j++) knots[j] /= mean;
  }

  /**
   * The spread of coefficient of variation {@code cv} (0 to {@link #MAX_CV}); null for 0 (a constant latency).
   *
   * @param key the setting's name, for the error
   */
  public static LatencySpread of(String key, double cv) {
    DeviceConfigException.range(key, cv, 0, MAX_CV, " (coefficient of variation: standard deviation / mean)");
    return cv == 0 ? null : new LatencySpread(cv);
  }

  /** The lognormal's sigma for a coefficient of variation: sqrt(ln(1 + cv^2)). */
  public static double sigma(double cv) {
    return StrictMath.sqrt(StrictMath.log1p(cv * cv));
  }

  public double cv() {
    return cv;
  }

  /** The least multiplier a draw can give (the table's first knot). */
  public double minFactor() {
    return knots[0];
  }

  /** The greatest multiplier a draw can give. */
  public double maxFactor() {
    return knots[KNOTS];
  }

  /** A multiplier of mean 1, from {@code rng}. */
  public double draw(Rng rng) {
    double u = (rng.nextLong() >>> 11) * UNIT * KNOTS;
    int i = (int) u;
    double f = u - i;
    return knots[i] + f * (knots[i + 1] - knots[i]);
  }

  /** {@code nanos} varied by a draw, at least 1 ns. */
  public long vary(long nanos, Rng rng) {
    return Math.max(1, Math.round(nanos * draw(rng)));
  }

  /** The least latency a nominal {@code nanos} can become (what the device promises), at least 1 ns. */
  public long least(long nanos) {
    return Math.max(1, (long) Math.floor(nanos * knots[0]));
  }

  /** The nominal latency varied by {@code spread}, or unchanged when there is none (no draw at all). */
  public static long vary(LatencySpread spread, long nanos, Rng rng) {
    return spread == null ? nanos : spread.vary(nanos, rng);
  }

  /** The least latency of a nominal {@code nanos} under {@code spread} (itself when there is none). */
  public static long least(LatencySpread spread, long nanos) {
    return spread == null ? nanos : spread.least(nanos);
  }

  /**
   * The coefficient of variation of the lognormal whose 99th percentile is {@code p99OverP50} times its median
   * (what a measurement's percentiles give: sigma = ln(p99 / p50) / z(0.99)); 0 for a ratio of 1 or less, at most
   * {@link #MAX_CV}.
   */
  public static double cvOfP99OverP50(double p99OverP50) {
    if (!(p99OverP50 > 1)) return 0;
    double sigma = StrictMath.log(p99OverP50) / normalQuantile(0.99);
    return Math.min(MAX_CV, StrictMath.sqrt(StrictMath.expm1(sigma * sigma)));
  }

  /** The multiplier at quantile {@code p} of the lognormal itself (for tests and documentation). */
  public static double quantile(double cv, double p) {
    double sigma = sigma(cv);
    return StrictMath.exp(sigma * normalQuantile(p) - sigma * sigma / 2);
  }

  /**
   * The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9), with StrictMath so
   * that it is the same everywhere.
   */
  static double normalQuantile(double p) {
    if (!(p > 0 && p < 1)) throw new IllegalArgumentException("p must be in (0, 1): " + p);
    final double[] a = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
        1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    final double[] b = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
        6.680131188771972e+01, -1.328068155288572e+01};
    final double[] c = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
        -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    final double[] d = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
        3.754408661907416e+00};
    double x;
    if (p < 0.02425) {
      double q = StrictMath.sqrt(-2 * StrictMath.log(p));
      x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - 0.02425) {
      double q = p - 0.5, r = q * q;
      x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
          / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
      double q = StrictMath.sqrt(-2 * StrictMath.log(1 - p));
      x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    return x;
  }
}
