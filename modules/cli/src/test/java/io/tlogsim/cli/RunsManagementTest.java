package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** runs --json, the table's kind, overrides and description, runs delete / prune / compact: the command line. */
@ExtendWith(StderrNotATerminal.class)
class RunsManagementTest {
  @TempDir
  Path tmp;

  private String data() {
    return tmp.resolve("data").toString();
  }

  private String run(String sessions) throws Exception {
    Result r = tlogsim("run", "gcm1", "--set", "sessions=" + sessions, "--set", "simulatedSeconds=0.05", "--threads",
        "1", "--data", data(), "--quiet");
    assertEquals(0, r.code(), r.err());
    JsonNode runs = runsJson();
    return runs.get(runs.size() - 1).get("runId").asText();
  }

  private JsonNode runsJson() throws Exception {
    Result r = tlogsim("runs", "--json", "--data", data());
    assertEquals(0, r.code(), r.err());
    return new JsonMapper().readTree(r.out());
  }

  private static void refused(String expected, String... argv) {
    Result r = tlogsim(argv);
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals(1, r.errLines().size(), "one line: " + r.err());
    assertTrue(r.err().contains(expected), "expected '" + expected + "': " + r.err());
  }

  @Test
  void runsListsKindOverridesAndDescriptionAndAsJson() throws Exception {
    String a = run("200");
    JsonNode runs = runsJson();
    assertEquals(1, runs.size());
    JsonNode j = runs.get(0);
    assertEquals(a, j.get("runId").asText());
    assertEquals("gcm1", j.get("kind").asText());
    assertEquals("completed", j.get("status").asText());
    assertEquals(0.05, j.get("simulatedSeconds").asDouble(), 1e-12);
    assertEquals("200", j.get("overrides").get("sessions").asText());
    assertTrue(j.get("digest").asText().matches("[0-9a-f]{16}"), j.toString());
    assertTrue(j.get("description").asText().startsWith("GCM-1"), j.toString());
    Result table = tlogsim("runs", "--data", data());
    List<String> lines = table.out().lines().toList();
    assertTrue(lines.get(0).matches("RUN +SCENARIO +KIND +SEED +STATUS +STARTED +SIMULATED S +DIGEST +OVERRIDES"
        + " +DESCRIPTION"), lines.get(0));
    assertTrue(lines.get(1).contains("sessions=200 simulatedSeconds=0.05"), lines.get(1));
    assertEquals("[ ]", tlogsim("runs", "--json", "--data", tmp.resolve("empty").toString()).out().strip());
  }

  @Test
  void deletedRunsAreGoneTheOthersReplayAsBeforeAndTheFileShrinks() throws Exception {
    String a = run("200");
    String b = run("300");
    String c = run("400");
    Path file = tmp.resolve("data/journal/tlogsim.mv.db");
    long before = Files.size(file);
    refused("unknown run id 'nope'", "runs", "delete", a, "nope", "--data", data());
    assertEquals(3, runsJson().size(), "nothing deleted when one id is unknown");

    Result d = tlogsim("runs", "delete", a, b, "--data", data());
    assertEquals(0, d.code(), d.err());
    assertTrue(d.out().contains("deleted " + a) && d.out().contains("deleted " + b), d.out());
    assertTrue(d.out().contains("journal "), "compacted: " + d.out());
    assertTrue(Files.size(file) < before, Files.size(file) + " >= " + before);
    JsonNode left = runsJson();
    assertEquals(1, left.size());
    assertEquals(c, left.get(0).get("runId").asText());
    refused("unknown run id '" + a + "'", "replay", a, "--data", data());

    Path again = tmp.resolve("again");
    Result replay = tlogsim("replay", c, "--out", again.toString(), "--data", data(), "--quiet");
    assertEquals(0, replay.code(), replay.err());
    assertArrayEquals(Files.readAllBytes(tmp.resolve("data/runs/" + c + "/summary.json")),
        Files.readAllBytes(again.resolve("summary.json")), "the run left replays as it was written");
    String d2 = run("500"); // the compacted file takes new runs
    assertEquals(2, runsJson().size(), d2);
  }

  @Test
  void pruneKeepsTheNewestOrDeletesTheOldOnes() throws Exception {
    run("200");
    run("300");
    String newest = run("400");
    refused("give one of --keep N or --older-than D", "runs", "prune", "--data", data());
    refused("give one of --keep N or --older-than D", "runs", "prune", "--keep", "1", "--older-than", "1d", "--data",
        data());
    refused("--older-than: '3 fortnights' is not an age", "runs", "prune", "--older-than", "3 fortnights", "--data",
        data());
    Result none = tlogsim("runs", "prune", "--older-than", "7d", "--data", data());
    assertEquals(0, none.code(), none.err());
    assertEquals("no run to delete", none.out().strip());
    Result dry = tlogsim("runs", "prune", "--keep", "1", "--dry-run", "--data", data());
    assertEquals(2, dry.out().lines().filter(l -> l.startsWith("would delete ")).count(), dry.out());
    assertEquals(3, runsJson().size(), "a dry run deletes nothing");
    Result kept = tlogsim("runs", "prune", "--keep", "1", "--data", data());
    assertEquals(0, kept.code(), kept.err());
    JsonNode left = runsJson();
    assertEquals(1, left.size());
    assertEquals(newest, left.get(0).get("runId").asText());
    Result old = tlogsim("runs", "prune", "--older-than", "0s", "--data", data());
    assertEquals(0, old.code(), old.err());
    assertEquals(0, runsJson().size());
    Result compact = tlogsim("runs", "compact", "--data", data());
    assertEquals(0, compact.code(), compact.err());
    assertTrue(compact.out().startsWith("journal "), compact.out());
  }
}
