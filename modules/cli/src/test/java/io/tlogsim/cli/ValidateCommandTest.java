package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tlogsim validate}: its rows, counts, JSON, Markdown, exit codes and bad input (issue 21). */
class ValidateCommandTest {
  @TempDir
  Path tmp;

  @Test
  void jsonHasOneRowPerPublishedFigureWithItsBasis() throws Exception {
    TlogsimTest.Result r = tlogsim("validate", "--json", "--only", "vlf-growth-rules", "informix-buffered");
    assertEquals(0, r.code(), r.err());
    JsonNode rows = new JsonMapper().readTree(r.out());
    assertEquals(8, rows.size(), r.out());
    for (JsonNode row : rows) {
      for (String f : List.of("scenario", "path", "published", "simulated", "error", "tolerance", "basis", "fitted")) {
        assertTrue(row.has(f), f + " in " + row);
      }
      assertTrue(row.get("within").asBoolean(), row.toString());
    }
    JsonNode elapsed = null;
    for (JsonNode row : rows) if (row.get("path").asText().equals("phases[1].seconds")) elapsed = row;
    assertEquals("calibrated", elapsed.get("basis").asText());
    assertEquals("cpuUpdateRowUs", elapsed.get("fitted").get(0).asText());
    assertTrue(r.err().contains("progress     1/2 scenarios"), "progress on stderr: " + r.err());
  }

  @Test
  void theTablePrintsTheCountsAndQuietOnlyWhatFallsOutside() {
    TlogsimTest.Result r = tlogsim("validate", "--only", "vlf-growth-rules");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("vlf-growth-rules") && l.contains("predicted")), r.out());
    assertTrue(r.out().contains("figures      2 over 1 scenarios: 2 predicted (2 within tolerance), 0 calibrated"),
        r.out());
    TlogsimTest.Result q = tlogsim("validate", "--quiet", "--only", "vlf-growth-rules");
    assertEquals(0, q.code(), q.err());
    assertEquals(1, q.out().lines().count(), q.out());
    assertEquals("", q.err());
    TlogsimTest.Result md = tlogsim("validate", "--markdown", "--only", "vlf-growth-rules");
    assertTrue(md.out().startsWith("# Validation") && md.out().contains("| vlf-growth-rules | `vlfs.presized.pre2014`"),
        md.out());
  }

  @Test
  void aFigureOutsideItsToleranceExitsOne() throws Exception {
    Path f = tmp.resolve("off.conf");
    Files.writeString(f, "kind = vlf-rules\ndescription = \"off\"\nreference {\n  source = \"mine\"\n  figures {\n"
        + "    \"vlfs.presized.pre2014\" { value = 70, tolerance = 0.05, basis = predicted }\n"
        + "    \"vlfs.fragmented.pre2014\" = 16388\n  }\n}\n");
    Scenario s = ScenarioKinds.loader().load(f.toString(), Map.of());
    List<ValidateCommand.Outcome> o = ValidateCommand.runAll(List.of(s), 1, null);
    assertFalse(o.get(0).rows().get(0).within());
    assertTrue(o.get(0).rows().get(1).within());
    assertEquals(1, ValidateCommand.exitCode(o));
    assertTrue(ValidateCommand.table(o.get(0).rows(), false).get(1)[4].endsWith("(outside)"));
  }

  @Test
  void badInputExitsTwo() {
    TlogsimTest.Result r = tlogsim("validate", "--only", "oltp-commits");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--only oltp-commits: not a built-in scenario with published figures"), r.err());
    assertEquals(2, tlogsim("validate", "--json", "--markdown").code());
  }
}
