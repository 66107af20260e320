package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  @Test
  void popsInTimeThenTieOrder() {
    SplittableRandom r = new SplittableRandom(1);
    EventQueue q = new EventQueue();
    List<long[]> added = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      long t = r.nextInt(200); // many equal times: ties decide
      long tie = ((long) r.nextInt(5) << 40) | i;
      q.add(t, tie, i, i * 3L, -i);
      added.add(new long[] {t, tie, i});
    }
    added.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
    for (long[] e : added) {
      assertEquals(e[0], q.headTime());
      assertEquals(e[1], q.headTie());
      assertEquals((int) e[2], q.headKind());
      assertEquals(e[2] * 3, q.headA());
      assertEquals(-e[2], q.headB());
      q.removeHead();
    }
    assertTrue(q.isEmpty());
    assertEquals(VirtualTime.NEVER, q.headTime());
  }

  @Test
  void restoredQueuePopsIdentically() {
    SplittableRandom r = new SplittableRandom(2);
    EventQueue q = new EventQueue();
    for (int i = 0; i < 300; i++) q.add(r.nextInt(50), i, i, i, i);
    for (int i = 0; i < 100; i++) q.removeHead();
    EventQueue copy = EventQueue.restore(q.state());
    assertEquals(q.size(), copy.size());
    while (!q.isEmpty()) {
      assertEquals(q.headTime(), copy.headTime());
      assertEquals(q.headTie(), copy.headTie());
      q.removeHead();
      copy.removeHead();
    }
  }

  @Test
  void runsAndSinglesMergeInOrder() {
    SplittableRandom r = new SplittableRandom(3);
    EventQueue q = new EventQueue();
    List<long[]> added = new ArrayList<>();
    long seq = 0;
    for (int batch = 0; batch < 200; batch++) {
      int rank = r.nextInt(4);
      long rankBits = (long) rank << 40;
      if (r.nextInt(5) == 0) { // a single event
        long t = r.nextInt(1000);
        q.add(t, rankBits | seq, 1, seq, 0);
        added.add(new long[] {t, rankBits | seq});
        seq++;
        continue;
      }
      int n = 1 + r.nextInt(30);
      long[] t = new long[n];
      long cur = r.nextInt(1000);
      for (int i = 0; i < n; i++) t[i] = cur += r.nextInt(3); // sorted, with equal times
      long first = seq;
      for (int i = 0; i < n; i++) added.add(new long[] {t[i], rankBits | (first + i)});
      seq += n;
      q.addRun(rankBits, first, t, new int[n], new long[n], new long[n]);
      if (r.nextInt(3) == 0 && !q.isEmpty()) { // pop some while adding: a drained run leaves the heap
        long[] min = added.stream().min(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1])).get();
        assertEquals(min[0], q.headTime());
        assertEquals(min[1], q.headTie());
        added.remove(min);
        q.removeHead();
      }
    }
    EventQueue copy = EventQueue.restore(q.state());
    added.sort(Comparator.<long[]>comparingLong(x -> x[0]).thenComparingLong(x -> x[1]));
    assertEquals(added.size(), q.size());
    for (long[] e : added) {
      assertEquals(e[0], q.headTime());
      assertEquals(e[1], q.headTie());
      assertEquals(e[0], copy.headTime());
      assertEquals(e[1], copy.headTie());
      q.removeHead();
      copy.removeHead();
    }
    assertTrue(q.isEmpty() && copy.isEmpty());
  }

  @Test
  void stableOrderKeepsEqualTimesInSendingOrder() {
    long[] t = {5, 3, 5, 1, 3, 5, 0};
    int[] order = Outbox.stableOrder(t);
    assertEquals(List.of(6, 3, 1, 4, 0, 2, 5), java.util.Arrays.stream(order).boxed().toList());
  }
}
