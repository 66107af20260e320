package io.tlogsim.kernel;

import java.util.Arrays;

/**
 * A binary min-heap of events ordered by (time, tie), tie = (link rank, sequence on that link): the kernel's
 * deterministic order (time, sender id, sender sequence). Primitive arrays and no allocation per event: this is on
 * the path of every simulated event.
 */
public final class EventQueue {
  private long[] time;
  private long[] tie;
  private int[] kind;
  private long[] a;
  private long[] b;
  private int size;

  public EventQueue() {
    this(64);
  }

  public EventQueue(int capacity) {
    capacity = Math.max(4, capacity);
    time = new long[capacity];
    tie = new long[capacity];
    kind = new int[capacity];
    a = new long[capacity];
    b = new long[capacity];
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Time of the first event, or {@link VirtualTime#NEVER} when empty. */
  public long headTime() {
    return size == 0 ? VirtualTime.NEVER : time[0];
  }

  public long headTie() {
    return tie[0];
  }

  public int headKind() {
    return kind[0];
  }

  public long headA() {
    return a[0];
  }

  public long headB() {
    return b[0];
  }

  /** True when this queue's head comes before {@code other}'s head (both non-empty). */
  public boolean headBefore(EventQueue other) {
    long t = time[0], o = other.time[0];
    return t < o || (t == o && tie[0] < other.tie[0]);
  }

  public void add(long t, long k, int kd, long pa, long pb) {
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
  public void removeHead() {
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

  /** The queue's content for a checkpoint (heap order is kept, so a restored queue pops identically). */
  public State state() {
    return new State(Arrays.copyOf(time, size), Arrays.copyOf(tie, size), Arrays.copyOf(kind, size),
        Arrays.copyOf(a, size), Arrays.copyOf(b, size));
  }

  public static EventQueue restore(State s) {
    EventQueue q = new EventQueue(s.time().length);
    System.arraycopy(s.time(), 0, q.time, 0, s.time().length);
    System.arraycopy(s.tie(), 0, q.tie, 0, s.time().length);
    System.arraycopy(s.kind(), 0, q.kind, 0, s.time().length);
    System.arraycopy(s.a(), 0, q.a, 0, s.time().length);
    System.arraycopy(s.b(), 0, q.b, 0, s.time().length);
    q.size = s.time().length;
    return q;
  }

  public record State(long[] time, long[] tie, int[] kind, long[] a, long[] b) implements CborSerializable {}
}
