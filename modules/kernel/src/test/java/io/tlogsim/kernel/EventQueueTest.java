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
    EventQueue q = new EventQueue(4);
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
}
