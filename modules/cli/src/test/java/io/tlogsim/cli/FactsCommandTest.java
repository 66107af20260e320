package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tlogsim facts} and {@code replay --from --to} on a GCM-1 run journaled with {@code --trace full} (H2): the
 * facts read back with a JSON parser and a CSV reader are as many as summary.json's journal.facts, account for every
 * commit, and a window's replay counts the commits its interval facts hold.
 */
class FactsCommandTest {
  private static final JsonMapper JSON = new JsonMapper();

  @TempDir
  static Path tmp;
  private static String runId;
  private static JsonNode live;
  private static List<JsonNode> facts;

  private static String data() {
    return tmp.resolve("data").toString();
  }

  @BeforeAll
  static void aFullTraceRun() throws Exception {
    System.setProperty(Progress.STDERR_TTY_PROPERTY, "false");
    live = run("--trace", "full");
    runId = live.get("runId").asText();
    Result r = tlogsim("facts", runId, "--format", "jsonl", "--data", data());
    assertEquals(0, r.code(), r.err());
    facts = new ArrayList<>();
    for (String line : r.out().split("\n")) facts.add(JSON.readTree(line)); // each line a JSON object
  }

  /** A small GCM-1 run journaled in the test's data directory; its summary.json (printed with --json). */
  private static JsonNode run(String... more) throws Exception {
    List<String> argv = new ArrayList<>(List.of("run", "gcm1", "--set", "sessions=300", "--set",
        "simulatedSeconds=0.05", "--threads", "2", "--data", data(), "--json", "--quiet"));
    argv.addAll(List.of(more));
    Result run = tlogsim(argv.toArray(String[]::new));
    assertEquals(0, run.code(), run.err());
    return JSON.readTree(run.out());
  }

  @AfterAll
  static void forget() {
    System.clearProperty(Progress.STDERR_TTY_PROPERTY);
  }

  @Test
  void jsonLinesHoldAsManyFactsAsTheSummarySaysAndEveryCommit() {
    assertEquals("full", live.at("/journal/trace").asText());
    assertEquals(live.at("/journal/facts").asLong(), facts.size(), "one line per fact the journal keeps");
    Map<String, Integer> byType = new HashMap<>();
    long acknowledged = 0;
    for (JsonNode f : facts) {
      assertTrue(f.isObject() && f.get("timeNs").isIntegralNumber() && f.get("component").isTextual(), f.toString());
      byType.merge(f.get("type").asText(), 1, Integer::sum);
      if (f.get("type").asText().equals("LogHardened")) acknowledged += f.get("acknowledged").asLong();
    }
    assertTrue(byType.getOrDefault("LogHardened", 0) > 50 && byType.containsKey("CommitInterval"), byType.toString());
    // every commit the run counted was acknowledged by one of the log writes the full trace holds (no warm-up)
    assertEquals(live.at("/commits/count").asLong(), acknowledged);
  }

  @Test
  void csvHasAHeaderAndARowPerFact() {
    Result r = tlogsim("facts", runId, "--format", "csv", "--data", data());
    assertEquals(0, r.code(), r.err());
    List<List<String>> rows = csv(r.out());
    List<String> header = rows.get(0);
    assertEquals(List.of("window", "timeNs", "timeSeconds", "componentId", "component", "type"), header.subList(0, 6));
    assertEquals(facts.size(), rows.size() - 1);
    int type = header.indexOf("type"), lsn = header.indexOf("lsn"), time = header.indexOf("timeNs");
    for (int i = 1; i < rows.size(); i++) {
      List<String> row = rows.get(i);
      assertEquals(header.size(), row.size(), "row " + i + ": " + row);
      JsonNode f = facts.get(i - 1);
      assertEquals(f.get("type").asText(), row.get(type));
      assertEquals(f.get("timeNs").asText(), row.get(time));
      assertEquals(f.has("lsn") ? f.get("lsn").asText() : "", row.get(lsn));
    }
    Result schema = tlogsim("facts", "--schema"); // needs no run
    assertEquals(0, schema.code(), schema.err());
    List<String> names = new ArrayList<>();
    try {
      JSON.readTree(schema.out()).get("columns").forEach(c -> names.add(c.get("name").asText()));
    } catch (Exception e) {
      throw new AssertionError(schema.out(), e);
    }
    assertEquals(header, names, "--schema names the CSV's columns, in order");
  }

  @Test
  void typeAndWindowFilterTheRows() {
    Result r = tlogsim("facts", runId, "--type", "LogHardened", "--from", "0.01", "--to", "0.03", "--format", "jsonl",
        "--data", data());
    assertEquals(0, r.code(), r.err());
    long expected = facts.stream().filter(f -> f.get("type").asText().equals("LogHardened")
        && f.get("timeNs").asLong() >= 10_000_000 && f.get("timeNs").asLong() < 30_000_000).count();
    assertTrue(expected > 10, "facts in the window: " + expected);
    assertEquals(expected, r.out().lines().count());
  }

