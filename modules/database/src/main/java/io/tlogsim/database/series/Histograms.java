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

  /** HdrHistogram's V2 cookie without its word-size bits, and the size of its header (the counts follow). */
  private static final int V2_COOKIE_BASE = 0x1c849303;
  private static final int HEADER_BYTES = 40;

  /**
   * Adds the counts of an {@link #encode}d histogram to {@code into}, as {@code into.add(decode(bytes))} does, without
   * making the decoded histogram: the encoded counts are read in place (HdrHistogram's V2 form: ZigZag LEB128 counts,
   * a negative one a run of empty buckets) and each count recorded at its bucket's value. A form this does not read
   * (another cookie, a normalizing offset) is decoded as before.
   */
  public static void addTo(AbstractHistogram into, byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    if (bytes.length < HEADER_BYTES || (b.getInt(0) & ~0xf0) != V2_COOKIE_BASE || b.getInt(8) != 0) {
      into.add(decode(bytes));
      return;
    }
    int end = HEADER_BYTES + b.getInt(4);
    int digits = b.getInt(12);
    long lowest = b.getLong(16);
    // the bucket layout of the encoded histogram, as HdrHistogram derives it from its digits and lowest value
    int unitMagnitude = 63 - Long.numberOfLeadingZeros(lowest);
    long singleUnitResolution = 2 * (long) Math.pow(10, digits);
    int subBucketCountMagnitude = (int) Math.ceil(Math.log(singleUnitResolution) / Math.log(2));
    int halfMagnitude = (subBucketCountMagnitude > 1 ? subBucketCountMagnitude : 1) - 1;
    int halfCount = 1 << halfMagnitude;
    b.position(HEADER_BYTES);
    int index = 0;
    while (b.position() < end) {
      long count = zigZagLong(b);
      if (count < 0) {
        index += (int) -count; // a run of empty buckets
        continue;
      }
      if (count > 0) {
        int bucket = (index >> halfMagnitude) - 1;
        int sub = (index & (halfCount - 1)) + halfCount;
        if (bucket < 0) {
          sub -= halfCount;
          bucket = 0;
        }
        into.recordValueWithCount((long) sub << (bucket + unitMagnitude), count);
      }
      index++;
    }
  }

  /** HdrHistogram's ZigZag LEB128 long: 7 bits a byte for up to 8 bytes, then a whole ninth byte. */
  private static long zigZagLong(ByteBuffer b) {
    long value = 0;
    for (int shift = 0; shift < 56; shift += 7) {
      long v = b.get();
      value |= (v & 0x7F) << shift;
      if ((v & 0x80) == 0) return (value >>> 1) ^ -(value & 1);
    }
    value |= ((long) b.get()) << 56;
    return (value >>> 1) ^ -(value & 1);
  }
}
