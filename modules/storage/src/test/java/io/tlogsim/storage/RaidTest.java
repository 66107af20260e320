package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The RAID controller: layouts, write penalties, mirrors, read-modify-write, write-back cache. */
class RaidTest {
  private static final long STRIPE = 64 << 10;

  static RaidSpec spec(int level, int members, long memberCap, boolean writeBack, boolean battery, long cacheBytes) {
    return new RaidSpec(level, members, STRIPE, memberCap, writeBack, battery, cacheBytes, 50_000, 20_000, 4);
  }

  private static List<RaidLayout.MemberIo> plan(int level, int members, int kind, long offset, long bytes) {
    RaidLayout l = new RaidLayout(spec(level, members, 100 * Rigs.GIB, false, true, 0));
    return l.plan(kind, offset, bytes, (first, step, count) -> first);
  }

  @Test
  void aSmallRandomWriteCostsTheLevelsWritePenalty() {
    int[][] levels = {{0, 4, 1}, {1, 2, 2}, {10, 4, 2}, {5, 5, 4}, {6, 6, 6}}; // level, members, back-end I/Os
    for (int[] l : levels) {
      List<RaidLayout.MemberIo> w = plan(l[0], l[1], DeviceProtocol.WRITE, 3 * STRIPE + 4096, 8192);
      assertEquals(l[2], w.size(), "RAID " + l[0] + " write: " + w);
      assertEquals(l[2], spec(l[0], l[1], Rigs.GIB, false, true, 0).writePenalty());
      List<RaidLayout.MemberIo> r = plan(l[0], l[1], DeviceProtocol.READ, 3 * STRIPE + 4096, 8192);
      assertEquals(1, r.size(), "RAID " + l[0] + " read goes to one member");
    }
  }

  @Test
  void raidFiveReadsOldDataAndParityThenWritesBoth() {
    // row 0 of 5 members: parity on member 4 (left-symmetric), data strips 0..3 on members 0..3
    List<RaidLayout.MemberIo> w = plan(5, 5, DeviceProtocol.WRITE, 2 * STRIPE + 4096, 8192);
    assertEquals(List.of(
        new RaidLayout.MemberIo(2, DeviceProtocol.READ, 4096, 8192, 0),
        new RaidLayout.MemberIo(4, DeviceProtocol.READ, 4096, 8192, 0),
        new RaidLayout.MemberIo(2, DeviceProtocol.WRITE, 4096, 8192, 1),
        new RaidLayout.MemberIo(4, DeviceProtocol.WRITE, 4096, 8192, 1)), w);
    // row 1's parity moves to member 3, its first data strip to member 4
    List<RaidLayout.MemberIo> row1 = plan(5, 5, DeviceProtocol.READ, 4 * STRIPE, 4096);
    assertEquals(4, row1.get(0).member());
    assertEquals(STRIPE, row1.get(0).offset());
  }

  @Test
  void aWholeRowIsWrittenWithItsParityWithoutReading() {
    List<RaidLayout.MemberIo> w = plan(5, 5, DeviceProtocol.WRITE, 0, 4 * STRIPE);
    assertEquals(5, w.size(), "4 data strips and the parity");
    assertTrue(w.stream().allMatch(io -> io.kind() == DeviceProtocol.WRITE && io.phase() == 0));
    List<RaidLayout.MemberIo> two = plan(6, 6, DeviceProtocol.WRITE, 0, 8 * STRIPE);
    assertEquals(6, two.size(), "RAID 6, two whole rows: each member's two strips merge into one I/O");
    assertTrue(two.stream().allMatch(io -> io.bytes() == 2 * STRIPE));
  }

  @Test
  void stripingSpreadsAndMergesWhatFollowsOnOneMember() {
    List<RaidLayout.MemberIo> r = plan(0, 4, DeviceProtocol.READ, 0, 8 * STRIPE);
    assertEquals(4, r.size());
    for (RaidLayout.MemberIo io : r) assertEquals(2 * STRIPE, io.bytes());
    List<RaidLayout.MemberIo> r10 = plan(10, 4, DeviceProtocol.WRITE, STRIPE, STRIPE);
    assertEquals(List.of(2, 3), r10.stream().map(RaidLayout.MemberIo::member).toList(), "pair 1: members 2 and 3");
  }

  private static DeviceSetup.OfRaid raidOfHdd(int level, int members, boolean writeBack, boolean battery,
      long cacheBytes) {
    HddSpec disk = Rigs.hdd15k(146 * Rigs.GIB, 1);
    return new DeviceSetup.OfRaid(spec(level, members, disk.capacityBytes(), writeBack, battery, cacheBytes),
        new DeviceSetup.OfHdd(disk));
  }

