package io.tlogsim.kernel;

import java.util.Arrays;

/**
 * A component's own scheduled events: a binary min-heap on (time, sequence) in parallel arrays, no allocation per
 * timer. The sequence number is the timer's handle. Cancelling looks the handle up by a linear scan: components hold
 * few timers (a flush timer, a refill), and a cancel costs no more than the scan.
 */
final class Timers {
  private long[] time = new long[16];
  private long[] seq = new long[16];
  private int[] kind = new int[16];
  private long[] a = new long[16];
  private long[] b = new long[16];
  private long[] c = new long[16];
  private long[] d = new long[16];
  private Object[] payload = new Object[16];
  private int size;
  private long nextSeq;

  int size() {
    return size;
  }

  /** Time of the earliest timer, or {@link VirtualTime#NEVER}. */
  long headTime() {
    return size == 0 ? VirtualTime.NEVER : time[0];
  }

  long headSeq() {
    return seq[0];
  }

  long nextSeq() {
    return nextSeq;
  }

  /** Adds a timer; returns its handle. */
  long add(long t, int k, long pa, long pb, long pc, long pd, Object obj) {
    if (nextSeq > Tie.MAX_SEQ) throw new SimulationException("too many timers");
    long s = nextSeq++;
    put(t, s, k, pa, pb, pc, pd, obj);
    return s;
  }

  private void put(long t, long s, int k, long pa, long pb, long pc, long pd, Object obj) {
    if (size == time.length) grow();
    int i = size++;
    set(i, t, s, k, pa, pb, pc, pd, obj);
    siftUp(i);
  }

  /** Copies the earliest timer into {@code ev} (all but port and sender) and removes it. */
  void pop(Event ev) {
    ev.time = time[0];
    ev.kind = kind[0];
    ev.a = a[0];
    ev.b = b[0];
    ev.c = c[0];
    ev.d = d[0];
    ev.payload = payload[0];
    removeAt(0);
  }

  /** Removes the timer with this handle; false if there is none. */
  boolean cancel(long handle) {
    for (int i = 0; i < size; i++) {
      if (seq[i] == handle) {
        removeAt(i);
        return true;
      }
    }
    return false;
  }

  int clear() {
    int n = size;
    Arrays.fill(payload, 0, size, null);
    size = 0;
    return n;
  }

  private void removeAt(int i) {
    int last = --size;
    if (i != last) {
      move(last, i);
      if (!siftUp(i)) siftDown(i);
    }
    payload[last] = null;
  }

  private boolean before(int i, int j) {
    return time[i] < time[j] || (time[i] == time[j] && seq[i] < seq[j]);
  }

  private boolean siftUp(int i) {
    boolean moved = false;
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (!before(i, p)) break;
      swap(i, p);
      i = p;
      moved = true;
    }
    return moved;
  }

  private void siftDown(int i) {
    while (true) {
      int l = 2 * i + 1;
      if (l >= size) return;
      int m = l + 1 < size && before(l + 1, l) ? l + 1 : l;
      if (!before(m, i)) return;
      swap(i, m);
      i = m;
    }
  }

  private void swap(int i, int j) {
    long t = time[i], s = seq[i], pa = a[i], pb = b[i], pc = c[i], pd = d[i];
    int k = kind[i];
    Object o = payload[i];
    move(j, i);
    set(j, t, s, k, pa, pb, pc, pd, o);
  }

  private void move(int from, int to) {
    set(to, time[from], seq[from], kind[from], a[from], b[from], c[from], d[from], payload[from]);
  }

  private void set(int i, long t, long s, int k, long pa, long pb, long pc, long pd, Object obj) {
    time[i] = t;
    seq[i] = s;
    kind[i] = k;
    a[i] = pa;
    b[i] = pb;
    c[i] = pc;
    d[i] = pd;
    payload[i] = obj;
  }

  private void grow() {
    int n = time.length * 2;
    time = Arrays.copyOf(time, n);
    seq = Arrays.copyOf(seq, n);
    kind = Arrays.copyOf(kind, n);
    a = Arrays.copyOf(a, n);
    b = Arrays.copyOf(b, n);
    c = Arrays.copyOf(c, n);
    d = Arrays.copyOf(d, n);
    payload = Arrays.copyOf(payload, n);
  }

  /** The pending timers for a checkpoint (in heap order: (time, handle) orders them totally). */
  State state() {
    return new State(Arrays.copyOf(time, size), Arrays.copyOf(seq, size), Arrays.copyOf(kind, size),
        Arrays.copyOf(a, size), Arrays.copyOf(b, size), Arrays.copyOf(c, size), Arrays.copyOf(d, size),
        Arrays.copyOf(payload, size), nextSeq);
  }

  void restore(State s) {
    clear();
    for (int i = 0; i < s.time().length; i++) {
      put(s.time()[i], s.seq()[i], s.kind()[i], s.a()[i], s.b()[i], s.c()[i], s.d()[i], s.payload()[i]);
    }
    nextSeq = s.nextSeq();
  }

  record State(long[] time, long[] seq, int[] kind, long[] a, long[] b, long[] c, long[] d,
      @Typed
      Object[] payload, long nextSeq) implements CborSerializable {}
}
