package io.tlogsim.engine.series;

import java.nio.ByteBuffer;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * HdrHistogram's own encoding without its deflate step, for the histograms of interval facts: dozens per run and
 * component, where a deflater's set-up would cost more than the encoding itself (HdrHistogram's form already skips
 * runs of empty buckets).
 */
public final class Histograms {
  private Histograms() {}

  public static byte[] encode(AbstractHistogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoByteBuffer(buf);
    byte[] out = new byte[n];
    buf.rewind();
    buf.get(out);
    return out;
  }

  public static Histogram decode(byte[] bytes) {
    return Histogram.decodeFromByteBuffer(ByteBuffer.wrap(bytes), 0);
  }
}