  @Test
  void backEndIosFollowThePenaltyAndReadsUseBothMirrors() {
    DeviceSetup.OfRaid r1 = raidOfHdd(1, 2, false, true, 0);
    Rigs.Run run = Rigs.run(r1, Rigs.job("randrw", 64 << 10, 16, 1, 100 * Rigs.GIB, 5), 2, 1);
    DeviceStats ctl = run.device();
    assertEquals(run.jobs().read().ios(), ctl.reads());
    long expectBackend = ctl.reads() + 2 * ctl.writes();
    long backend = ctl.counter("backendReads") + ctl.counter("backendWrites");
    assertEquals(expectBackend, backend, 16 * 2, "reads once, writes twice (a few in flight at the end)");
    DeviceStats m0 = run.device("dev-m0"), m1 = run.device("dev-m1");
    assertTrue(m0.reads() > ctl.reads() / 3 && m1.reads() > ctl.reads() / 3, "both mirrors read: " + m0.reads()
        + " and " + m1.reads());
    assertEquals(ctl.writes(), Math.min(m0.writes(), m1.writes()), 16, "every write on both mirrors");
  }

  @Test
  void writeBackCacheCompletesAtCacheLatencyWriteThroughAtTheMembers() {
    // a RAID 10 log: one 60 KB sequential write in flight, for 0.2 s (the 512 MiB cache does not fill in that time)
    Rigs.Run cached = Rigs.run(raidOfHdd(10, 4, true, true, 512L << 20),
        Rigs.job("write", 60 << 10, 1, 1, Rigs.GIB, 0.2), 2, 1);
    Rigs.Run through = Rigs.run(raidOfHdd(10, 4, false, true, 512L << 20),
        Rigs.job("write", 60 << 10, 1, 1, Rigs.GIB, 0.2), 2, 1);
    Rigs.Run noBattery = Rigs.run(raidOfHdd(10, 4, true, false, 512L << 20),
        Rigs.job("write", 60 << 10, 1, 1, Rigs.GIB, 0.2), 2, 1);
    double cachedUs = cached.jobs().write().meanUs(), throughUs = through.jobs().write().meanUs();
    System.out.printf("RAID 10 log write latency: write-back %.1f us, write-through %.1f us, battery failed %.1f us%n",
        cachedUs, throughUs, noBattery.jobs().write().meanUs());
    assertEquals(1 + 50, cachedUs, 0.001, "submit + cache latency");
    assertEquals(0, cached.device().counter("cacheFullWaits"));
    DeviceStats member = through.device("dev-m0");
    assertEquals(1 + 20 + member.meanLatencyUs() + 20, throughUs, throughUs * 0.02,
        "submit + controller + member + controller");
    assertTrue(throughUs > 3000, "a member write waits for its sector: milliseconds");
    assertEquals(throughUs, noBattery.jobs().write().meanUs(), throughUs * 0.02, "no battery: write-through");
    assertEquals(0, through.device().counter("cachedWrites"));
  }

  @Test
  void aFullCacheHoldsWritesUntilDestagesMakeRoom() {
    Rigs.Run r = Rigs.run(raidOfHdd(10, 4, true, true, 1 << 20), Rigs.job("randwrite", 64 << 10, 64, 1,
        290 * Rigs.GIB, 5), 2, 1);
    DeviceStats ctl = r.device();
    assertTrue(ctl.counter("cacheFullWaits") > ctl.writes() / 2, "most writes wait for room: "
        + ctl.counter("cacheFullWaits"));
    // destage-bound: 4 disks, each write on 2 of them, ~6.7 ms per random 64 KB write over the whole disk: 300 IOPS
    double iops = Rigs.iops(r);
    assertTrue(iops > 250 && iops < 330, "IOPS " + iops);
    assertTrue(r.jobs().write().meanUs() > 100_000, "writes wait behind the full cache");
  }

  @Test
  void writeThroughFlushReachesEveryMemberAndWriteBackFlushDoesNot() {
    List<Script.Req> reqs = List.of(new Script.Req(1_000, DeviceProtocol.FLUSH, 0, 0));
    long[] wb = Script.run(raidOfHdd(5, 3, true, true, 1 << 20), reqs, 10_000_000);
    long[] wt = Script.run(raidOfHdd(5, 3, false, true, 1 << 20), reqs, 10_000_000);
    assertEquals(1_000 + 50_000, wb[0], "battery-backed cache: done at cache latency");
    assertEquals(1_000 + 20_000 + 50_000 + 20_000, wt[0], "controller, each member's command overhead, controller");
  }

  @Test
  void raidFiveRandomWritesPayTheReadModifyWrite() {
    Rigs.Run r0 = Rigs.run(raidOfHdd(0, 4, false, true, 0), Rigs.job("randwrite", 8192, 64, 1, 100 * Rigs.GIB, 10),
        2, 1);
    Rigs.Run r5 = Rigs.run(raidOfHdd(5, 4, false, true, 0), Rigs.job("randwrite", 8192, 64, 1, 100 * Rigs.GIB, 10),
        2, 1);
    double ratio = Rigs.iops(r0) / Rigs.iops(r5);
    System.out.printf("4 disks, random 8 KB writes: RAID 0 %.0f IOPS, RAID 5 %.0f IOPS (%.2f x)%n", Rigs.iops(r0),
        Rigs.iops(r5), ratio);
    assertTrue(ratio > 3 && ratio < 5, "about the penalty of 4: " + ratio);
    assertEquals(2 * r5.device().writes(), r5.device().counter("backendReads"), 64 * 2);
  }
}
