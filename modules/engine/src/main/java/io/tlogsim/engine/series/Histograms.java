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
    // the copy is sized from the counts' largest value (a power of two, so the header depends on the counts alone) and
    // reused with its buffer by each thread: a fresh, auto-resizing copy per interval (hundreds of KB each, grown
    // bucket by bucket) cost GCM-1 at N = 100,000 half its speed
    long highest = Long.highestOneBit(Math.max(2, h.getMaxValue())) << 1;
    int digits = h.getNumberOfSignificantValueDigits();
    Scratch s = SCRATCH.get();
    if (s.canonical == null || s.highest != highest || s.digits != digits) {
      s.canonical = new Histogram(1, highest, digits);
      s.highest = highest;
      s.digits = digits;
    } else {
      s.canonical.reset();
    }
    s.canonical.add(h);
    int need = s.canonical.getNeededByteBufferCapacity();
    if (s.buffer == null || s.buffer.capacity() < need) s.buffer = ByteBuffer.allocate(need);
    s.buffer.clear();
    int n = s.canonical.encodeIntoByteBuffer(s.buffer);
    byte[] out = new byte[n];
    s.buffer.rewind();
    s.buffer.get(out);
    return out;
  }

  /** A thread's reusable copy and buffer for {@link #encode}. */
  private static final class Scratch {
    Histogram canonical;
    long highest;
    int digits;
    ByteBuffer buffer;
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);


  public static Histogram decode(byte[] bytes) {
    return Histogram.decodeFromByteBuffer(ByteBuffer.wrap(bytes), 0);
  }
}
