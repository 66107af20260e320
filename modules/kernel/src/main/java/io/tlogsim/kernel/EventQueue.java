package io.tlogsim.kernel;

import java.util.Arrays;

/**
 * The events one input port of a component holds, handed out in the kernel's deterministic order (time, tie),
 * tie = (link rank, sequence on that link), i.e. (time, sender id, sender sequence).
 *
 * <p>Batches arrive sorted by time (senders sort them, parallel to each other), so each is kept as a run and the
 * queue merges runs: a pop costs log(runs held), not log(events held). Single events (a component's own
 * scheduled ones, unsorted batches) go to a binary heap. Primitive arrays, no allocation per event.
 */
public final class EventQueue {
  private final EventHeap singles = new EventHeap();
  private Run[] runs = new Run[8]; // a binary heap of runs by their head
  private int runCount;
  private int runEvents;
  private boolean runFirst; // the head is the top run's head, not the singles'

  public int size() {
    return singles.size() + runEvents;
  }

  public boolean isEmpty() {
    return runCount == 0 && singles.isEmpty();
  }

  /** Time of the first event, or {@link VirtualTime#NEVER} when empty. */
  public long headTime() {
    return runFirst ? runs[0].time[runs[0].pos] : singles.headTime();
  }

  public long headTie() {
    return runFirst ? runs[0].headTie() : singles.headTie();
  }

  public int headKind() {
    return runFirst ? runs[0].kind[runs[0].pos] : singles.headKind();
  }

  public long headA() {
    return runFirst ? runs[0].a[runs[0].pos] : singles.headA();
  }

  public long headB() {
    return runFirst ? runs[0].b[runs[0].pos] : singles.headB();
  }

  /** True when this queue's head comes before {@code other}'s head (both non-empty). */
  public boolean headBefore(EventQueue other) {
    long t = headTime(), o = other.headTime();
    return t < o || (t == o && headTie() < other.headTie());
  }

  /** Adds one event. */
  public void add(long t, long tie, int kind, long a, long b) {
    singles.add(t, tie, kind, a, b);
    settle();
  }

  /**
   * Adds a batch sorted by time whose event i has tie {@code rankBits | (firstSeq + i)}; the arrays are kept, not
   * copied.
   */
  public void addRun(long rankBits, long firstSeq, long[] time, int[] kind, long[] a, long[] b) {
    if (time.length == 0) return;
    if (runCount == runs.length) runs = Arrays.copyOf(runs, runCount * 2);
    Run r = new Run(rankBits, firstSeq, time, kind, a, b);
    int i = runCount++;
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (!r.before(runs[p])) break;
      runs[i] = runs[p];
      i = p;
    }
    runs[i] = r;
    runEvents += time.length;
    settle();
  }

  /** Removes the head; read it with the head accessors first. */
  public void removeHead() {
    if (runFirst) {
      Run top = runs[0];
      runEvents--;
      if (++top.pos == top.time.length) {
        Run last = runs[--runCount];
        runs[runCount] = null;
        if (runCount > 0) siftDown(last);
      } else {
        siftDown(top);
      }
    } else {
      singles.removeHead();
    }
    settle();
  }

  private void siftDown(Run r) {
    int i = 0, n = runCount, half = n >>> 1;
    while (i < half) {
      int c = 2 * i + 1;
      if (c + 1 < n && runs[c + 1].before(runs[c])) c++;
      if (!runs[c].before(r)) break;
      runs[i] = runs[c];
      i = c;
    }
    runs[i] = r;
  }

  private void settle() {
    if (runCount == 0) {
      runFirst = false;
    } else if (singles.isEmpty()) {
      runFirst = true;
    } else {
      Run r = runs[0];
      long t = r.time[r.pos], s = singles.headTime();
      runFirst = t < s || (t == s && r.headTie() < singles.headTie());
    }
  }

  /** The queue's content for a checkpoint. Its order does not matter: (time, tie) orders events totally. */
  public State state() {
    int n = size();
    long[] t = new long[n], k = new long[n], pa = new long[n], pb = new long[n];
    int[] kd = new int[n];
    singles.copyTo(t, k, kd, pa, pb, 0);
    int at = singles.size();
    for (int r = 0; r < runCount; r++) {
      Run run = runs[r];
      for (int i = run.pos; i < run.time.length; i++, at++) {
        t[at] = run.time[i];
        k[at] = run.rankBits | (run.firstSeq + i);
        kd[at] = run.kind[i];
        pa[at] = run.a[i];
        pb[at] = run.b[i];
      }
    }
    return new State(t, k, kd, pa, pb);
  }

  public static EventQueue restore(State s) {
    EventQueue q = new EventQueue();
    for (int i = 0; i < s.time().length; i++) q.singles.add(s.time()[i], s.tie()[i], s.kind()[i], s.a()[i], s.b()[i]);
    q.settle();
    return q;
  }

  public record State(long[] time, long[] tie, int[] kind, long[] a, long[] b) implements CborSerializable {}

  /** A delivered batch, sorted by time, and how far it has been consumed. */
  private static final class Run {
    final long rankBits;
    final long firstSeq;
    final long[] time;
    final int[] kind;
    final long[] a;
    final long[] b;
    int pos;

    Run(long rankBits, long firstSeq, long[] time, int[] kind, long[] a, long[] b) {
      this.rankBits = rankBits;
      this.firstSeq = firstSeq;
      this.time = time;
      this.kind = kind;
      this.a = a;
      this.b = b;
    }

    long headTie() {
      return rankBits | (firstSeq + pos);
    }

    boolean before(Run o) {
      long t = time[pos], u = o.time[o.pos];
      return t < u || (t == u && headTie() < o.headTie());
    }
  }
}
