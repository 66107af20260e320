package io.tlogsim.engine.session;

import io.tlogsim.kernel.CborSerializable;
import java.nio.ByteBuffer;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Commits acknowledged within the run and their latency (from the end of the session's think time to the
 * acknowledgement), as an exact count, sum and maximum plus an HdrHistogram for percentiles.
 */
public record CommitStats(long count, long latencySumNanos, long latencyMaxNanos, byte[] histogram)
    implements CborSerializable {

  public static final int SIGNIFICANT_DIGITS = 3;

  public static Histogram newHistogram() {
    Histogram h = new Histogram(SIGNIFICANT_DIGITS);
    h.setAutoResize(true);
    return h;
  }

  public static byte[] encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buf);
    byte[] out = new byte[n];
    buf.flip();
    buf.get(out);
    return out;
  }

  public static Histogram decode(byte[] bytes) {
    try {
      Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
      h.setAutoResize(true);
      return h;
    } catch (java.util.zip.DataFormatException e) {
      throw new IllegalArgumentException("corrupt latency histogram", e);
    }
  }

  public Histogram latencies() {
    return decode(histogram);
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
}
