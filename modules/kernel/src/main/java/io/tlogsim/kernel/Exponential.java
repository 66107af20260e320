package io.tlogsim.kernel;

/**
 * Exponential draws by Marsaglia and Tsang's ziggurat ("The Ziggurat Method for Generating Random Variables", 2000;
 * 256 layers), taking 64-bit draws: the low 8 bits choose a layer, the high 53 a point in it. About 99% of draws cost
 * one multiplication and one comparison (no logarithm). It is exact (a rejection method): the rare slow path
 * (the layers' edges, the tail) uses StrictMath, and the tables are computed with StrictMath, so draws are the same on
 * every JVM and machine.
 */
final class Exponential {
  private static final int LAYERS = 256;
  private static final double R = 7.69711747013104972; // where the tail begins
  private static final double V = 3.949659822581572e-3; // each layer's area
  private static final double SCALE = 0x1.0p53; // the high 53 bits of a draw, as an integer below 2^53

  private static final long[] K = new long[LAYERS]; // a point below K[i] lies inside layer i's rectangle
  private static final double[] W = new double[LAYERS]; // layer i's width / 2^53
  private static final double[] F = new double[LAYERS]; // exp(-x) at layer i's right edge

  static {
    double de = R, te = R;
    double q = V / StrictMath.exp(-de);
    K[0] = (long) ((de / q) * SCALE);
    K[1] = 0;
    W[0] = q / SCALE;
    W[LAYERS - 1] = de / SCALE;
    F[0] = 1.0;
    F[LAYERS - 1] = StrictMath.exp(-de);
    for (int i = LAYERS - 2; i >= 1; i--) {
      de = -StrictMath.log(V / de + StrictMath.exp(-de));
      K[i + 1] = (long) ((de / te) * SCALE);
      te = de;
      F[i] = StrictMath.exp(-de);
      W[i] = de / SCALE;
    }
  }

  private Exponential() {}

  /** A draw of mean 1 from the generator whose state is {@code states[i]}. */
  static double next(long[] states, int i) {
    long r = Rng.nextLong(states, i);
    int layer = (int) r & (LAYERS - 1);
    long u = r >>> 11;
    if (u < K[layer]) return u * W[layer];
    return edge(states, i, layer, u);
  }

  /** The slow path: the tail beyond R, or a point near a layer's curved edge. */
  private static double edge(long[] states, int i, int layer, long u) {
    while (true) {
      if (layer == 0) return R - StrictMath.log(1 - Rng.nextDouble(states, i)); // memoryless tail
      double x = u * W[layer];
      if (F[layer] + Rng.nextDouble(states, i) * (F[layer - 1] - F[layer]) < StrictMath.exp(-x)) return x;
      long r = Rng.nextLong(states, i);
      layer = (int) r & (LAYERS - 1);
      u = r >>> 11;
      if (u < K[layer]) return u * W[layer];
    }
  }
}
