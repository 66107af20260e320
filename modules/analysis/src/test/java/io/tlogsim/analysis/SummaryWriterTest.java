package io.tlogsim.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryWriterTest {
  private static final LocalDateTime T = LocalDateTime.of(2025, 11, 30, 9, 5, 7);

  @Test
  void runIdIsScenarioSeedAndTimeMadeUnique() {
    assertEquals("gcm1-42-20251130-090507", SummaryWriter.runId("gcm1", 42, T, id -> false));
    Set<String> taken = Set.of("gcm1-42-20251130-090507", "gcm1-42-20251130-090507-2");
    assertEquals("gcm1-42-20251130-090507-3", SummaryWriter.runId("gcm1", 42, T, taken::contains));
    assertEquals("my_run-7-20251130-090507", SummaryWriter.runId("my run", 7, T, id -> false));
  }

  @Test
  void writesPrettyJsonWithRunIdFirstAndKeyOrderKept(@TempDir Path dir) throws Exception {
    Map<String, Object> latency = new LinkedHashMap<>();
    latency.put("p99", 3.5);
    latency.put("mean", 1.25);
    Map<String, Object> commits = new LinkedHashMap<>();
    commits.put("count", 10L);
    commits.put("latencyUs", latency);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("scenario", "gcm1");
    summary.put("seed", 42L);
    summary.put("digest", "abc");
    summary.put("commits", commits);
    summary.put("runId", "ignored");

    Path file = SummaryWriter.write(dir, "gcm1-42-x", summary);
    assertEquals(dir.resolve("summary.json"), file);
    assertFalse(Files.exists(dir.resolve("summary.json.tmp")));
    String text = Files.readString(file);
    assertTrue(text.contains("\n  \"scenario\""), text);
    assertTrue(text.endsWith("}\n"), text);

    JsonNode root = new JsonMapper().readTree(text);
    List<String> keys = new ArrayList<>();
    root.fieldNames().forEachRemaining(keys::add);
    assertEquals(List.of("runId", "scenario", "seed", "digest", "commits"), keys);
    assertEquals("gcm1-42-x", root.get("runId").asText());
    assertEquals(10, root.at("/commits/count").asLong());
    List<String> inner = new ArrayList<>();
    root.at("/commits/latencyUs").fieldNames().forEachRemaining(inner::add);
    assertEquals(List.of("p99", "mean"), inner);

    // Writing again replaces the file.
    SummaryWriter.write(dir, "second", summary);
    assertEquals("second", new JsonMapper().readTree(Files.readString(file)).get("runId").asText());
  }
}
