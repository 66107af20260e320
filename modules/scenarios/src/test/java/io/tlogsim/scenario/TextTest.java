package io.tlogsim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TextTest {
  @Test
  void latenciesAreScaledToTheUnitThatReadsBest() {
    assertEquals("0.500 us", Text.latencyUs(0.5));
    assertEquals("483.5 us", Text.latencyUs(483.467));
    assertEquals("1.508 ms", Text.latencyUs(1_507.7));
    assertEquals("127.26 ms", Text.latencyUs(127_260.261));
    assertEquals("2.500 s", Text.latencyUs(2_500_000));
    assertEquals("1,234.6 s", Text.latencyUs(1_234_567_890));
  }

  @Test
  void countsHaveSeparatorsAndPluralForms() {
    assertEquals("1 commit", Text.plural(1, "commit"));
    assertEquals("0 commits", Text.plural(0, "commit"));
    assertEquals("1,347,777 commits", Text.plural(1_347_777, "commit"));
    assertEquals("2", Text.plain(2.0));
    assertEquals("0.05", Text.plain(0.05));
    assertEquals("0.05", Text.number(0.05));
    assertEquals("86,400", Text.number(86_400.0));
  }

  @Test
  void linesWrapUnderTheMarginAtEightyColumns() {
    List<String> lines = Text.lines("percentiles", "p50 131.66 ms", "p90 131.86 ms", "p95 131.86 ms",
        "p99 131.86 ms", "p99.9 131.91 ms");
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("percentiles  p50 131.66 ms,"), lines.get(0));
    assertTrue(lines.get(1).startsWith(" ".repeat(Text.MARGIN) + "p"), lines.get(1));
    for (String l : lines) assertTrue(l.length() <= Text.WIDTH, l);
    List<String> para = Text.paragraph("description", "word ".repeat(40));
    for (String l : para) assertTrue(l.length() <= Text.WIDTH && !l.endsWith(" "), l);
    assertEquals(40, String.join(" ", para).replace("description", "").strip().split("\\s+").length);
  }
}
