package io.tlogsim.kernel;

import java.util.Arrays;

/**
 * What a component sends on one link during one window, shipped at the window's end as one {@link EventBatch}.
 * The optional payload columns (c, d, payload) are allocated only when an event uses them.
 */
final class Outbox {
  private final int link;
  private long nextSeq;
  private int size;
  private long[] time = new long[16];
  private int[] kind = new int[16];
  private long[] a = new long[16];
  private long[] b = new long[16];
  private long[] c;
  private long[] d;
  private Object[] payload;
  private boolean cdUsed; // in this window
  private boolean payloadUsed;
  private boolean sorted = true;

  Outbox(int link) {
    this.link = link;
  }

  void add(long t, int k, long pa, long pb, long pc, long pd, Object obj) {
    if (size == time.length) grow();
    if (size > 0 && t < time[size - 1]) sorted = false;
    time[size] = t;
    kind[size] = k;
    a[size] = pa;
    b[size] = pb;
    if (pc != 0 || pd != 0) {
      cdUsed = true;
      if (c == null) {
        c = new long[time.length];
        d = new long[time.length];
      }
      c[size] = pc;
      d[size] = pd;
    } else if (c != null) {
      c[size] = 0;
      d[size] = 0;
    }
    if (obj != null) {
      payloadUsed = true;
      if (payload == null) payload = new Object[time.length];
      payload[size] = obj;
    } else if (payload != null) {
      payload[size] = null;
    }
    size++;
  }

  private void grow() {
    int n = size * 2;
    time = Arrays.copyOf(time, n);
    kind = Arrays.copyOf(kind, n);
    a = Arrays.copyOf(a, n);
    b = Arrays.copyOf(b, n);
    if (c != null) {
      c = Arrays.copyOf(c, n);
      d = Arrays.copyOf(d, n);
    }
    if (payload != null) payload = Arrays.copyOf(payload, n);
  }

  long nextSeq() {
    return nextSeq;
  }

  void setNextSeq(long seq) {
    nextSeq = seq;
  }

  /** The batch of this window, sorted by time (stable), or null if nothing was sent. */
  EventBatch drain(long window) {
    if (size == 0) return null;
    if (nextSeq + size > Tie.MAX_SEQ) throw new SimulationException("link " + link + ": sequence overflow");
    int[] order = sorted ? null : stableOrder(time, size);
    EventBatch batch = new EventBatch(window, link, nextSeq, take(time, order), take(kind, order), take(a, order),
        take(b, order), cdUsed ? take(c, order) : null, cdUsed ? take(d, order) : null,
        payloadUsed ? take(payload, order) : null);
    nextSeq += size;
    if (payloadUsed) Arrays.fill(payload, 0, size, null); // let the objects go
    size = 0;
    sorted = true;
    cdUsed = false;
    payloadUsed = false;
    // c, d and payload stay allocated: a link that used them once likely will again (add clears what it reuses)
    return batch;
  }

  private long[] take(long[] col, int[] order) {
    if (order == null) return Arrays.copyOf(col, size);
    long[] out = new long[size];
    for (int i = 0; i < size; i++) out[i] = col[order[i]];
    return out;
  }

  private int[] take(int[] col, int[] order) {
    if (order == null) return Arrays.copyOf(col, size);
    int[] out = new int[size];
    for (int i = 0; i < size; i++) out[i] = col[order[i]];
    return out;
  }

  private Object[] take(Object[] col, int[] order) {
    if (order == null) return Arrays.copyOf(col, size);
    Object[] out = new Object[size];
    for (int i = 0; i < size; i++) out[i] = col[order[i]];
    return out;
  }

  private static final int INDEX_BITS = 21;
  private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
  /**
   * Up to this many events an insertion sort of the packed keys, above it a radix sort: measured on the outboxes of
   * GCM-1 runs (N = 1,000: about 105 events spanning 4-16 ms; N = 100,000: about 20), docs/performance.md.
   */
  private static final int INSERTION_MAX = 48;

  // Scratch of the sort, kept between windows (a component drains its outboxes on one thread at a time)
  private long[] keys = new long[0];
  private long[] spare = new long[0];
  private int[] order = new int[0];
  private final int[] digitCount = new int[256];

  /**
   * Indices of the first {@code n} values of {@code t} in ascending order, equal values keeping their order. The
   * array returned is this outbox's scratch, valid until the next call. An outbox sent out of time order is about
   * a random permutation (a pool's commits each end a random time ahead), so no run-merging pays: small ones get an
   * insertion sort, larger ones a radix sort by bytes of the time, linear in the events whatever their order.
   */
  int[] stableOrder(long[] t, int n) {
    long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, t[i]);
      max = Math.max(max, t[i]);
    }
    if (n < (1 << INDEX_BITS) && max - min >= 0 && max - min < (1L << (63 - INDEX_BITS))) {
      // (time offset, index) packed into one long: the index breaks ties, so sorting the keys is stable
      if (keys.length < n) {
        keys = new long[time.length];
        spare = new long[time.length];
        order = new int[time.length];
      }
      long[] key = keys;
      for (int i = 0; i < n; i++) key[i] = ((t[i] - min) << INDEX_BITS) | i;
      if (n <= INSERTION_MAX) {
        for (int i = 1; i < n; i++) {
          long v = key[i];
          int j = i - 1;
          while (j >= 0 && key[j] > v) {
            key[j + 1] = key[j];
            j--;
          }
          key[j + 1] = v;
        }
      } else {
        key = radixSort(key, spare, n, 64 - Long.numberOfLeadingZeros(max - min));
      }
      int[] o = order;
      for (int i = 0; i < n; i++) o[i] = (int) (key[i] & INDEX_MASK);
      return o;
    }
    return mergeOrder(t, n);
  }

  /**
   * Sorts packed keys by their time offset ({@code bits} bits above the index), a byte per pass from the lowest:
   * each pass is stable, so keys of one time stay in index order. Returns the array holding the result.
   */
  private long[] radixSort(long[] key, long[] other, int n, int bits) {
    int[] count = digitCount;
    long[] src = key, dst = other;
    for (int shift = INDEX_BITS; shift < INDEX_BITS + bits; shift += 8) {
      Arrays.fill(count, 0);
      for (int i = 0; i < n; i++) count[(int) (src[i] >>> shift) & 0xff]++;
      if (count[(int) (src[0] >>> shift) & 0xff] == n) continue; // one value of this byte: nothing moves
      int sum = 0;
      for (int d = 0; d < 256; d++) {
        int c = count[d];
        count[d] = sum;
        sum += c;
      }
      for (int i = 0; i < n; i++) {
        long v = src[i];
        dst[count[(int) (v >>> shift) & 0xff]++] = v;
      }
      long[] x = src;
      src = dst;
      dst = x;
    }
    return src;
  }

  /** {@link #stableOrder} for times that do not fit a packed key: a bottom-up merge sort of indices. */
  static int[] mergeOrder(long[] t, int n) {
    int[] src = new int[n], dst = new int[n];
    for (int i = 0; i < n; i++) src[i] = i;
    for (int width = 1; width < n; width *= 2) { // bottom-up merge sort
      for (int lo = 0; lo < n; lo += 2 * width) {
        int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
        int i = lo, j = mid, k = lo;
        while (i < mid && j < hi) dst[k++] = t[src[j]] < t[src[i]] ? src[j++] : src[i++];
        while (i < mid) dst[k++] = src[i++];
        while (j < hi) dst[k++] = src[j++];
      }
      int[] x = src;
      src = dst;
      dst = x;
    }
    return src;
  }
}
