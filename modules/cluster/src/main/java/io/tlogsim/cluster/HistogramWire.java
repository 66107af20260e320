package io.tlogsim.cluster;

import java.nio.ByteBuffer;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/** Latency histograms on the wire: HdrHistogram's own compressed form. */
final class HistogramWire {
  private HistogramWire() {}

  static byte[] encode(Histogram h) {
    ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(buf);
    byte[] out = new byte[n];
    buf.flip();
    buf.get(out);
    return out;
  }

  static Histogram decode(byte[] bytes) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    } catch (DataFormatException e) {
      throw new IllegalStateException("a latency histogram came back corrupt", e);
    }
  }
}
