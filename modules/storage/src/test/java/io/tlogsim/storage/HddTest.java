package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The HDD (REFERENCE.md section 4): sequential I/O reaches the transfer rate, random I/O is bound by seek plus half a
 * rotation, two sequential streams on one drive are slower than one, a deep queue reorders.
 */
class HddTest {
  private static final long CAP = 146 * Rigs.GIB;
  private static final HddSpec SPEC = Rigs.hdd15k(CAP, 1);
  private static final DeviceSetup HDD = new DeviceSetup.OfHdd(SPEC);

  @Test
  void fifteenKRpmTurnsInFourMillisecondsAndSeeksAverageTheSpec() {
    assertEquals(4_000_000, SPEC.revolutionNanos(), "30/rpm x 1000 ms is half of it: 2 ms");
    Hdd hdd = new Hdd("h", SPEC);
    long tracks = SPEC.tracks();
    SplittableRandom r = new SplittableRandom(1);
    double sumRead = 0, sumWrite = 0;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      long a = r.nextLong(tracks), b = r.nextLong(tracks);
      sumRead += hdd.seekNanos(Math.abs(a - b), false);
      sumWrite += hdd.seekNanos(Math.abs(a - b), true);
    }
    assertEquals(3.3, sumRead / n / 1e6, 0.02, "average read seek, ms");
    assertEquals(3.8, sumWrite / n / 1e6, 0.02, "average write seek, ms");
    assertEquals(0.2, hdd.seekNanos(1, false) / 1e6, 0.01, "track to track, ms");
    assertEquals(0, hdd.seekNanos(0, true));
  }

  @Test
  void sequentialWritesReachTheTransferRate() {
    Rigs.Run r = Rigs.run(HDD, Rigs.job("write", 64 << 10, 2, 1, 10 * Rigs.GIB, 2), 2, 1);
    double mbPerSec = r.jobs().write().bytes() / 2e6;
    assertEquals(75, mbPerSec, 75 * 0.01, "MB/s of 64 KB sequential writes, two queued");
  }

  @Test
  void randomWritesAreBoundBySeekPlusHalfARotation() {
    Rigs.Run r = Rigs.run(HDD, Rigs.job("randwrite", 64 << 10, 4, 1, CAP, 20), 2, 1);
    double iops = Rigs.iops(r);
    double transferMs = 65536 / 75e6 * 1e3;
    double expected = 1000 / (3.8 + 2 + transferMs); // average write seek + half a rotation + transfer
    double bound = 1000 / (3.8 + 2);
    System.out.printf("HDD 15K random 64 KB writes: %.1f IOPS (seek + half rotation + transfer: %.1f)%n", iops,
        expected);
    assertEquals(expected, iops, expected * 0.03);
    assertTrue(iops < bound, "bounded by seek plus half a rotation: " + iops);
  }

  @Test
  void twoInterleavedSequentialStreamsAreSlowerThanOneOfTheSameBytes() {
    // one stream over 2 x 1 GiB, two in flight; against two streams of 1 GiB each, one in flight each, files apart
    Rigs.Run one = Rigs.run(HDD, Rigs.job("write", 64 << 10, 2, 1, 2 * Rigs.GIB, 2), 2, 1);
    Rigs.Run two = Rigs.run(HDD, Rigs.job("write", 64 << 10, 1, 2, 50 * Rigs.GIB, 2), 2, 1);
    double mbOne = one.jobs().write().bytes() / 2e6, mbTwo = two.jobs().write().bytes() / 2e6;
    System.out.printf("HDD sequential 64 KB writes: one stream %.1f MB/s, two interleaved streams %.1f MB/s%n",
        mbOne, mbTwo);
    assertTrue(mbTwo < mbOne / 2, "the head jumps between the two files: " + mbTwo + " vs " + mbOne);
  }

  @Test
  void oneSequentialWriteAtATimeLosesARevolutionEach() {
    // no write cache: the next write arrives after its sector has passed under the head, and waits for it to return
    Rigs.Run r = Rigs.run(HDD, Rigs.job("write", 64 << 10, 1, 1, Rigs.GIB, 2), 2, 1);
    double latencyMs = r.jobs().write().meanUs() / 1e3;
    assertEquals(4 + 65536 / 75e6 * 1e3, latencyMs, 0.1, "a revolution plus the transfer");
  }

  @Test
  void aDeepQueueReordersRandomReadsForShorterPositioning() {
    Rigs.Run fifo = Rigs.run(HDD, Rigs.job("randread", 8192, 32, 1, CAP, 10), 2, 1);
    Rigs.Run ncq = Rigs.run(new DeviceSetup.OfHdd(Rigs.hdd15k(CAP, 32)), Rigs.job("randread", 8192, 32, 1, CAP, 10),
        2, 1);
    System.out.printf("HDD 15K random 8 KB reads at 32 in flight: %.0f IOPS in arrival order, %.0f with NCQ%n",
        Rigs.iops(fifo), Rigs.iops(ncq));
    assertTrue(Rigs.iops(ncq) > 1.5 * Rigs.iops(fifo));
    assertEquals(ncq.jobs().ios(), ncq.device().reads());
  }

  @Test
  void aRequestThatContinuesTheQueuedOneNeedsNoSeekNoRotation() {
    List<Script.Req> reqs = List.of(new Script.Req(1_000, DeviceProtocol.WRITE, 65536, 0),
        new Script.Req(2_000, DeviceProtocol.WRITE, 65536, 65536),
        new Script.Req(3_000, DeviceProtocol.FLUSH, 0, 0));
    long[] t = Script.run(HDD, reqs, 100_000_000);
    long transfer = 65536L * 4_000_000 / SPEC.bytesPerTrack(); // 64 KiB of a 300,000-byte track at 4 ms a turn
    assertEquals(transfer, t[1] - t[0], 1, "the second write follows the first at once");
    assertEquals(t[1] + Hdd.MIN_SERVICE_NANOS, t[2], "a flush costs the least service: nothing is cached");
  }
}
