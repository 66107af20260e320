package io.tlogsim.database.readers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.logspace.LogSpace.ReadPiece;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.Topology;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Crash recovery as ARIES does it (REFERENCE.md 3), against a log manager stand-in and a simple disk. */
class RecoveryManagerTest {
  static final long MB = 1L << 20;
  static final RecoveryManager.Config CFG = new RecoveryManager.Config(1 << 20, 4, 8192, 200, 50, 8);

  record Run(RecoveryManager.Recovery recovery, List<ReaderRig.Got> toLogManager, List<ReaderRig.Got> disk) {}

  /** The log in VLFs of 64 MB on device 0, the data pages on device 1 (the same disk here). */
  static List<ReadPiece> log(long from, long to) {
    List<ReadPiece> out = new ArrayList<>();
    long vlf = 64 * MB;
    for (long at = from; at < to; ) {
      long start = at / vlf * vlf, end = Math.min(to, start + vlf);
      out.add(new ReadPiece(0, 2, start, at, end - at));
      at = end;
    }
    return out;
  }

  static Run recover(RecoveryPlan plan) {
    Topology.Builder tb = Topology.builder();
    int lm = tb.component("log-manager", RecoveryProtocol.REPLIES, RecoveryProtocol.REQUESTS);
    int rm = tb.component("recovery-manager", List.of(RecoveryProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(RecoveryProtocol.REPLIES, DeviceProtocol.REQUESTS));
    int disk = tb.component("disk", DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS);
    int toRm = tb.link(lm, rm, RecoveryProtocol.REQUESTS_PORT, ReaderRig.LINK);
    int toLm = tb.link(rm, lm, 0, ReaderRig.LINK);
    int toDisk = tb.link(rm, disk, 0, ReaderRig.LINK);
    tb.link(disk, rm, RecoveryProtocol.DEVICE_PORT, 1_000_000);
    ReaderRig.Driver driver = new ReaderRig.Driver(
        ctx -> ctx.send(toRm, ReaderRig.LINK, RecoveryProtocol.RECOVER, 0, 0, 0, 0, plan), (ctx, ev) -> {
          if (ev.kind() == RecoveryProtocol.HARDEN) { // the compensation records are written: 10 ms
            ctx.send(toRm, ctx.now() + 10_000_000, RecoveryProtocol.HARDENED, 0, 0);
          }
        });
    RunOutcome out = Simulation.run(tb.build(), List.of(driver, new RecoveryManager(CFG, new int[] {toDisk, toDisk},
        toLm, ReaderRig.LINK), new ReaderRig.Disk(1_000_000, 50)), RunSettings.of(1_000_000_000_000L, 1, 1));
    RecoveryManager.Stats s = (RecoveryManager.Stats) out.results().get(rm);
    @SuppressWarnings("unchecked")
    List<ReaderRig.Got> got = (List<ReaderRig.Got>) out.results().get(lm);
    @SuppressWarnings("unchecked")
    List<ReaderRig.Got> requests = (List<ReaderRig.Got>) out.results().get(disk);
    return new Run(s.recoveries().get(0), got, requests);
  }

  static List<ReadPiece> headers(int vlfs) {
    List<ReadPiece> out = new ArrayList<>();
    for (int k = 0; k < vlfs; k++) out.add(new ReadPiece(0, 2, k * 64 * MB, k * 64 * MB, 0));
    return out;
  }

  static long[] pages(int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) out[i] = (1L << 40) + i * 8192L;
    return out;
  }

  @Test
  void redoReadsTheLogFromMinLsnAndTheDataPagesItComparesSoItTakesLongerThanAnalysis() {
    long end = 512 * MB;
    long[] neededAt = new long[1000];
    for (int i = 0; i < neededAt.length; i++) neededAt[i] = i * (end / neededAt.length);
    RecoveryPlan plan = new RecoveryPlan(end, 0, 0, headers(8), log(0, end), log(0, end), pages(1000), neededAt, 1000,
        1, 1, 8192, List.of(), 7);
    Run r = recover(plan);
    assertEquals(8, r.recovery().headerReads() - 16, "start-up reads every VLF header (and each phase its VLFs')");
    assertTrue(r.recovery().redoNanos() > r.recovery().analysisNanos() * 1.01, "redo also reads 1,000 pages");
    assertEquals(1000, r.recovery().pagesRead());
    assertEquals(7, r.recovery().rolledForward());
    assertEquals(0, r.recovery().undoNanos());
    assertEquals(RecoveryProtocol.DONE, r.toLogManager().get(r.toLogManager().size() - 1).kind());
  }

  @Test
  void undoWalksEachLoserBackWritingACompensationRecordPerChangeThroughTheLogManager() {
    long end = 256 * MB;
    List<ReadPiece> forward = log(0, end);
    List<ReadPiece> back = new ArrayList<>();
    for (int i = forward.size() - 1; i >= 0; i--) back.add(forward.get(i));
    RecoveryPlan.Loser loser = new RecoveryPlan.Loser(0, 0, end, back, new long[] {0, 5000, 0, 5000}, pages(100), 85);
    RecoveryPlan plan = new RecoveryPlan(end, end, 0, headers(4), List.of(), log(0, end), new long[0], new long[0], 0,
        1, 1, 8192, List.of(loser), 0);
    Run r = recover(plan);
    long clrs = 0;
    for (ReaderRig.Got g : r.toLogManager()) if (g.kind() == RecoveryProtocol.COMPENSATE) clrs += g.d();
    assertEquals(10_000, clrs, "one compensation record per change");
    assertEquals(10_000, r.recovery().compensationRecords());
    List<Integer> kinds = r.toLogManager().stream().map(ReaderRig.Got::kind).toList();
    assertTrue(kinds.indexOf(RecoveryProtocol.UNDONE) < kinds.indexOf(RecoveryProtocol.HARDEN));
    assertTrue(kinds.indexOf(RecoveryProtocol.HARDEN) < kinds.indexOf(RecoveryProtocol.DONE));
    assertTrue(r.recovery().undoNanos() > 256e6 / 50e6 * 1e9, "undo reads the loser's 256 MB at the disk's 50 MB/s");
    assertTrue(r.recovery().redoNanos() > 0, "redo from the loser's begin (MinLSN) reads its log too");
    // backward: the log reads of undo go from the end of the log to its start
    List<Long> undoReads = new ArrayList<>();
    for (ReaderRig.Got g : r.disk()) {
      if (g.kind() == DeviceProtocol.READ && g.b() == 1 << 20 && g.time() > r.recovery().crashNanos()
          + r.recovery().startDelayNanos() + r.recovery().analysisNanos() + r.recovery().redoNanos()) {
        undoReads.add(g.c());
      }
    }
    assertTrue(undoReads.size() > 100);
    assertTrue(undoReads.get(0) > undoReads.get(undoReads.size() - 1), "read backward");
    assertEquals(100, r.recovery().pagesRead(), "the pages redo did not bring in");
  }
}
