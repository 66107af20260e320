package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FdlibmLogTest {
  private static void same(double x) {
    if (Double.isNaN(StrictMath.log(x)) && Double.isNaN(FdlibmLog.log(x))) return; // NaN bit patterns may differ
    assertEquals(Double.doubleToRawLongBits(StrictMath.log(x)), Double.doubleToRawLongBits(FdlibmLog.log(x)),
        "log(" + x + ") = " + StrictMath.log(x) + ", got " + FdlibmLog.log(x));
  }

  @Test
  void isStrictMathLogBitForBit() {
    for (double x : new double[] {0.0, -0.0, 1.0, -1.0, 2.0, 0.5, Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE,
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1 - 0x1.0p-53, 1 + 0x1.0p-52, Math.E}) {
      same(x);
    }
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 2_000_000; i++) {
      same(1 - r.nextDouble()); // what the exponential draws take: (0, 1]
      same(Double.longBitsToDouble(r.nextLong() & 0x7fffffffffffffffL)); // any positive double
      same(1 + (r.nextDouble() - 0.5) * 0x1.0p-18); // near 1, where the short path is taken
    }
  }
}
