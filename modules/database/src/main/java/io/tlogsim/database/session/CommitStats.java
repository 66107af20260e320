package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.storage.LatencyHistograms;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.ByteBuffer;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * Commits acknowledged within the run and their latency (from the end of the session's think time to the
 * acknowledgement), as an exact count, sum and maximum plus a {@link Latencies} histogram, which also keeps the exact
 * minimum and sum of squares, for percentiles and the standard deviation.
 */
public record CommitStats(long count, long latencySumNanos, long latencyMaxNanos, byte[] histogram)
    implements CborSerializable {

  public static final int SIGNIFICANT_DIGITS = LatencyHistograms.SIGNIFICANT_DIGITS;
  /** Bytes of {@link #encode}'s header: the exact minimum and the two halves of the sum of squares. */
  private static final int MOMENTS_BYTES = 3 * Long.BYTES;

  /**
   * An HdrHistogram (percentiles to 3 significant digits) that also keeps the exact minimum and sum of squares of the
   * values it records, so that the standard deviation is exact. The sum of squares is a 128-bit unsigned integer
   * (latencies of seconds, squared in ns, overflow a long after a few commits). Record with {@link #recordValue}
   * only; merge with {@link #add} of another {@code Latencies}.
   */
  public static final class Latencies extends Histogram {
    private long min = Long.MAX_VALUE;
    private long squaresHigh;
    private long squaresLow;
    /** True while HdrHistogram's add copies counts (it may do so through recordValueWithCount). */
    private boolean addingCounts;

    public Latencies() {
      super(SIGNIFICANT_DIGITS);
      setAutoResize(true);
    }

    @Override
    public void recordValue(long value) {
      super.recordValue(value);
      if (value < min) min = value;
      addSquares(Math.multiplyHigh(value, value), value * value);
    }

    @Override
    public void reset() {
      super.reset();
      min = Long.MAX_VALUE;
      squaresHigh = 0;
      squaresLow = 0;
    }

    @Override
    public void add(AbstractHistogram other) {
      if (!(other instanceof Latencies l)) {
        throw new IllegalArgumentException("Latencies can only add Latencies (their exact moments), got " + other.getClass());
      }
      addCounts(l);
      min = Math.min(min, l.min);
      addSquares(l.squaresHigh, l.squaresLow);
    }

    @Override
    public void recordValueWithCount(long value, long count) {
      if (!addingCounts) throw new UnsupportedOperationException("Latencies records one value at a time (recordValue)");
      super.recordValueWithCount(value, count);
    }

    @Override
    public void recordValueWithExpectedInterval(long value, long expectedInterval) {
      throw new UnsupportedOperationException("Latencies records one value at a time (recordValue)");
    }

    /** Counts only, for a histogram decoded from HdrHistogram's form (its moments are set from the header). */
    private void addCounts(AbstractHistogram counts) {
      addingCounts = true;
      try {
        super.add(counts);
      } finally {
        addingCounts = false;
      }
    }

    private void addSquares(long high, long low) {
      long sum = squaresLow + low;
      squaresHigh += high + (Long.compareUnsigned(sum, squaresLow) < 0 ? 1 : 0);
      squaresLow = sum;
    }

    /** The exact smallest value recorded; {@link Long#MAX_VALUE} when none was. */
    public long exactMin() {
      return min;
    }

    /** The exact sum of the squares of the values recorded. */
    public BigInteger sumOfSquares() {
      return new BigInteger(1, ByteBuffer.allocate(16).putLong(squaresHigh).putLong(squaresLow).array());
    }
  }

  public static Histogram newHistogram() {
    return new Latencies();
  }

  /** The exact moments, then HdrHistogram's compressed form. */
  public static byte[] encode(Histogram h) {
    if (!(h instanceof Latencies l)) {
      throw new IllegalArgumentException("commit latencies must be recorded in CommitStats.newHistogram()");
    }
    byte[] hdr = LatencyHistograms.encode(h);
    return ByteBuffer.allocate(MOMENTS_BYTES + hdr.length).putLong(l.min).putLong(l.squaresHigh).putLong(l.squaresLow)
        .put(hdr).array();
  }

  public static Histogram decode(byte[] bytes) {
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    Latencies l = new Latencies();
    l.min = buf.getLong();
    l.squaresHigh = buf.getLong();
    l.squaresLow = buf.getLong();
    l.addCounts(LatencyHistograms.decode(bytes, MOMENTS_BYTES));
    return l;
  }

  public Latencies latencies() {
    return (Latencies) decode(histogram);
  }

  /** The stats of several pools as one. */
  public static CommitStats merge(List<CommitStats> parts) {
    Histogram h = newHistogram();
    long count = 0, sum = 0, max = 0;
    for (CommitStats p : parts) {
      count += p.count;
      sum += p.latencySumNanos;
      max = Math.max(max, p.latencyMaxNanos);
      h.add(p.latencies());
    }
    return new CommitStats(count, sum, max, encode(h));
  }

  /**
   * A latency percentile in us. HdrHistogram reports the top of a value's bucket (3 significant digits), which
   * can exceed the exact maximum; the exact maximum bounds it.
   */
  public double percentileUs(double percentile) {
    if (count == 0) return 0;
    return Math.min(latencies().getValueAtPercentile(percentile), latencyMaxNanos) / 1e3;
  }

  public double meanLatencyUs() {
    return count == 0 ? 0 : latencySumNanos / (double) count / 1e3;
  }

  /** The exact smallest latency in us (0 when there is no commit). */
  public double minLatencyUs() {
    return count == 0 ? 0 : latencies().exactMin() / 1e3;
  }

  /**
   * The exact population standard deviation of the latency in us (0 when there is no commit): the square root of
   * (n * sum of squares - sum^2) / n^2, computed in integers, rounded once.
   */
  public double stddevLatencyUs() {
    if (count == 0) return 0;
    BigInteger n = BigInteger.valueOf(count);
    BigInteger sum = BigInteger.valueOf(latencySumNanos);
    BigInteger numerator = n.multiply(latencies().sumOfSquares()).subtract(sum.multiply(sum));
    BigDecimal variance = new BigDecimal(numerator).divide(new BigDecimal(n.multiply(n)), MathContext.DECIMAL128);
    return variance.sqrt(MathContext.DECIMAL64).doubleValue() / 1e3;
  }
}
