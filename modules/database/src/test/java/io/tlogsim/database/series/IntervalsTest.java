package io.tlogsim.database.series;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.kernel.VirtualTime;
import org.junit.jupiter.api.Test;

class IntervalsTest {
  private static final long MS = VirtualTime.NS_PER_MS;

  @Test
  void aboutAHundredRoundIntervalsOfAtLeastOneMillisecond() {
    assertEquals(20 * MS, Intervals.step(VirtualTime.seconds(2)));
    assertEquals(500 * MS, Intervals.step(VirtualTime.seconds(30)));
    assertEquals(1000 * MS, Intervals.step(VirtualTime.seconds(60)));
    assertEquals(1000 * MS, Intervals.step(VirtualTime.seconds(2100))); // a limit, maybe far from the run's end
    assertEquals(1000 * MS, Intervals.step(VirtualTime.seconds(7200)));
    assertEquals(1000 * MS, Intervals.step(VirtualTime.seconds(10_000)));
    assertEquals(2000 * MS, Intervals.step(VirtualTime.seconds(10_001)));
    assertEquals(10_000 * MS, Intervals.step(VirtualTime.seconds(100_000)));
    assertEquals(MS, Intervals.step(VirtualTime.seconds(0.01)));
  }

  @Test
  void theWarmupEndsAnIntervalAndTheLastRunsToTheEnd() {
    long step = 20 * MS, end = VirtualTime.seconds(2), warmup = 35 * MS;
    assertEquals(20 * MS, Intervals.next(0, step, warmup, end));
    assertEquals(35 * MS, Intervals.next(20 * MS, step, warmup, end));
    assertEquals(40 * MS, Intervals.next(35 * MS, step, warmup, end));
    assertEquals(VirtualTime.NEVER, Intervals.next(1980 * MS, step, warmup, end));
  }
}
