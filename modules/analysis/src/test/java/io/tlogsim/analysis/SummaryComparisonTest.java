package io.tlogsim.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SummaryComparisonTest {
  private static Map<String, Object> summary(long commits, double p99, String digest, List<Object> backups) {
    Map<String, Object> latency = new LinkedHashMap<>();
    latency.put("p99", p99);
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("count", commits);
    c.put("latencyUs", latency);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("digest", digest);
    s.put("commits", c);
    s.put("backups", backups);
    return s;
  }

  @Test
  void figuresArePairedByPathWithTheirDifferences() {
    var a = summary(1000, 500.0, "aa", List.of(Map.of("seconds", 2.0)));
    var b = summary(1100, 500.0, "bb", List.of(Map.of("seconds", 2.0), Map.of("seconds", 4.0)));
    List<SummaryComparison.Row> rows = SummaryComparison.rows(a, b);
    assertEquals(List.of("digest", "commits.count", "commits.latencyUs.p99", "backups[0].seconds", "backups[1].seconds"),
        rows.stream().map(SummaryComparison.Row::path).toList());
    assertEquals("differs", rows.get(0).difference());
    assertEquals("+100 (+10.00%)", rows.get(1).difference());
    assertEquals("", rows.get(2).difference());
    assertEquals("only in B", rows.get(4).difference());
    List<String> lines = SummaryComparison.lines("run-a", a, "run-b", b);
    assertEquals(List.of("A  run-a", "B  run-b"), lines.subList(0, 2));
    assertTrue(lines.get(2).matches("FIGURE +A +B +B - A"), lines.get(2));
    assertEquals("3 of 5 figures differ", lines.get(lines.size() - 1));
    assertEquals("+0.5 (+25.00%)", new SummaryComparison.Row("x", 2.0, 2.5).difference());
    var longText = new SummaryComparison.Row("s", "x".repeat(100), "y");
    assertTrue(SummaryComparison.lines("a", Map.of("s", "x".repeat(100)), "b", Map.of("s", "y")).get(3).length() <= 100);
    assertEquals("differs", longText.difference());
  }

  @Test
  void onlyKeepsTheSectionsAskedForAndEveryLineFitsInAHundredColumns() {
    var a = summary(1000, 500.0, "aa", List.of(Map.of("seconds", 2.0)));
    var b = summary(123456789, 123456.789, "bb", List.of(Map.of("seconds", 2.0)));
    a.put("averyveryveryveryveryverylongsectionname", Map.of("andaveryveryveryverylongfigurename", 1.0 / 3));
    b.put("averyveryveryveryveryverylongsectionname", Map.of("andaveryveryveryverylongfigurename", 2.0 / 3));
    List<SummaryComparison.Row> rows = SummaryComparison.rows(a, b);
    assertEquals(List.of("commits.count", "commits.latencyUs.p99"),
        SummaryComparison.only(rows, List.of("commits")).stream().map(SummaryComparison.Row::path).toList());
    assertEquals(List.of("commits.latencyUs.p99", "backups[0].seconds"), SummaryComparison.only(rows,
        List.of("commits.latencyUs", "backups")).stream().map(SummaryComparison.Row::path).toList());
    assertEquals(List.of(), SummaryComparison.only(rows, List.of("commit")), "a section is matched whole");
    assertEquals(List.of("digest", "commits", "backups", "averyveryveryveryveryverylongsectionname"),
        SummaryComparison.sections(rows));
    for (String l : SummaryComparison.lines("gcm1-42-20261201-213854", "gcm1-100k-42-20261201-213916", rows)) {
      assertTrue(l.length() <= SummaryComparison.MAX_WIDTH, l.length() + ": " + l);
    }
    Map<String, Object> j = SummaryComparison.json("a", "b", rows);
    assertEquals(4L, j.get("differing"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void equalSummariesHaveNoDifferencesEvenWhenNumbersChangedWidth() {
    var a = summary(1000, 500.0, "aa", List.of());
    var b = summary(1000, 500.0, "aa", List.of());
    ((Map<String, Object>) b.get("commits")).put("count", 1000); // an int after a journal round trip
    List<String> lines = SummaryComparison.lines("a", a, "b", b);
    assertEquals("no differences", lines.get(lines.size() - 1));
  }
}
