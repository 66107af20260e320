package io.tlogsim.journal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.PrimitiveArrayDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * Large {@code long[]} of the journal's events (a checkpoint's per-session and per-waiter arrays: GCM-1 at N = 100,000
 * holds 3.6 million longs in 4.6 MB) as one CBOR byte string of delta-coded varints instead of a CBOR array of
 * integers: a checkpoint is about 35% smaller (a sentinel such as {@code VirtualTime.NEVER} is 9 bytes as a CBOR
 * integer and 1 byte as a repeated delta; the log manager's waiters, three longs per waiter, take their delta from the
 * waiter before), so the H2 file, its writes and the garbage they make shrink with it, for about the CPU of the CBOR
 * integers (one pass to choose the stride and size the bytes, one to write them).
 *
 * <p>Only the run events' serializer uses it ({@link RunEventSerializer}: a copy of Pekko's CBOR mapper), so that the
 * kernel's messages between a cluster's nodes keep their format. Reading takes both forms: rows written before
 * (arrays of integers) read as they always did. An older tlogsim cannot read the new form: it shows such a run's
 * rows as unreadable, a row of another version ({@code tlogsim runs}, {@code journal verify}).
 *
 * <p>The bytes: a format byte ({@link #FORMAT}), the stride {@code s} (1 to {@link #MAX_STRIDE}), the length as an
 * unsigned varint, then per element {@code v[i] - v[i - s]} ({@code v[i]} for the first {@code s}) zigzag-coded as an
 * unsigned LEB128 varint. Deltas wrap as Java's long arithmetic does, so every value comes back exactly.
 */
final class CompactLongArrays {
  /** Arrays shorter than this stay CBOR arrays of integers (their bytes as before). */
  static final int MIN_LENGTH = 1024;
  static final int FORMAT = 1;
  static final int MAX_STRIDE = 4;
  /**
   * Elements looked at to choose the stride: the first ones, enough to see an array's record layout, and few beside the
   * arrays themselves (a session pool's are 6,250 long).
   */
  private static final int SAMPLE = 256;

  private CompactLongArrays() {}

  /** The module to register on the run events' mapper. */
  static SimpleModule module() {
    SimpleModule m = new SimpleModule("tlogsim-compact-long-arrays");
    m.addSerializer(long[].class, new Writer());
    m.addDeserializer(long[].class, new Reader());
    return m;
  }

  static byte[] encode(long[] v) {
    int stride = stride(v);
    int n = v.length;
    int size = 2 + varintSize(n);
    for (int i = 0; i < n; i++) size += varintSize(zigzag(v[i] - (i >= stride ? v[i - stride] : 0)));
    byte[] out = new byte[size];
    out[0] = (byte) FORMAT;
    out[1] = (byte) stride;
    int pos = putVarint(out, 2, n);
    for (int i = 0; i < n; i++) pos = putVarint(out, pos, zigzag(v[i] - (i >= stride ? v[i - stride] : 0)));
    return out;
  }

  static long[] decode(byte[] b) throws IOException {
    if (b.length < 3 || b[0] != FORMAT) {
      throw new IOException("a long array in a format this tlogsim does not know (" + (b.length == 0 ? "empty"
          : "format " + (b[0] & 0xff)) + "): written by a newer tlogsim?");
    }
    int stride = b[1];
    if (stride < 1 || stride > MAX_STRIDE) throw new IOException("a compact long array with stride " + stride);
    int[] pos = {2};
    long n = getVarint(b, pos);
    if (n < 0 || n > b.length - pos[0]) throw new IOException("a compact long array of " + n + " elements in "
        + b.length + " bytes");
    long[] v = new long[(int) n];
    for (int i = 0; i < v.length; i++) {
      long z = getVarint(b, pos);
      long d = (z >>> 1) ^ -(z & 1);
      v[i] = i >= stride ? v[i - stride] + d : d;
    }
    if (pos[0] != b.length) throw new IOException("a compact long array with " + (b.length - pos[0]) + " bytes left");
    return v;
  }

  /** The stride whose deltas take the fewest bytes over the first elements (1: the element before). */
  private static int stride(long[] v) {
    int m = Math.min(v.length, SAMPLE);
    int best = 1;
    long bestSize = Long.MAX_VALUE;
    for (int s = 1; s <= MAX_STRIDE; s++) {
      long size = 0;
      for (int i = 0; i < m; i++) size += varintSize(zigzag(v[i] - (i >= s ? v[i - s] : 0)));
      if (size < bestSize) {
        bestSize = size;
        best = s;
      }
    }
    return best;
  }

  private static long zigzag(long d) {
    return (d << 1) ^ (d >> 63);
  }

  private static int varintSize(long u) {
    return u == 0 ? 1 : (63 - Long.numberOfLeadingZeros(u)) / 7 + 1;
  }

  private static int putVarint(byte[] out, int pos, long u) {
    while ((u & ~0x7FL) != 0) {
      out[pos++] = (byte) ((u & 0x7F) | 0x80);
      u >>>= 7;
    }
    out[pos++] = (byte) u;
    return pos;
  }

  private static long getVarint(byte[] b, int[] pos) throws IOException {
    long u = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos[0] >= b.length) throw new IOException("a compact long array cut short");
      int x = b[pos[0]++];
      u |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) return u;
    }
    throw new IOException("a compact long array with a varint of more than 10 bytes");
  }

  private static final class Writer extends StdSerializer<long[]> {
    Writer() {
      super(long[].class);
    }

    @Override
    public void serialize(long[] v, JsonGenerator g, SerializerProvider p) throws IOException {
      if (v.length < MIN_LENGTH || !g.canWriteBinaryNatively()) {
        g.writeArray(v, 0, v.length);
      } else {
        byte[] b = encode(v);
        g.writeBinary(b, 0, b.length);
      }
    }

    @Override
    public boolean isEmpty(SerializerProvider p, long[] v) {
      return v.length == 0;
    }
  }

  private static final class Reader extends JsonDeserializer<long[]> {
    private final JsonDeserializer<?> plain = PrimitiveArrayDeserializers.forType(Long.TYPE);

    @Override
    public long[] deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (p.currentToken() == JsonToken.VALUE_EMBEDDED_OBJECT) return decode(p.getBinaryValue());
      return (long[]) plain.deserialize(p, ctxt);
    }
  }
}
