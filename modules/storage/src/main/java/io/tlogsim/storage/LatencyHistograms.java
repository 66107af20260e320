package io.tlogsim.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latency histograms as results and snapshots carry them: HdrHistogram with 3 significant digits that grows with what
 * it records, in HdrHistogram's own compressed form (what its tools read). Every model's latency histogram is encoded
 * here: devices', fio-like jobs', commits' (with their exact moments before it).
 */
public final class LatencyHistograms {
  private LatencyHistograms() {}

  public static final int SIGNIFICANT_DIGITS = 3;

  /** An empty histogram to record latencies in (ns). */
  public static Histogram newHistogram() {
    Histogram h = new Histogram(SIGNIFICANT_DIGITS);
    h.setAutoResize(true);
    return h;
  }

  /** HdrHistogram's compressed form of {@code h}. */
  public static byte[] encode(AbstractHistogram h) {
    // HdrHistogram reads and writes the backing array from index 0: no slices, a buffer of its own.
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buf);
    byte[] out = new byte[n];
    buf.flip();
    buf.get(out);
    return out;
  }

  /** The histogram {@link #encode} wrote, from {@code offset} of {@code bytes} on; it grows with what it records. */
  public static Histogram decode(byte[] bytes, int offset) {
    try {
      byte[] own = offset == 0 ? bytes : Arrays.copyOfRange(bytes, offset, bytes.length); // no slices (see encode)
      Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(own), 0);
      h.setAutoResize(true);
      return h;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("corrupt latency histogram", e);
    }
  }

  public static Histogram decode(byte[] bytes) {
    return decode(bytes, 0);
  }
}
