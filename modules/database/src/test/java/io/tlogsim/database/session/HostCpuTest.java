package io.tlogsim.database.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** C cores, first come first served: who runs when, who waits how long. */
class HostCpuTest {

  @Test
  void twoCoresServeThreeRequestsInArrivalOrder() {
    HostCpu cpu = new HostCpu(2);
    assertEquals(100, cpu.run(0, 100)); // core 1
    assertEquals(110, cpu.run(10, 100)); // core 2
    assertEquals(200, cpu.run(20, 100)); // waits 80 for core 1
    assertEquals(1, cpu.waits());
    assertEquals(80, cpu.waitNanos());
    assertEquals(300, cpu.busyNanos());
    assertEquals(210, cpu.run(110, 100), "core 2 is free at 110: no wait");
    assertEquals(1, cpu.waits());
  }

  @Test
  void zeroCoresMeanAsManyAsNeededAndZeroCostNeedsNoCore() {
    HostCpu unlimited = new HostCpu(0);
    for (int i = 0; i < 100; i++) assertEquals(50, unlimited.run(0, 50));
    assertEquals(0, unlimited.waits());
    HostCpu one = new HostCpu(1);
    one.run(0, 1000);
    assertEquals(5, one.run(5, 0), "nothing to run: no core taken, no wait");
    assertEquals(0, one.waits());
  }

  @Test
  void aSaturatedHostRunsAtItsCapacity() {
    HostCpu cpu = new HostCpu(4);
    long end = 0;
    for (int i = 0; i < 4000; i++) end = Math.max(end, cpu.run(0, 50_000));
    assertEquals(1000L * 50_000, end, "4,000 jobs of 50 us on 4 cores take 50 ms");
  }
}
