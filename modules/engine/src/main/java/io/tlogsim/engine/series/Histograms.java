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

  /**
   * The histogram's counts, encoded from a fresh copy: HdrHistogram's header holds the largest value a histogram can
   * track, which an auto-resizing histogram grows with what it ever recorded (before a reset, before a restore); the
   * copy's depends on its counts alone, so a resumed run records the bytes of an uninterrupted one.
   */
  public static byte[] encode(AbstractHistogram h) {
    Histogram canonical = new Histogram(h.getNumberOfSignificantValueDigits());
    canonical.setAutoResize(true);
    canonical.add(h);
    ByteBuffer buf = ByteBuffer.allocate(canonical.getNeededByteBufferCapacity());
    int n = canonical.encodeIntoByteBuffer(buf);
    byte[] out = new byte[n];
    buf.rewind();
    buf.get(out);
    return out;
  }

  public static Histogram decode(byte[] bytes) {
    return Histogram.decodeFromByteBuffer(ByteBuffer.wrap(bytes), 0);
  }
}
