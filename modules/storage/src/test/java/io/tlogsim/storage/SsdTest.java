package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The SSD: latency by kind, parallel channels, a shared interface's bandwidth, flush with and without PLP. */
class SsdTest {
  private static final DeviceSetup PLP = new DeviceSetup.OfSsd(Rigs.ssd(true));

  @Test
  void oneReadAtATimeTakesTransferPlusReadLatency() {
    Rigs.Run r = Rigs.run(PLP, Rigs.job("randread", 4096, 1, 1, 1L << 30, 0.5), 2, 1);
    // submit 1 us + 4,096 B at 2,000 MB/s (2.048 us) + 80 us read: every I/O the same
    double expectUs = 1 + 4096 / 2000.0 + 80;
    assertEquals(expectUs, r.jobs().read().percentileUs(50), 0.001);
    assertEquals(expectUs, r.jobs().read().latencyMaxNanos() / 1e3, 0.001);
    assertEquals(0, r.jobs().write().ios());
    assertEquals(r.jobs().ios(), r.device().reads());
  }

  @Test
  void queueDepthThirtyTwoIsBoundByChannelsOverLatency() {
    Rigs.Run r = Rigs.run(PLP, Rigs.job("randread", 4096, 32, 1, 1L << 30, 1), 2, 1);
    double bound = 8 / 80e-6; // 8 channels, 80 us each: 100,000 IOPS
    assertEquals(bound, Rigs.iops(r), bound * 0.01, "IOPS");
    // Little's law: 32 in flight at 100,000 IOPS is 320 us each
    assertEquals(320, r.jobs().read().meanUs(), 320 * 0.02);
  }

  @Test
  void largeSequentialReadsAreBoundByBandwidth() {
    Rigs.Run r = Rigs.run(PLP, Rigs.job("read", 128 << 10, 32, 1, 1L << 30, 1), 2, 1);
    double mbPerSec = r.jobs().read().bytes() / 1e6;
    assertEquals(2000, mbPerSec, 2000 * 0.01, "MB/s");
    assertEquals(r.device().bytesRead(), r.jobs().read().bytes());
  }

  @Test
  void aFlushWaitsForWhatCameBeforeItThenCostsThePlpOrNoPlpLatency() {
    List<Script.Req> reqs = List.of(
        new Script.Req(1_000, DeviceProtocol.WRITE, 4096, 0),
        new Script.Req(2_000, DeviceProtocol.FLUSH, 0, 0),
        new Script.Req(1_000_000, DeviceProtocol.FLUSH, 0, 0));
    long[] plp = Script.run(PLP, reqs, 50_000_000);
    long[] noPlp = Script.run(new DeviceSetup.OfSsd(Rigs.ssd(false)), reqs, 50_000_000);
    long writeDone = 1_000 + 2_048 + 20_000;
    assertEquals(writeDone, plp[0]);
    assertEquals(writeDone + 35_000, plp[1], "PLP flush after the write it follows");
    assertEquals(1_000_000 + 35_000, plp[2], "PLP flush of an idle drive");
    assertEquals(writeDone + 2_200_000, noPlp[1], "no PLP: the cache goes to flash");
    assertEquals(noPlp[1] + 2_200_000, noPlp[2], "no PLP: the second flush waits for the first, still running");
  }

  @Test
  void channelsServeInParallel() {
    // eight reads at once use eight channels: all done together; the ninth waits for a channel
    List<Script.Req> reqs = new java.util.ArrayList<>();
    for (int i = 0; i < 9; i++) reqs.add(new Script.Req(1_000, DeviceProtocol.READ, 0, i * 4096L));
    long[] t = Script.run(PLP, reqs, 10_000_000);
    for (int i = 0; i < 8; i++) assertEquals(81_000, t[i], "read " + i);
    assertEquals(161_000, t[8]);
  }

  @Test
  void statisticsCountWhatCompletedAndTheSeriesAddsUp() {
    Rigs.Run r = Rigs.run(PLP, Rigs.job("randrw", 8192, 16, 2, 1L << 28, 3), 2, 1);
    DeviceStats d = r.device();
    assertEquals(r.jobs().read().ios(), d.reads());
    assertEquals(r.jobs().write().ios(), d.writes());
    assertTrue(d.reads() > 0 && d.writes() > 0);
    long sum = 0, bytes = 0;
    for (int s = 0; s < d.series().seconds(); s++) {
      sum += d.series().ios(s);
      bytes += d.series().bytes()[s];
    }
    assertEquals(3, d.series().seconds());
    assertEquals(d.reads() + d.writes(), sum);
    assertEquals(d.bytesRead() + d.bytesWritten(), bytes);
    assertEquals(32, d.series().meanQueueDepth(1), 0.5, "32 I/Os in flight, nearly all at the device");
    assertTrue(d.latencyPercentileUs(99) >= d.latencyPercentileUs(50));
    assertEquals(1.0, d.busyNanos() / 3e9, 0.001, "always busy");
  }
}
