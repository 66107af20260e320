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

  /** The batch of this window, or null if nothing was sent. */
  Batch drain() {
    if (size == 0) return null;
    if (nextSeq + size > Topology.MAX_SEQ) throw new SimulationException("link " + link + ": sequence overflow");
    Batch batch = new Batch(link, nextSeq, min, Arrays.copyOf(time, size), Arrays.copyOf(kind, size),
        Arrays.copyOf(a, size), Arrays.copyOf(b, size));
    nextSeq += size;
    size = 0;
    min = VirtualTime.NEVER;
    return batch;
  }

  record Batch(int link, long firstSeq, long minTime, long[] time, int[] kind, long[] a, long[] b) {}
}
