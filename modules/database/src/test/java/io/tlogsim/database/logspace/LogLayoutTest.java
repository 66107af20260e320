package io.tlogsim.database.logspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogLayoutTest {
  private static final long MB = 1L << 20;
  private static final long GB = 1L << 30;

  private static LogFileSpec file(String name, long initial, long growth) {
    return new LogFileSpec(name, initial, growth, 0, 0, "log-device");
  }

  private static LogLayout log(VlfRule rule, LogFileSpec... files) {
    return new LogLayout(rule, List.of(files), 1);
  }

  @Test
  void theVlfRulesGiveTheCountsOfReference1() {
    // 2 MB log grown 4,096 times by 2 MB to 8 GB: 4 + 4,096 x 4 = 16,388 VLFs (pre-2014).
    LogLayout lots = log(VlfRule.PRE_2014, file("PersonsLots_log", 2 * MB, 2 * MB));
    for (int i = 0; i < 4096; i++) lots.grow(lots.file(2));
    assertEquals(16_388, lots.vlfCount());
    assertEquals(8_194 * MB, lots.totalSize());

    // 2 GB log (16 VLFs of 128 MB) grown by 2 GB three times to 8 GB: 64 VLFs.
    LogLayout persons = log(VlfRule.PRE_2014, file("Persons_log", 2 * GB, 2 * GB));
    assertEquals(16, persons.vlfCount());
    assertEquals(128 * MB, persons.file(2).vlfs().get(0).size());
    for (int i = 0; i < 3; i++) persons.grow(persons.file(2));
    assertEquals(64, persons.vlfCount());

    // 64 MB growing 16 MB: 8 VLFs of 8 MB, then 4 of 4 MB per growth; grown to 10 GB: over 2,500.
    LogLayout small = log(VlfRule.PRE_2014, file("small_log", 64 * MB, 16 * MB));
    assertEquals(8, small.vlfCount());
    assertEquals(8 * MB, small.file(2).vlfs().get(0).size());
    small.grow(small.file(2));
    assertEquals(4 * MB, small.file(2).vlfs().get(8).size());
    while (small.totalSize() < 10 * GB) small.grow(small.file(2));
    assertTrue(small.vlfCount() > 2_500, "VLFs " + small.vlfCount());
  }

  @Test
  void sql2014AddsOneVlfForAGrowthUnderAnEighthOfTheLogAndSql2022ForGrowthsUpTo64Mb() {
    assertEquals(4, VlfRule.SQL_2014.vlfs(2 * MB, 2 * MB));
    assertEquals(4, VlfRule.SQL_2014.vlfs(2 * MB, 16 * MB)); // exactly an eighth: not smaller
    assertEquals(1, VlfRule.SQL_2014.vlfs(2 * MB, 17 * MB));
    assertEquals(16, VlfRule.SQL_2014.vlfs(2 * GB, 2 * GB));
    assertEquals(1, VlfRule.SQL_2022.vlfs(64 * MB, 0));
    assertEquals(8, VlfRule.SQL_2022.vlfs(65 * MB, 65 * MB));
    assertEquals(1, VlfRule.SQL_2022.vlfs(1 * GB, 9 * GB));
    assertTrue(VlfRule.PRE_2014.zeroesGrowth(2 * MB));
    assertTrue(!VlfRule.SQL_2022.zeroesGrowth(64 * MB) && VlfRule.SQL_2022.zeroesGrowth(65 * MB));

    LogLayout grown = log(VlfRule.SQL_2014, file("l", 2 * MB, 2 * MB));
    for (int i = 0; i < 4096; i++) grown.grow(grown.file(2));
    // 4 at creation; 4 per growth while 2 MB is not under an eighth of the log (sizes 2..16 MB: 8 growths), then 1.
    assertEquals(4 + 8 * 4 + (4096 - 8), grown.vlfCount());
  }

  @Test
  void writesFillVlfsInOrderSplitAtBoundariesAndWrapOnceTruncated() {
    LogLayout l = log(VlfRule.PRE_2014, file("l", 4 * MB, 0)); // 4 VLFs of 1 MB, no growth
    List<LogLayout.Segment> s = l.append(MB - 100);
    assertEquals(List.of(new LogLayout.Segment(2, 0, MB - 100)), s);
    s = l.append(300); // crosses into the second VLF: one contiguous piece of the file
    assertEquals(List.of(new LogLayout.Segment(2, MB - 100, 300)), s);
    assertEquals(2, l.current().fseqNo());
    l.append(2 * MB); // the end of the log is now 200 bytes into the fourth VLF
    assertEquals(3 * MB + 200, l.endLsn());
    assertEquals(4, l.logInfo().stream().filter(r -> r.status() == 2).count(), "all four active");
    assertEquals(MB - 200, l.room(MB), "no room without truncation");
    assertNull(l.fileToGrow(), "no autogrowth: the log is full");
    assertThrows(IllegalStateException.class, () -> l.append(MB));
    assertEquals(3 * MB + 200, l.endLsn(), "a refused write changes nothing");

    assertEquals(2, l.truncate(2 * MB + 10)); // VLFs 1 and 2 lie wholly before it
    s = l.append(MB);
    assertEquals(List.of(new LogLayout.Segment(2, 3 * MB + 200, MB - 200), new LogLayout.Segment(2, 0, 200)), s);
    assertEquals(4 * MB + 200, l.endLsn());
    assertEquals(5, l.file(2).vlfs().get(0).fseqNo(), "the first VLF reused with a new FSeqNo");
    assertEquals(2, l.file(2).vlfs().get(0).status());
  }

  @Test
  void twoGrowingLogFilesAreFilledInSequenceAndGrowInTurn() {
    // REFERENCE 1, "Two log files": 2 MB each (4 VLFs of 512 KB), both growing by 16 MB (4 VLFs of 4 MB), no truncation.
    LogLayout l = log(VlfRule.PRE_2014, file("log1", 2 * MB, 16 * MB), file("log2", 2 * MB, 16 * MB));
    List<Integer> order = new ArrayList<>(); // the file of each VLF in the order the log uses them
    long lastFseq = 0;
    while (order.size() < 20) {
      if (l.room(64 * 1024) < 64 * 1024) {
        LogLayout.LogFile f = l.fileToGrow();
        assertNotNull(f);
        l.grow(f);
      }
      l.append(64 * 1024);
      if (l.current().fseqNo() != lastFseq) {
        lastFseq = l.current().fseqNo();
        order.add(l.current().fileId());
      }
    }
    assertEquals(List.of(2, 2, 2, 2, 3, 3, 3, 3, 2, 2, 2, 2, 3, 3, 3, 3, 2, 2, 2, 2), order);
    assertEquals(12, l.file(2).vlfs().size());
    assertEquals(8, l.file(3).vlfs().size());
  }

  @Test
  void shrinkRemovesInactiveVlfsAtTheEndOnlyAndAFileWithActiveLogCannotBeRemoved() {
    LogLayout l = log(VlfRule.PRE_2014, file("Persons_log", 4 * MB, 4 * MB));
    l.grow(l.file(2)); // 8 VLFs of 1 MB; the log is in the first
    assertNull(l.shrink(2, 4 * MB));
    assertEquals(4, l.file(2).vlfs().size());
    l.append(3 * MB + 10); // now in the fourth, the last of the file
    assertEquals("Cannot shrink log file 2 (Persons_log) because the logical log file located at the end of the file"
        + " is in use.", l.shrink(2, 2 * MB));

    LogFileSpec second = file("Persons_log2", 2 * MB, 0);
    LogLayout two = log(VlfRule.PRE_2014, file("Persons_log", 1 * MB, 0), second);
    assertNull(two.removeFile(3), "never used: it can go");
    two = log(VlfRule.PRE_2014, file("Persons_log", 1 * MB, 0), second);
    two.append(MB + 5); // into the second file
    assertEquals("The file 'Persons_log2' cannot be removed because it is not empty.", two.removeFile(3));
    assertEquals("The primary data or log file cannot be removed from a database.", two.removeFile(2));
  }
}
