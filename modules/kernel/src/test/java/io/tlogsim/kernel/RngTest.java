package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RngTest {
  @Test
  void isBitForBitSplittableRandom() {
    for (long seed : new long[] {0, 1, 42, -7, Long.MAX_VALUE, Rng.seedFor(42, 3)}) {
      SplittableRandom ref = new SplittableRandom(seed);
      Rng rng = new Rng(seed);
      long[] arr = {seed};
      for (int i = 0; i < 1000; i++) {
        if (i % 2 == 0) {
          long r = ref.nextLong();
          assertEquals(r, rng.nextLong());
          assertEquals(r, Rng.nextLong(arr, 0));
        } else {
          double r = ref.nextDouble();
          assertEquals(r, rng.nextDouble());
          assertEquals(r, Rng.nextDouble(arr, 0));
        }
      }
    }
  }

  @Test
  void stateRestoresTheSequence() {
    Rng a = new Rng(99);
    for (int i = 0; i < 10; i++) a.nextLong();
    Rng b = new Rng(a.state());
    for (int i = 0; i < 10; i++) assertEquals(a.nextLong(), b.nextLong());
  }

  @Test
  void seedsDifferPerComponentAndRun() {
    assertNotEquals(Rng.seedFor(42, 0), Rng.seedFor(42, 1));
    assertNotEquals(Rng.seedFor(42, 0), Rng.seedFor(43, 0));
    assertEquals(Rng.seedFor(42, 5), Rng.seedFor(42, 5));
  }
}
