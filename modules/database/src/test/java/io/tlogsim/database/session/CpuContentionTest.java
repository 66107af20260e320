package io.tlogsim.database.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A session's CPU by the number of sessions wanting the cores: the curve, and HostCpu's count of who wants them. */
class CpuContentionTest {

  @Test
  void theFactorIsLinearInLog2BetweenMeasuredCountsAndTheNearestBeyond() {
    CpuContention c = new CpuContention(new int[] {2, 8, 64}, new double[] {1.0, 2.0, 0.5});
    assertEquals(1.0, c.factor(1), 0, "below the first count: the first");
    assertEquals(1.0, c.factor(2), 0);
    assertEquals(1.5, c.factor(4), 1e-12, "4 is halfway from 2 to 8 in log2");
    assertEquals(2.0, c.factor(8), 0);
    assertEquals(1.5, c.factor(16), 1e-12, "16 is a third of the way from 8 to 64 in log2");
    assertEquals(0.5, c.factor(1000), 0, "beyond the last count: the last");
    assertEquals(1.0, CpuContention.NONE.factor(50), 0);
    assertThrows(IllegalArgumentException.class, () -> new CpuContention(new int[] {4, 2}, new double[] {1, 1}));
    assertThrows(IllegalArgumentException.class, () -> new CpuContention(new int[] {1}, new double[] {0}));
  }

  /**
   * Work booked while others' work is booked and not done costs the factor at their number plus one; once it is done
   * they no longer count; a snapshot taken between keeps the count.
   */
  @Test
  void workCostsTheFactorAtTheSessionsWhoseWorkIsBookedAndNotDone() {
    CpuContention c = new CpuContention(new int[] {1, 2, 4}, new double[] {1.0, 2.0, 3.0});
    HostCpu cpu = new HostCpu(1, c);
    assertEquals(100, cpu.runContended(0, 100), "alone: the nominal cost");
    assertEquals(300, cpu.runContended(10, 100), "one other wants the core (it runs until 100): twice, queued after it");
    assertEquals(1, cpu.wanting(250), "at 250 only the second is not done");
    HostCpu copy = new HostCpu(1, c);
    copy.restore(cpu.snapshot());
    // at 50 both are booked and not done: the third wants the core with two others (factor at 3, linear in log2)
    long third = Math.round(100 * (2.0 + (Math.log(3) / Math.log(2) - 1)));
    assertEquals(300 + third, cpu.runContended(50, 100), "after the 300 booked");
    assertEquals(300 + third, copy.runContended(50, 100), "the same after a snapshot and restore");
    assertEquals(700, cpu.runContended(600, 100), "alone again once the others are done");
    assertEquals(100 + 200 + third + 100, cpu.busyNanos());
    // without contention the same calls cost the nominal
    HostCpu plain = new HostCpu(1);
    assertEquals(100, plain.runContended(0, 100));
    assertEquals(200, plain.runContended(10, 100));
  }
}