  @Test
  void aWindowReplayCountsTheCommitsOfItsIntervalFacts() throws Exception {
    Path dir = tmp.resolve("w");
    Result r = tlogsim("replay", runId, "--from", "0.01", "--to", "0.03", "--out", dir.toString(), "--data", data());
    assertEquals(0, r.code(), r.err());
    JsonNode w = summary(dir);
    long commits = 0, writes = 0;
    for (JsonNode f : facts) {
      long from = f.path("fromNanos").asLong(-1);
      if (from < 10_000_000 || from >= 30_000_000) continue;
      if (f.get("type").asText().equals("CommitInterval")) commits += f.get("commits").asLong();
      if (f.get("type").asText().equals("LogInterval")) writes += f.get("writes").asLong();
    }
    assertTrue(commits > 0 && commits < live.at("/commits/count").asLong(), "commits in the window: " + commits);
    assertEquals(commits, w.at("/commits/count").asLong());
    assertEquals(writes, w.at("/log/writes").asLong());
    assertEquals(0.01, w.at("/window/fromSeconds").asDouble());
    assertTrue(Files.exists(dir.resolve("report.html")) && Files.exists(dir.resolve("commit-intervals.csv")));

    Result whole = tlogsim("replay", runId, "--from", "0", "--to", "0.05", "--out", tmp.resolve("all").toString(),
        "--data", data(), "--quiet");
    assertEquals(0, whole.code(), whole.err());
    JsonNode all = summary(tmp.resolve("all"));
    assertEquals(live.at("/commits/count").asLong(), all.at("/commits/count").asLong(), "the whole run's window");
    assertEquals(live.at("/log/writes").asLong(), all.at("/log/writes").asLong());
    assertEquals(live.at("/commits/latencyUs/max").asDouble(), all.at("/commits/latencyUs/max").asDouble());
  }

  @Test
  void aReplayRebuildsTheJournalFiguresAndTheFactsAreDeterministic() throws Exception {
    Result rep = tlogsim("replay", runId, "--out", tmp.resolve("rep").toString(), "--data", data());
    assertEquals(0, rep.code(), rep.err());
    assertEquals("", rep.err(), "no drift: the replay counts the facts the live run counted");
    assertEquals(live.get("journal"), summary(tmp.resolve("rep")).get("journal"));

    JsonNode again = run("--trace", "full");
    Result r = tlogsim("facts", again.get("runId").asText(), "--format", "jsonl", "--data", data());
    List<JsonNode> second = new ArrayList<>();
    for (String line : r.out().split("\n")) second.add(JSON.readTree(line));
    assertEquals(facts, second, "the same seed gives the same facts");
  }

  @Test
  void badInputIsOneLineAndExit2() {
    refused("--type Nope: unknown fact type; allowed: CheckpointCompleted, CommitInterval", "facts", runId, "--type",
        "Nope", "--data", data());
    refused("unknown run id 'no-such-run'", "facts", "no-such-run", "--data", data());
    refused("facts: give a run id", "facts", "--data", data());
    refused("--format xml: unknown format; allowed: csv, jsonl", "facts", runId, "--format", "xml", "--data", data());
    refused("the window's end must be after its start", "replay", runId, "--from", "0.03", "--to", "0.02", "--data",
        data());
    refused("--to 0.07: beyond the run", "replay", runId, "--from", "0", "--to", "0.07", "--data", data());
    refused("--from -1: must be a number of simulated seconds >= 0", "replay", runId, "--from", "-1", "--to", "0.02",
        "--data", data());
    refused("--from 0.05: beyond the run", "facts", runId, "--from", "0.05", "--data", data());
    refused("--trace fast: unknown trace level; allowed: summary, full", "run", "gcm1", "--trace", "fast", "--dry-run");
    refused("--journal none keeps no facts", "run", "gcm1", "--trace", "full", "--journal", "none");
  }

  @Test
  void aSummaryTraceRunGivesItsIntervalFactsAsTheSummaryCounts() throws Exception {
    JsonNode s = run();
    assertEquals("summary", s.at("/journal/trace").asText());
    Result r = tlogsim("facts", s.get("runId").asText(), "--format", "csv", "--data", data());
    assertEquals(0, r.code(), r.err());
    List<List<String>> rows = csv(r.out());
    assertEquals(s.at("/journal/facts").asLong(), rows.size() - 1);
    int type = rows.get(0).indexOf("type");
    for (List<String> row : rows.subList(1, rows.size())) {
      assertTrue(row.get(type).endsWith("Interval") || row.get(type).endsWith("Sample"), row.toString());
    }
  }

  private static void refused(String expected, String... argv) {
    Result r = tlogsim(argv);
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals(1, r.errLines().size(), "one line: " + r.err());
    assertTrue(r.err().contains(expected), "expected '" + expected + "': " + r.err());
  }

  /** RFC 4180, as Python's csv module reads it: quoted cells may hold commas, quotes (doubled) and newlines. */
  static List<List<String>> csv(String text) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
          cell.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.add(cell.toString());
        cell.setLength(0);
      } else if (c == '\n') {
        row.add(cell.toString());
        cell.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
      } else if (c != '\r') {
        cell.append(c);
      }
    }
    if (cell.length() > 0 || !row.isEmpty()) {
      row.add(cell.toString());
      rows.add(row);
    }
    return rows;
  }
}
