package io.tlogsim.database.logspace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  /** A transaction of 1,000 rows logged over [1000, 2000], its rollback's records after it (as 9002's undo writes). */
  private static TransactionTable rollingBack() {
    TransactionTable t = new TransactionTable(1);
    t.begin(0, 1000);
    t.changed(0, 0, 600, 85);
    t.logged(0, 1600);
    t.changed(0, 5000, 400, 85);
    t.logged(0, 2000);
    t.compensated(0, 300, 2300); // the newest 300 rows' compensation records, ending at 2300
    t.logged(0, 2300);
    t.compensated(0, 300, 2600);
    t.logged(0, 2600);
    return t;
  }

  @Test
  void aCrashDuringARollbackFindsTheCompensationRecordsHardenedAndLeavesUndoTheOlderRows() {
    TransactionTable t = rollingBack();
    TransactionTable.Txn all = t.losers(2600).get(0);
    assertEquals(600, all.compensated(), "both batches hardened");
    assertArrayEquals(new long[] {0, 400}, all.rowRanges(), "the oldest 400 rows are left to undo");
    // the undo-next LSN: the 400 oldest rows' share of the changes' log [1000, 2000], spread evenly
    assertEquals(1400, all.undoNextLsn());
    TransactionTable.Txn half = t.losers(2450).get(0); // half of the second batch: spread evenly over it
    assertEquals(450, half.compensated());
    assertArrayEquals(new long[] {0, 550}, half.rowRanges());
    TransactionTable.Txn none = t.losers(2000).get(0);
    assertEquals(0, none.compensated(), "no compensation record in the log: undo writes them all");
    assertArrayEquals(new long[] {0, 600, 5000, 400}, none.rowRanges());
    for (long at : new long[] {2000, 2150, 2300, 2450, 2600}) { // found + left to undo = the changes, at any crash
      TransactionTable.Txn x = t.losers(at).get(0);
      long left = 0;
      for (int i = 1; i < x.rowRanges().length; i += 2) left += x.rowRanges()[i];
      assertEquals(1000, x.compensated() + left, "at " + at);
    }
  }

  @Test
  void compensationRecordsLostAtACrashAreNotFoundAndARollbackWhoseEndIsNotHardenedIsStillALoser() {
    TransactionTable t = rollingBack();
    t.crashed(2400); // a third of the second batch was hardened: the first batch and those 100 are found
    assertEquals(400, t.losers(Long.MAX_VALUE).get(0).compensated());
    TransactionTable v = rollingBack();
    v.crashed(2200); // none of the second batch, two thirds of the first
    assertEquals(200, v.losers(Long.MAX_VALUE).get(0).compensated());
    TransactionTable u = rollingBack();
    u.compensated(0, 400, 2800);
    u.logged(0, 2800);
    u.rolledBack(0, 2810, 2700); // its end record at 2810, the log hardened to 2700
    List<TransactionTable.Txn> at2700 = u.losers(2700);
    assertEquals(1, at2700.size(), "its end record is not in the log: recovery rolls it back");
    assertTrue(at2700.get(0).compensated() >= 600 && at2700.get(0).compensated() < 1000, at2700.toString());
    assertEquals(0, u.losers(2810).size(), "its end record is in the log: nothing to undo");
  }
}
