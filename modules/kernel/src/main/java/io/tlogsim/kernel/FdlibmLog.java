package io.tlogsim.kernel;

/**
 * The natural logarithm exactly as {@link StrictMath#log} computes it (fdlibm 5.3's {@code __ieee754_log}), written in
 * Java so the JIT can inline it: StrictMath.log is a native call on Java 17 and costs about a tenth of a GCM-1 commit.
 * Java's floating point is strict (JEP 306), so this gives the same bits on every JVM and machine; a test checks it
 * against StrictMath.log bit for bit.
 */
final class FdlibmLog {
  private static final double LN2_HI = 6.93147180369123816490e-01; // 0x3fe62e42 fee00000
  private static final double LN2_LO = 1.90821492927058770002e-10; // 0x3dea39ef 35793c76
  private static final double TWO54 = 1.80143985094819840000e+16; // 0x43500000 00000000
  private static final double LG1 = 6.666666666666735130e-01;
  private static final double LG2 = 3.999999999940941908e-01;
  private static final double LG3 = 2.857142874366239149e-01;
  private static final double LG4 = 2.222219843214978396e-01;
  private static final double LG5 = 1.818357216161805012e-01;
  private static final double LG6 = 1.531383769920937332e-01;
  private static final double LG7 = 1.479819860511658591e-01;

  private FdlibmLog() {}

  static double log(double x) {
    long bits = Double.doubleToRawLongBits(x);
    int hx = (int) (bits >> 32);
    int lx = (int) bits;
    int k = 0;
    if (hx < 0x00100000) { // x < 2^-1022
      if (((hx & 0x7fffffff) | lx) == 0) return Double.NEGATIVE_INFINITY;
      if (hx < 0) return Double.NaN;
      k -= 54;
      x *= TWO54; // subnormal: scale up
      bits = Double.doubleToRawLongBits(x);
      hx = (int) (bits >> 32);
    }
    if (hx >= 0x7ff00000) return x + x;
    k += (hx >> 20) - 1023;
    hx &= 0x000fffff;
    int i = (hx + 0x95f64) & 0x100000;
    x = Double.longBitsToDouble(((long) (hx | (i ^ 0x3ff00000)) << 32) | (bits & 0xffffffffL)); // x or x/2 in [sqrt2/2, sqrt2)
    k += i >> 20;
    double f = x - 1.0;
    if ((0x000fffff & (2 + hx)) < 3) { // |f| < 2^-20
      if (f == 0.0) {
        if (k == 0) return 0.0;
        double dk = k;
        return dk * LN2_HI + dk * LN2_LO;
      }
      double r = f * f * (0.5 - 0.33333333333333333 * f);
      if (k == 0) return f - r;
      double dk = k;
      return dk * LN2_HI - ((r - dk * LN2_LO) - f);
    }
    double s = f / (2.0 + f);
    double dk = k;
    double z = s * s;
    i = hx - 0x6147a;
    double w = z * z;
    int j = 0x6b851 - hx;
    double t1 = w * (LG2 + w * (LG4 + w * LG6));
    double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    i |= j;
    double r = t2 + t1;
    if (i > 0) {
      double hfsq = 0.5 * f * f;
      if (k == 0) return f - (hfsq - s * (hfsq + r));
      return dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f);
    }
    if (k == 0) return f - s * (f - r);
    return dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f);
  }
}
