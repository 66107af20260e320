package io.tlogsim.kernel;

import java.util.Arrays;

/** What a component sends on one link during one window, shipped at the window's end as one batch. */
final class Outbox {
  private final int link;
  private long nextSeq;
  private long[] time = new long[16];
  private int[] kind = new int[16];
  private long[] a = new long[16];
  private long[] b = new long[16];
  private int size;
  private long min = VirtualTime.NEVER;

  Outbox(int link) {
    this.link = link;
  }

  void add(long t, int k, long pa, long pb) {
    if (size == time.length) {
      int n = size * 2;
      time = Arrays.copyOf(time, n);
      kind = Arrays.copyOf(kind, n);
      a = Arrays.copyOf(a, n);
      b = Arrays.copyOf(b, n);
    }
    time[size] = t;
    kind[size] = k;
    a[size] = pa;
    b[size] = pb;
    size++;
    if (t < min) min = t;
  }

  long nextSeq() {
    return nextSeq;
  }

  void setNextSeq(long seq) {
    nextSeq = seq;
  }

  /**
   * The batch of this window, or null if nothing was sent. Sorted by time, equal times in the order they were
   * sent (a stable sort), so a receiver merges it as one run and the sequence numbers still follow the sending
   * order among simultaneous events.
   */
  Batch drain() {
    if (size == 0) return null;
    if (nextSeq + size > Topology.MAX_SEQ) throw new SimulationException("link " + link + ": sequence overflow");
    long[] t = Arrays.copyOf(time, size);
    int[] k = Arrays.copyOf(kind, size);
    long[] pa = Arrays.copyOf(a, size);
    long[] pb = Arrays.copyOf(b, size);
    if (!isSorted(t)) {
      int[] order = stableOrder(t);
      for (int i = 0; i < size; i++) {
        int j = order[i];
        t[i] = time[j];
        k[i] = kind[j];
        pa[i] = a[j];
        pb[i] = b[j];
      }
    }
    Batch batch = new Batch(link, nextSeq, min, t, k, pa, pb);
    nextSeq += size;
    size = 0;
    min = VirtualTime.NEVER;
    return batch;
  }

  private static boolean isSorted(long[] t) {
    for (int i = 1; i < t.length; i++) if (t[i] < t[i - 1]) return false;
    return true;
  }

  /** Indices of {@code t} in ascending order, equal values keeping their order (a merge sort). */
  static int[] stableOrder(long[] t) {
    int n = t.length;
    int[] src = new int[n], dst = new int[n];
    for (int i = 0; i < n; i++) src[i] = i;
    for (int width = 1; width < n; width *= 2) {
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

  record Batch(int link, long firstSeq, long minTime, long[] time, int[] kind, long[] a, long[] b) {}
}
