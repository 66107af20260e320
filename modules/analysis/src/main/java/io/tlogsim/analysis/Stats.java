package io.tlogsim.analysis;

/**
 * Mean, standard deviation and a 95% confidence interval of the mean (Student's t, so that a handful of replications
 * gets an honest, wide interval).
 */
public record Stats(int n, double mean, double stddev, double ci95Low, double ci95High) {

  /** t(0.975, df) for df = 1..30 (standard tables). */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
      2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
      2.048, 2.045, 2.042};

  public static Stats of(double[] values) {
    int n = values.length;
    if (n == 0) return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    double sum = 0;
    for (double v : values) sum += v;
    double mean = sum / n;
    if (n == 1) return new Stats(1, mean, Double.NaN, Double.NaN, Double.NaN);
    double sq = 0;
    for (double v : values) sq += (v - mean) * (v - mean);
    double sd = Math.sqrt(sq / (n - 1));
    double half = t975(n - 1) * sd / Math.sqrt(n);
    return new Stats(n, mean, sd, mean - half, mean + half);
  }

  /** The 97.5% quantile of Student's t with {@code df} degrees of freedom (table to 30, then 40, 60, 120, infinity). */
  public static double t975(int df) {
    if (df < 1) throw new IllegalArgumentException("df must be >= 1");
    if (df <= 30) return T975[df - 1];
    // between the table's points, linear in 1/df
    double[][] more = {{30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {Double.POSITIVE_INFINITY, 1.960}};
    for (int i = 1; i < more.length; i++) {
      if (df <= more[i][0]) {
        double a = 1 / more[i - 1][0], b = more[i][0] == Double.POSITIVE_INFINITY ? 0 : 1 / more[i][0];
        double f = (1.0 / df - a) / (b - a);
        return more[i - 1][1] + f * (more[i][1] - more[i - 1][1]);
      }
    }
    return 1.960;
  }

  /** Half the interval's width relative to the mean: how precise the mean is. */
  public double relativeHalfWidth() {
    return (ci95High - ci95Low) / 2 / Math.abs(mean);
  }
}
