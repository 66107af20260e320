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

  /** Indices of the first {@code n} values of {@code t} in ascending order, equal values keeping their order. */
  static int[] stableOrder(long[] t, int n) {
    long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, t[i]);
      max = Math.max(max, t[i]);
    }
    if (n < (1 << INDEX_BITS) && max - min >= 0 && max - min < (1L << (63 - INDEX_BITS))) {
      // (time offset, index) packed into one long: a primitive sort, stable because the index breaks ties
      long[] key = new long[n];
      for (int i = 0; i < n; i++) key[i] = ((t[i] - min) << INDEX_BITS) | i;
      java.util.Arrays.sort(key);
      int[] order = new int[n];
      for (int i = 0; i < n; i++) order[i] = (int) (key[i] & ((1 << INDEX_BITS) - 1));
      return order;
    }
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
