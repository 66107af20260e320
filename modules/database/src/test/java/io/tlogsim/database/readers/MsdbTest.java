package io.tlogsim.database.readers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.Topology;
import io.tlogsim.storage.DeviceProtocol;
import java.util.List;
import org.junit.jupiter.api.Test;

/** msdb's backup history (REFERENCE.md 3, 5.4): the rows' cost comes from the rows already in the table. */
class MsdbTest {
  static final Msdb.Config CFG = new Msdb.Config(3.75, 20, 40, 300, 200, 61_440, 512, 32, 8192, 9);

  /** Two backups' history of {@code rows} each, one after the other (the second asked when the first is written). */
  static Msdb.Stats twoHistories(long rows) {
    Topology.Builder tb = Topology.builder();
    int agent = tb.component("agent", Msdb.REPLIES, Msdb.REQUESTS);
    int msdb = tb.component("msdb", List.of(Msdb.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(Msdb.REPLIES, DeviceProtocol.REQUESTS));
    int disk = tb.component("disk", DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS);
    int toMsdb = tb.link(agent, msdb, Msdb.REQUESTS_PORT, ReaderRig.LINK);
    int toAgent = tb.link(msdb, agent, 0, ReaderRig.LINK);
    int toDisk = tb.link(msdb, disk, 0, ReaderRig.LINK);
    tb.link(disk, msdb, Msdb.DEVICE_PORT, 1_000_000);
    ReaderRig.Driver driver = new ReaderRig.Driver(ctx -> ctx.send(toMsdb, ReaderRig.LINK, Msdb.WRITE, 0, rows),
        (ctx, ev) -> {
          if (ev.a() == 0) ctx.send(toMsdb, ctx.now() + ReaderRig.LINK, Msdb.WRITE, 1, rows);
        });
    RunOutcome out = Simulation.run(tb.build(), List.of(driver, new Msdb(CFG, toDisk, toAgent, ReaderRig.LINK),
        new ReaderRig.Disk(1_000_000, 50)), RunSettings.of(1_000_000_000_000L, 1, 1));
    return (Msdb.Stats) out.results().get(msdb);
  }

  @Test
  void aRowCostsMoreTheMoreRowsTheTableHolds() {
    Msdb.Stats s = twoHistories(4001);
    Msdb.History first = s.histories().get(0), second = s.histories().get(1);
    assertEquals(4001, first.rows());
    assertEquals(0, first.rowsBefore());
    assertEquals(4001, second.rowsBefore(), "the second backup's rows go into a table that holds the first's");
    // row k looks at the k rows before it: 4,001 rows examine 4,001 x 4,000 / 2 rows, the next 4,001 three times that
    assertEquals(4001L * 4000 / 2, first.rowsExamined());
    assertEquals(3 * first.rowsExamined() + 4001, second.rowsExamined());
    double a = first.nanos() / 1e9, b = second.nanos() / 1e9;
    assertTrue(a > 29 && a < 32, "4,001 rows at 3.75 us per row examined: about 30 s, got " + a);
    assertTrue(b > 2.9 * a && b < 3.1 * a, "the second backup's rows take about three times as long: " + b + " s");
    assertEquals(8002, s.tableRows());
    assertEquals((8002 + 39) / 40, s.pages());
    assertTrue(first.logWrites() >= 4001L * 300 / 61_440, "the rows' log goes to msdb's log");
  }

  @Test
  void manyMoreRowsGrowMuchFasterThanLinearly() {
    double small = twoHistories(1000).histories().get(0).nanos(), large = twoHistories(8000).histories().get(0).nanos();
    assertTrue(large > 40 * small, "eight times the rows, " + large / small + " times the time");
  }
}
