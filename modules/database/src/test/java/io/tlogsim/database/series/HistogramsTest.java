package io.tlogsim.database.series;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The encoding of interval histograms depends on the counts alone: the same bytes as encoding a copy sized from the
 * counts (what the report and a resumed run rely on), whatever the histogram's own size, and it decodes to the counts.
 */
class HistogramsTest {

  /** The reference: a copy whose largest trackable value is the counts' largest value's power of two, doubled. */
  private static byte[] viaCopy(AbstractHistogram h) {
    Histogram copy = new Histogram(1, Histograms.canonicalHighest(h), h.getNumberOfSignificantValueDigits());
    copy.add(h);
    ByteBuffer b = ByteBuffer.allocate(copy.getNeededByteBufferCapacity());
    int n = copy.encodeIntoByteBuffer(b);
    byte[] out = new byte[n];
    b.rewind();
    b.get(out);
    return out;
  }

  @Test
  void sameBytesAsACopySizedFromTheCountsWhateverTheHistogramsOwnSize() {
    SplittableRandom rng = new SplittableRandom(7);
    for (int k = 0; k < 200; k++) {
      Histogram grown = new Histogram(3); // auto-resizing: first grown far beyond what it holds now
      grown.recordValue(1L << (20 + rng.nextInt(20)));
      grown.reset();
      Histogram fresh = new Histogram(3);
      int values = k % 7 == 0 ? 0 : 1 + rng.nextInt(5000);
      long scale = 1L << rng.nextInt(30);
      for (int i = 0; i < values; i++) {
        long v = 1 + (long) (rng.nextDouble() * scale);
        grown.recordValue(v);
        fresh.recordValue(v);
      }
      byte[] a = Histograms.encode(grown);
      assertArrayEquals(viaCopy(fresh), a, "histogram " + k);
      assertArrayEquals(a, Histograms.encode(fresh), "histogram " + k);
      Histogram back = Histograms.decode(a);
      assertEquals(fresh.getTotalCount(), back.getTotalCount());
      assertEquals(fresh.getMaxValue(), back.getMaxValue());
      assertEquals(fresh.getValueAtPercentile(99), back.getValueAtPercentile(99));
    }
  }

  @Test
  void addingTheEncodedCountsEqualsAddingTheDecodedHistogram() {
    SplittableRandom rng = new SplittableRandom(11);
    for (int k = 0; k < 300; k++) {
      int digits = 1 + k % 4;
      Histogram h = new Histogram(digits);
      h.setAutoResize(true);
      int values = k % 9 == 0 ? 0 : 1 + rng.nextInt(3000);
      long scale = 1L << rng.nextInt(40);
      for (int i = 0; i < values; i++) {
        long v = 1 + (long) (rng.nextDouble() * scale);
        h.recordValueWithCount(v, rng.nextInt(10) == 0 ? 1L << rng.nextInt(62 - 12) : 1 + rng.nextInt(3));
      }
      byte[] bytes = Histograms.encode(h);
      int intoDigits = 2 + (k / 2) % 2; // the report's targets: 3 digits (latencies), 2 (write sizes)
      Histogram viaDecode = new Histogram(intoDigits);
      Histogram viaBytes = new Histogram(intoDigits);
      if (k % 2 == 0) { // something held already
        viaDecode.recordValue(12_345);
        viaBytes.recordValue(12_345);
      }
      viaDecode.add(Histograms.decode(bytes));
      Histograms.addTo(viaBytes, bytes);
      assertEquals(viaDecode.getTotalCount(), viaBytes.getTotalCount(), "histogram " + k);
      assertEquals(viaDecode.getMaxValue(), viaBytes.getMaxValue(), "histogram " + k);
      assertEquals(viaDecode.getMinNonZeroValue(), viaBytes.getMinNonZeroValue(), "histogram " + k);
      for (double p : new double[] {0, 1, 50, 90, 99, 99.9, 100}) {
        assertEquals(viaDecode.getValueAtPercentile(p), viaBytes.getValueAtPercentile(p), "histogram " + k + " p" + p);
      }
      assertEquals(viaDecode, viaBytes, "histogram " + k);
    }
  }
}
