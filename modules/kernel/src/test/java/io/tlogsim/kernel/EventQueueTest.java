package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  private static final int TIMER_RANK = 4;

  private static EventBatch batch(int link, long firstSeq, long... times) {
    int n = times.length;
    long[] a = new long[n];
    for (int i = 0; i < n; i++) a[i] = firstSeq + i;
    return new EventBatch(0, link, firstSeq, times, new int[n], a, new long[n], null, null, null);
  }

  /** {time, tie, a}: what a pop must give, in the order a pop must give it. */
  private static void expectInOrder(EventQueue q, List<long[]> expected) {
    expected.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
    Event ev = new Event();
    for (long[] e : expected) {
      assertEquals(e[0], q.headTime());
      long tie = q.pop(ev);
      assertEquals(e[1], tie, "tie at t=" + e[0]);
      assertEquals(e[0], ev.time());
      assertEquals(e[2], ev.a());
    }
    assertEquals(0, q.size());
    assertEquals(VirtualTime.NEVER, q.headTime());
  }

  @Test
  void runsAndTimersMergeInTimeThenTieOrder() {
    SplittableRandom r = new SplittableRandom(3);
    EventQueue q = new EventQueue(99, TIMER_RANK);
    List<long[]> added = new ArrayList<>();
    long[] seq = new long[TIMER_RANK];
    for (int step = 0; step < 300; step++) {
      if (r.nextInt(4) == 0) { // a timer
        long t = r.nextInt(1000);
        long handle = q.schedule(t, 2, 1_000_000 + step, 0, 0, 0, null);
        added.add(new long[] {t, Tie.of(TIMER_RANK, handle), 1_000_000 + step});
        continue;
      }
      int rank = r.nextInt(TIMER_RANK);
      int n = 1 + r.nextInt(30);
      long[] t = new long[n];
      long cur = r.nextInt(1000);
      for (int i = 0; i < n; i++) t[i] = cur += r.nextInt(3); // sorted, with equal times
      EventBatch b = batch(rank, seq[rank], t);
      for (int i = 0; i < n; i++) added.add(new long[] {t[i], Tie.of(rank, seq[rank] + i), seq[rank] + i});
      seq[rank] += n;
      q.addRun(b, 0, rank, rank);
    }
    expectInOrder(q, added);
  }

  /**
   * Runs arriving while others are being popped (the kernel's pattern: each no earlier than what was handled), from
   * one run held at a time to hundreds (the tournament's slots grow, free and are taken again): every pop is the
   * least (time, tie) held, checked against a sorted list of what is held.
   */
  @Test
  void runsAddedBetweenPopsComeOutInOrderAsTheSlotsGrowAndFree() {
    SplittableRandom r = new SplittableRandom(26);
    EventQueue q = new EventQueue(7, TIMER_RANK);
    java.util.TreeSet<long[]> held = new java.util.TreeSet<>(
        Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
    long[] seq = new long[TIMER_RANK];
    long now = 0;
    Event ev = new Event();
    for (int round = 0; round < 3000; round++) {
      int phase = round / 500; // alternately few runs held and many
      int adds = phase % 2 == 0 ? (r.nextInt(4) == 0 ? 1 : 0) : 1 + r.nextInt(3);
      for (int k = 0; k < adds; k++) {
        int rank = r.nextInt(TIMER_RANK);
        int n = 1 + r.nextInt(phase % 2 == 0 ? 40 : 8);
        long[] t = new long[n];
        long cur = now + r.nextInt(50);
        for (int i = 0; i < n; i++) t[i] = cur += r.nextInt(phase % 2 == 0 ? 2 : 400);
        q.addRun(batch(rank, seq[rank], t), rank, rank, rank);
        for (int i = 0; i < n; i++) held.add(new long[] {t[i], Tie.of(rank, seq[rank] + i), seq[rank] + i});
        seq[rank] += n;
      }
      if (r.nextInt(20) == 0) {
        long t = now + r.nextInt(100);
        long h = q.schedule(t, 2, -round, 0, 0, 0, null);
        held.add(new long[] {t, Tie.of(TIMER_RANK, h), -round});
      }
      int pops = Math.min(held.size(), phase % 2 == 0 ? 1 + r.nextInt(30) : r.nextInt(3));
      for (int k = 0; k < pops; k++) {
        long[] e = held.pollFirst();
        assertEquals(e[0], q.headTime());
        assertEquals(e[1], q.pop(ev), "tie at t=" + e[0] + ", round " + round);
        assertEquals(e[2], ev.a());
        now = e[0];
      }
      assertEquals(held.size(), q.size());
    }
    expectInOrder(q, new ArrayList<>(held));
  }

  @Test
  void atOneInstantArrivalsComeBeforeTimers() {
    EventQueue q = new EventQueue(5, TIMER_RANK);
    long timer = q.schedule(100, 2, 7, 0, 0, 0, null);
    q.addRun(batch(TIMER_RANK - 1, 0, 100), 0, TIMER_RANK - 1, 9);
    Event ev = new Event();
    q.pop(ev);
    assertEquals(9, ev.sender());
    assertEquals(0, ev.port());
    q.pop(ev);
    assertEquals(5, ev.sender());
    assertEquals(Context.SELF_PORT, ev.port());
    assertEquals(7, ev.a());
    assertFalse(q.cancel(timer), "a timer that fired cannot be cancelled");
  }

  @Test
  void cancelledTimersNeverFireAndTheRestKeepTheirOrder() {
    SplittableRandom r = new SplittableRandom(8);
    EventQueue q = new EventQueue(0, 0);
    List<long[]> live = new ArrayList<>();
    List<Long> handles = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      long t = r.nextInt(100);
      long h = q.schedule(t, 2, i, 0, 0, 0, null);
      handles.add(h);
      live.add(new long[] {t, Tie.of(0, h), i});
    }
    for (int i = 0; i < 500; i += 3) {
      assertTrue(q.cancel(handles.get(i)));
      assertFalse(q.cancel(handles.get(i)), "cancelled twice");
      final long h = handles.get(i);
      live.removeIf(e -> e[1] == Tie.of(0, h));
    }
    expectInOrder(q, live);
  }

  @Test
  void aRestoredQueuePopsIdentically() {
    SplittableRandom r = new SplittableRandom(2);
    EventQueue q = new EventQueue(1, 2);
    long s0 = 0, s1 = 0;
    for (int i = 0; i < 40; i++) {
      long[] t = new long[5];
      long cur = r.nextInt(500);
      for (int j = 0; j < 5; j++) t[j] = cur += r.nextInt(4);
      if (i % 2 == 0) {
        q.addRun(batch(0, s0, t), 0, 0, 7);
        s0 += 5;
      } else {
        q.addRun(batch(1, s1, t), 1, 1, 8);
        s1 += 5;
      }
      q.schedule(r.nextInt(600), 2, i, i, i, i, null);
    }
    Event ev = new Event();
    for (int i = 0; i < 70; i++) q.pop(ev);
    EventQueue copy = new EventQueue(1, 2);
    copy.restore(q.state(), (c, rest) -> c.addRun(rest, rest.link(), rest.link(), rest.link() + 7));
    assertEquals(q.size(), copy.size());
    Event other = new Event();
    while (q.size() > 0) {
      assertEquals(q.pop(ev), copy.pop(other));
      assertEquals(ev.time(), other.time());
      assertEquals(ev.a(), other.a());
      assertEquals(ev.sender(), other.sender());
      assertEquals(ev.port(), other.port());
    }
  }

  @Test
  void outboxSortsStablyAndAllocatesOptionalColumnsOnlyWhenUsed() {
    Outbox o = new Outbox(3);
    long[] t = {5, 3, 5, 1, 3, 5, 0};
    for (int i = 0; i < t.length; i++) o.add(t[i], 1, i, 0, 0, 0, null);
    EventBatch b = o.drain(7);
    assertEquals(List.of(6L, 3L, 1L, 4L, 0L, 2L, 5L), Arrays.stream(b.a()).boxed().toList());
    assertEquals(null, b.c());
    assertEquals(null, b.payload());
    assertEquals(7, b.window());
    assertEquals(0, b.firstSeq());
    o.add(9, 1, 0, 0, 0, 4, null);
    o.add(8, 1, 1, 0, 0, 0, new ToyModels.Nothing());
    EventBatch c = o.drain(8);
    assertEquals(7, c.firstSeq());
    assertEquals(List.of(0L, 4L), Arrays.stream(c.d()).boxed().toList());
    assertTrue(c.payload()[0] instanceof ToyModels.Nothing);
    assertEquals(null, c.payload()[1]);
  }
}
