package io.tlogsim.database.series;

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

  /** Where HdrHistogram's header (V2 encoding) holds the largest value the histogram can track. */
  static final int HIGHEST_TRACKABLE_OFFSET = 24;

  /**
   * The histogram's counts in HdrHistogram's encoding, with a header that depends on the counts alone: an
   * auto-resizing histogram's header holds the largest value it can track, which grows with what it ever recorded
   * (before a reset, before a restore), so the header is given the counts' largest value rounded up to a power of two,
   * as a copy sized from the counts would have: a resumed run records the bytes of an uninterrupted one. The counts
   * are encoded up to the largest recorded value only, so they do not depend on the histogram's size. (Encoding a
   * copy instead cost GCM-1 at N = 100,000 about a tenth of its speed, in one noisy comparison.)
   */
  public static byte[] encode(AbstractHistogram h) {
    Scratch s = SCRATCH.get();
    int need = h.getNeededByteBufferCapacity();
    if (s.buffer == null || s.buffer.capacity() < need) s.buffer = ByteBuffer.allocate(need);
    s.buffer.clear();
    int n = h.encodeIntoByteBuffer(s.buffer);
    s.buffer.putLong(HIGHEST_TRACKABLE_OFFSET, canonicalHighest(h));
    byte[] out = new byte[n];
    s.buffer.rewind();
    s.buffer.get(out);
    return out;
  }

  /** The largest trackable value a histogram sized from these counts has: the largest count's power of two, doubled. */
  static long canonicalHighest(AbstractHistogram h) {
    return Long.highestOneBit(Math.max(2, h.getMaxValue())) << 1;
  }

  /** A thread's reusable buffer for {@link #encode}. */
  private static final class Scratch {
    ByteBuffer buffer;
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  public static Histogram decode(byte[] bytes) {
    return Histogram.decodeFromByteBuffer(ByteBuffer.wrap(bytes), 0);
  }
}
