package io.tlogsim.database.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CommitStatsTest {

  /** Records the values as a pool would and returns its stats. */
  private static CommitStats stats(long... latencies) {
    Histogram h = CommitStats.newHistogram();
    long sum = 0, max = 0;
    for (long v : latencies) {
      h.recordValue(v);
      sum += v;
      max = Math.max(max, v);
    }
    return new CommitStats(latencies.length, sum, max, CommitStats.encode(h));
  }

  @Test
  void minMeanAndStddevAreExact() {
    CommitStats s = stats(2_000, 4_000, 4_000, 4_000, 5_000, 5_000, 7_000, 9_000); // the textbook set: stddev 2
    assertEquals(2.0, s.minLatencyUs());
    assertEquals(5.0, s.meanLatencyUs());
    assertEquals(2.0, s.stddevLatencyUs());
    assertEquals(0.0, stats(7_777).stddevLatencyUs());
    assertEquals(0.0, stats().stddevLatencyUs());
  }

  @Test
  void sumOfSquaresDoesNotOverflowForLongLatencies() {
    // 10 s in ns squared is 1e20, past a long: the sum must carry into its high half.
    long[] v = new long[1000];
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < v.length; i++) v[i] = 5_000_000_000L + r.nextLong(10_000_000_000L);
    CommitStats s = stats(v);
    BigInteger sum = BigInteger.ZERO, squares = BigInteger.ZERO;
    for (long x : v) {
      sum = sum.add(BigInteger.valueOf(x));
      squares = squares.add(BigInteger.valueOf(x).pow(2));
    }
    assertEquals(squares, s.latencies().sumOfSquares());
    BigInteger n = BigInteger.valueOf(v.length);
    double expected = new BigDecimal(n.multiply(squares).subtract(sum.pow(2)))
        .divide(new BigDecimal(n.pow(2)), MathContext.DECIMAL128).sqrt(MathContext.DECIMAL64).doubleValue() / 1e3;
    assertEquals(expected, s.stddevLatencyUs());
    // HdrHistogram's own estimate (from bucket midpoints) agrees to its precision.
    assertEquals(s.latencies().getStdDeviation() / 1e3, s.stddevLatencyUs(), s.stddevLatencyUs() * 1e-3);
  }

  @Test
  void mergingPoolsKeepsTheExactMoments() {
    CommitStats a = stats(3_000, 9_000), b = stats(1_500), c = stats();
    CommitStats all = CommitStats.merge(List.of(a, b, c));
    CommitStats direct = stats(3_000, 9_000, 1_500);
    assertEquals(3, all.count());
    assertEquals(1.5, all.minLatencyUs());
    assertEquals(direct.stddevLatencyUs(), all.stddevLatencyUs());
    assertEquals(direct.latencies().sumOfSquares(), all.latencies().sumOfSquares());
    assertEquals(direct.percentileUs(99.9), all.percentileUs(99.9));
  }

  @Test
  void encodingRoundTripsMomentsAndCounts() {
    CommitStats s = stats(100, 200, 300_000);
    CommitStats.Latencies back = (CommitStats.Latencies) CommitStats.decode(s.histogram());
    assertEquals(100, back.exactMin());
    assertEquals(BigInteger.valueOf(100L * 100 + 200L * 200 + 300_000L * 300_000), back.sumOfSquares());
    assertEquals(3, back.getTotalCount());
    assertEquals(CommitStats.encode(back).length, s.histogram().length);
  }

  @Test
  void onlyOneValueAtATime() {
    Histogram h = CommitStats.newHistogram();
    assertThrows(UnsupportedOperationException.class, () -> h.recordValueWithCount(5, 2));
    assertThrows(IllegalArgumentException.class, () -> h.add(new Histogram(3)));
    assertThrows(IllegalArgumentException.class, () -> CommitStats.encode(new Histogram(3)));
  }
}
