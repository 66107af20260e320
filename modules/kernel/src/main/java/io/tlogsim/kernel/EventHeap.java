package io.tlogsim.kernel;

import java.util.Arrays;

/**
 * A binary min-heap of single events ordered by (time, tie), in primitive arrays with no allocation per event:
 * the part of an {@link EventQueue} that holds events not delivered as a sorted batch.
 */
final class EventHeap {
  private long[] time;
  private long[] tie;
  private int[] kind;
  private long[] a;
  private long[] b;
  private int size;

  EventHeap() {
    this(64);
  }

  EventHeap(int capacity) {
    capacity = Math.max(4, capacity);
    time = new long[capacity];
    tie = new long[capacity];
    kind = new int[capacity];
    a = new long[capacity];
    b = new long[capacity];
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Time of the first event, or {@link VirtualTime#NEVER} when empty. */
  long headTime() {
    return size == 0 ? VirtualTime.NEVER : time[0];
  }

  long headTie() {
    return tie[0];
  }

  int headKind() {
    return kind[0];
  }

  long headA() {
    return a[0];
  }

  long headB() {
    return b[0];
  }

  void add(long t, long k, int kd, long pa, long pb) {
    if (size == time.length) grow();
    int i = size++;
    // sift up with a hole
    while (i > 0) {
      int p = (i - 1) >>> 1;
      long pt = time[p];
      if (pt < t || (pt == t && tie[p] <= k)) break;
      move(p, i);
      i = p;
    }
    put(i, t, k, kd, pa, pb);
  }

  /** Removes the head; read it with the head accessors first. */
  void removeHead() {
    int n = --size;
    if (n == 0) return;
    long t = time[n], k = tie[n], pa = a[n], pb = b[n];
    int kd = kind[n];
    int i = 0;
    int half = n >>> 1;
    while (i < half) {
      int c = 2 * i + 1;
      int r = c + 1;
      if (r < n && (time[r] < time[c] || (time[r] == time[c] && tie[r] < tie[c]))) c = r;
      long ct = time[c];
      if (t < ct || (t == ct && k <= tie[c])) break;
      move(c, i);
      i = c;
    }
    put(i, t, k, kd, pa, pb);
  }

  private void move(int from, int to) {
    time[to] = time[from];
    tie[to] = tie[from];
    kind[to] = kind[from];
    a[to] = a[from];
    b[to] = b[from];
  }

  private void put(int i, long t, long k, int kd, long pa, long pb) {
    time[i] = t;
    tie[i] = k;
    kind[i] = kd;
    a[i] = pa;
    b[i] = pb;
  }

  private void grow() {
    int n = time.length * 2;
    time = Arrays.copyOf(time, n);
    tie = Arrays.copyOf(tie, n);
    kind = Arrays.copyOf(kind, n);
    a = Arrays.copyOf(a, n);
    b = Arrays.copyOf(b, n);
  }

  /** Copies every held event, in heap order, into the arrays at {@code at}. */
  void copyTo(long[] t, long[] k, int[] kd, long[] pa, long[] pb, int at) {
    System.arraycopy(time, 0, t, at, size);
    System.arraycopy(tie, 0, k, at, size);
    System.arraycopy(kind, 0, kd, at, size);
    System.arraycopy(a, 0, pa, at, size);
    System.arraycopy(b, 0, pb, at, size);
  }
}
