package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HDD's buffers (REFERENCE.md section 4): read-ahead serves a sequential read stream from the drive's buffer
 * without a new rotation; a battery-backed write-back cache absorbs a burst at cache speed, then drains it at the
 * platters' rate; a failed battery is write-through.
 */
class HddBufferTest {
  private static final long CAP = 146 * Rigs.GIB;
  private static final HddSpec PLAIN = Rigs.hdd15k(CAP, 1);
  private static final long SEGMENT = 1 << 20;
  private static final HddSpec READ_AHEAD = PLAIN.with(SEGMENT, HddSpec.WriteCache.NONE, 0);
  private static final double TRANSFER_MS_64K = 65536 / 75e6 * 1e3;

  private static HddSpec cached(long cacheBytes, boolean battery) {
    return PLAIN.with(0, new HddSpec.WriteCache(true, battery, cacheBytes, 50_000, 1 << 20), 0);
  }

  @Test
  void aSequentialReadStreamIsServedFromTheTrackBufferWithoutARevolutionEach() {
    // one 64 KB read at a time: without read-ahead each arrives after its sector passed and waits a revolution
    Rigs.Run plain = Rigs.run(new DeviceSetup.OfHdd(PLAIN), Rigs.job("read", 64 << 10, 1, 1, Rigs.GIB, 2), 2, 1);
    Rigs.Run ahead = Rigs.run(new DeviceSetup.OfHdd(READ_AHEAD), Rigs.job("read", 64 << 10, 1, 1, Rigs.GIB, 2), 2, 1);
    double plainMs = plain.jobs().read().meanUs() / 1e3, aheadMs = ahead.jobs().read().meanUs() / 1e3;
    double aheadMBps = ahead.jobs().read().bytes() / 2e6;
    System.out.printf("HDD 64 KB sequential reads, one at a time: %.2f ms each without read-ahead, %.2f ms with"
        + " (%.1f MB/s)%n", plainMs, aheadMs, aheadMBps);
    assertEquals(4 + TRANSFER_MS_64K, plainMs, 0.1, "a revolution plus the transfer");
    assertEquals(TRANSFER_MS_64K, aheadMs, 0.05, "the head streams on: the transfer only");
    assertEquals(75, aheadMBps, 75 * 0.02, "the media rate");
    assertTrue(ahead.device().counter("readAheadHits") >= ahead.device().reads() - 1, "every read after the first");
  }

  @Test
  void aReadAfterAPauseFindsItsDataInTheBufferAndOneElsewhereSeeks() {
    // a 64 KB read, then 20 ms later (the 1 MiB segment is full after 14 ms) the next 64 KB: from the buffer at the
    // interface rate; then a read 10 GiB away: a seek and a rotation, as without read-ahead
    long x = 5 * Rigs.GIB;
    List<Script.Req> reqs = List.of(new Script.Req(1_000, DeviceProtocol.READ, 65536, x),
        new Script.Req(20_000_000, DeviceProtocol.READ, 65536, x + 65536),
        new Script.Req(40_000_000, DeviceProtocol.READ, 65536, x + 10 * Rigs.GIB));
    long[] t = Script.run(new DeviceSetup.OfHdd(READ_AHEAD), reqs, 100_000_000);
    long[] p = Script.run(new DeviceSetup.OfHdd(PLAIN), reqs, 100_000_000);
    long hit = t[1] - 20_000_000;
    long interface64k = (long) (65536 * 1e3 / READ_AHEAD.interfaceMBps());
    assertEquals(50_000 + interface64k, hit, 1_000, "command overhead + 64 KiB over the interface");
    assertTrue(p[1] - 20_000_000 > hit + 500_000 || p[1] - 20_000_000 > 3_000_000,
        "without read-ahead it waits for the sector: " + (p[1] - 20_000_000));
    long miss = t[2] - 40_000_000;
    assertTrue(miss > 1_000_000, "far away: a seek and a rotation, " + miss + " ns");
  }

  @Test
  void aWriteBackCacheAbsorbsABurstThenDrainsItAtThePlattersRate() {
    // 2,000 sequential 64 KiB writes at once into a 4 MiB cache: 64 complete at cache speed, the rest as destages
    // (merged up to 1 MiB, each continuing the last without a lost revolution) free room, at the media rate
    long cacheBytes = 4L << 20;
    int n = 2000;
    List<Script.Req> burst = new ArrayList<>();
    for (int i = 0; i < n; i++) burst.add(new Script.Req(1_000 + i, DeviceProtocol.WRITE, 65536, 65536L * i));
    long[] t = Script.run(new DeviceSetup.OfHdd(cached(cacheBytes, true)), burst, 3_000_000_000L);
    int fit = (int) (cacheBytes / 65536);
    for (int i = 0; i < fit; i++) assertEquals(1_000 + i + 50_000, t[i], "write " + i + " at cache latency");
    assertTrue(t[fit] > t[fit - 1] + 1_000_000, "the first write that finds the cache full waits for a destage: "
        + t[fit]);
    double drainMBps = (n - fit - 1) * 65536 / ((t[n - 1] - t[fit]) / 1e9) / 1e6;
    System.out.printf("HDD write-back cache: %d writes at cache latency, then %.1f MB/s while it drains%n", fit,
        drainMBps);
    assertEquals(75, drainMBps, 75 * 0.05, "the platters' sequential rate");
    assertTrue(Arrays.stream(t).allMatch(v -> v > 0), "every write completed");
  }

  @Test
  void oneSyncWriteAtATimeCompletesAtCacheSpeedAndDrainsBehind() {
    HddSpec wb = cached(512L << 20, true);
    Rigs.Run r = Rigs.run(new DeviceSetup.OfHdd(wb), Rigs.job("write", 512, 1, 1, Rigs.GIB, 2), 2, 1);
    Rigs.Run through = Rigs.run(new DeviceSetup.OfHdd(cached(512L << 20, false)),
        Rigs.job("write", 512, 1, 1, Rigs.GIB, 2), 2, 1);
    Rigs.Run plain = Rigs.run(new DeviceSetup.OfHdd(PLAIN), Rigs.job("write", 512, 1, 1, Rigs.GIB, 2), 2, 1);
    double wbUs = r.jobs().write().meanUs(), wtUs = through.jobs().write().meanUs();
    System.out.printf("HDD 512 B sync writes: %.1f us with the write-back cache, %.1f us write-through (battery"
        + " failed); %,d destages for %,d writes%n", wbUs, wtUs, r.device().counter("destages"), r.device().writes());
    assertEquals(50, wbUs, 1, "cache latency");
    assertEquals(plain.outcome().digestHex(), through.outcome().digestHex(), "a failed battery is write-through");
    assertTrue(wtUs > 3_900, "write-through: a lost revolution each, " + wtUs);
    assertTrue(r.device().counter("destages") < r.device().writes() / 10, "the cache merges what it drains");
    assertEquals(r.device().bytesWritten(), r.device().counter("destagedBytes"), 64 << 10,
        "drained behind, as fast as it comes (up to what is in flight at the end)");
  }
}
