package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** GCM-1's device: latency + bytes / rate, one request at a time in arrival order; its statistics. */
class SimpleDeviceTest {
  private static final DeviceSetup DEV = new DeviceSetup.Simple(100_000, 200, Rigs.GIB);

  @Test
  void requestsQueueAndTakeLatencyPlusBytesOverRate() {
    // 61,440 bytes at 200 MB/s = 307,200 ns; the second waits for the first
    long[] t = Script.run(DEV, List.of(new Script.Req(1_000, DeviceProtocol.WRITE, 61_440, 0),
        new Script.Req(2_000, DeviceProtocol.WRITE, 512, 61_440)), 10_000_000);
    assertEquals(1_000 + 100_000 + 307_200, t[0]);
    assertEquals(t[0] + 100_000 + 2_560, t[1]);
  }

  @Test
  void itsStatisticsCountWhatCompleted() {
    Rigs.Run r = Rigs.run(DEV, Rigs.job("write", 4096, 4, 1, Rigs.GIB, 1), 2, 1);
    DeviceStats d = r.device();
    assertEquals(r.jobs().write().ios(), d.writes());
    assertEquals(1e9 / (100_000 + 20_480), d.writes(), 2, "one at a time, back to back");
    assertEquals(0, d.reads());
    // four in flight: each waits for three ahead of it, less the 1 us its job took to resubmit
    assertEquals(4 * 120.48 - 1, d.meanLatencyUs(), 0.1);
    assertEquals(1_000_000_000L, d.busyNanos(), 200_000);
  }
}
