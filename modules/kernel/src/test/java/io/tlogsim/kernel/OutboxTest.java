package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OutboxTest {
  /**
   * Outboxes of every size the sort treats differently (insertion, radix, the merge sort of times too far apart to
   * pack), with few or many equal times, drained one after another from one outbox (its scratch reused, grown and
   * shrunk): each batch is the events in a stable sort by time, and no later drain changes an earlier batch.
   */
  @Test
  void drainsInStableTimeOrderWhateverTheSizeAndSpread() {
    SplittableRandom rnd = new SplittableRandom(26);
    Outbox o = new Outbox(0);
    long seq = 0;
    List<EventBatch> batches = new ArrayList<>();
    List<long[]> expectedA = new ArrayList<>();
    int[] sizes = {1, 2, 7, 48, 49, 105, 300, 5000, 20, 3, 1000};
    long[] spans = {3, 1L << 10, 16_000_000, 1L << 41, 1L << 50};
    for (int n : sizes) {
      for (long span : spans) {
        long base = 1_000_000_000L;
        long[] t = new long[n];
        for (int i = 0; i < n; i++) t[i] = base + rnd.nextLong(span);
        for (int i = 0; i < n; i++) o.add(t[i], i % 5, i, -i, i % 3 == 0 ? i + 1 : 0, 0, null);
        EventBatch b = o.drain(seq);
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < n; i++) idx.add(i);
        idx.sort(Comparator.comparingLong(i -> t[i])); // List.sort is stable
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
          int j = idx.get(i);
          a[i] = j;
          assertEquals(t[j], b.time()[i], "n " + n + " span " + span + " event " + i);
          assertEquals(j % 5, b.kind()[i]);
          assertEquals(-j, b.b()[i]);
          assertEquals(j % 3 == 0 ? j + 1 : 0, b.c()[i]);
        }
        assertArrayEquals(a, b.a(), "n " + n + " span " + span);
        assertEquals(seq, b.firstSeq());
        seq += n;
        batches.add(b);
        expectedA.add(a);
      }
    }
    for (int k = 0; k < batches.size(); k++) assertArrayEquals(expectedA.get(k), batches.get(k).a());
  }
}
