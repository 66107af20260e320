package io.tlogsim.database.logspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What recovery finds of a transaction in the log up to an LSN (a crash's hardened end, a backup's end). */
class TransactionTableTest {
  @Test
  void aLoserHasOnlyTheRowsWhoseRecordsLieInTheLogUpToTheEnd() {
    TransactionTable t = new TransactionTable(1);
    t.begin(0, 1000);
    t.changed(0, 0, 600, 85);
    t.logged(0, 1600);
    t.changed(0, 5000, 400, 85);
    t.logged(0, 2000);
    assertArrayEquals(new long[] {0, 600, 5000, 400}, t.losers(2000).get(0).rowRanges(), "all of it in the log");
    // three quarters of its log: the oldest 750 rows (its records spread evenly over its log)
    List<TransactionTable.Txn> at1750 = t.losers(1750);
    assertArrayEquals(new long[] {0, 600, 5000, 150}, at1750.get(0).rowRanges());
    assertEquals(1750, at1750.get(0).lastLsn());
    assertArrayEquals(new long[] {0, 250}, t.losers(1250).get(0).rowRanges());
    assertEquals(0, t.losers(1000).size(), "nothing of it in the log: nothing to undo");
  }
}
