package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The tlogsim command in-process: exit codes, stdout/stderr, summary.json. Runs are small (fractions of a second). */
class TlogsimTest {
  private static final String[] SMALL = {"--set", "sessions=200", "--set", "simulatedSeconds=0.05", "--threads", "2"};

  @TempDir
  Path tmp;

  record Result(int code, String out, String err) {
    List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\\R"));
    }
  }

  static Result tlogsim(String... args) {
    CommandLine cl = Tlogsim.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  static String[] args(String[] head, String... tail) {
    return Stream.concat(Stream.of(head), Stream.of(tail)).toArray(String[]::new);
  }

  static JsonNode summary(Path dir) throws Exception {
    return new JsonMapper().readTree(Files.readString(dir.resolve("summary.json")));
  }

  @Test
  void scenariosListsGcm1() {
    Result r = tlogsim("scenarios");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("gcm1 ") && l.contains("GCM-1")), r.out());
    assertEquals("", r.err());
  }

  @Test
  void versionAndHelp() {
    Result v = tlogsim("--version");
    assertEquals(0, v.code());
    assertTrue(v.out().startsWith("tlogsim " + Tlogsim.version()), v.out());
    assertFalse(Tlogsim.version().contains("${"), "version.properties must be filtered: " + Tlogsim.version());
    Result h = tlogsim("run", "--help");
    assertEquals(0, h.code());
    assertTrue(h.out().contains("--set"), h.out());
  }

  @Test
  void runWritesSummaryAndSameSeedGivesSameDigest() throws Exception {
    Path a = tmp.resolve("a");
    Result r = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--out", a.toString())));
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.err());
    assertTrue(r.out().contains("digest"), r.out());
    assertTrue(r.out().strip().endsWith(a.resolve("summary.json").toAbsolutePath().normalize().toString()), r.out());

    JsonNode s = summary(a);
    List<String> keys = new ArrayList<>();
    s.fieldNames().forEachRemaining(keys::add);
    assertEquals("runId", keys.get(0));
    assertTrue(s.get("runId").asText().startsWith("gcm1-42-"), s.get("runId").asText());
    assertEquals("gcm1", s.get("scenario").asText());
    assertEquals(42, s.get("seed").asLong(), "default seed: the scenario's own");
    assertTrue(s.at("/commits/count").asLong() > 0, s.toString());
    assertFalse(s.get("digest").asText().isEmpty());
    assertTrue(s.at("/run/messagesPerEvent").isNumber(), s.toString());
    assertEquals(2, s.at("/run/threads").asInt());

    Path b = tmp.resolve("b");
    assertEquals(0, tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--out", b.toString()))).code());
    assertEquals(s.get("digest").asText(), summary(b).get("digest").asText(), "same seed, same digest");

    Path c = tmp.resolve("c");
    assertEquals(0, tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--seed", "7", "--out", c.toString()))).code());
    JsonNode sc = summary(c);
    assertEquals(7, sc.get("seed").asLong());
    assertNotEquals(s.get("digest").asText(), sc.get("digest").asText(), "another seed, another digest");
  }

  @Test
  void defaultOutIsUnderDataRuns() throws Exception {
    Path data = tmp.resolve("data");
    Result r1 = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--data", data.toString())));
    Result r2 = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--data", data.toString())));
    assertEquals(0, r1.code(), r1.err());
    assertEquals(0, r2.code(), r2.err());
    List<Path> runs;
    try (Stream<Path> s = Files.list(data.resolve("runs"))) {
      runs = s.sorted().toList();
    }
    assertEquals(2, runs.size(), "two runs, two directories: " + runs);
    for (Path run : runs) assertEquals(run.getFileName().toString(), summary(run).get("runId").asText());
  }

  @Test
  void runOfAScenarioFile() throws Exception {
    Path file = tmp.resolve("tiny.conf");
    Files.writeString(file, "kind = gcm1\ndescription = \"tiny\"\nseed = 5\nsessions = 100\nsimulatedSeconds = 0.02\n");
    Path out = tmp.resolve("out");
    Result r = tlogsim("run", file.toString(), "--threads", "1", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode s = summary(out);
    assertEquals("tiny", s.get("scenario").asText());
    assertEquals(5, s.get("seed").asLong());
  }

  @Test
  void benchPrintsSpeedAndWritesSummary() throws Exception {
    Path out = tmp.resolve("bench");
    Result r = tlogsim("bench", "gcm1", "--sessions", "200", "--seconds", "0.05", "--threads", "2", "--out",
        out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("commits/wall s") && r.out().contains("messages/event"), r.out());
    JsonNode s = summary(out);
    assertEquals(0.05, s.get("simulatedSeconds").asDouble());
    assertEquals(200, s.at("/params/sessions").asInt());
    assertTrue(s.at("/commits/count").asLong() > 0);
    JsonNode busy = s.at("/run/threadBusy"); // wall-clock: one share per thread of the run, in [0, 1]
    assertEquals(2, busy.size(), busy.toString());
    for (JsonNode b : busy) assertTrue(b.isNumber() && b.asDouble() >= 0 && b.asDouble() <= 1, busy.toString());
    assertTrue(r.out().contains("of wall time by thread"), r.out());
    // by default one warm-up run of the same benchmark comes first, said in the summary and the speed line
    assertEquals(1, s.at("/run/jitWarmupRuns").asInt(), s.get("run").toString());
    assertEquals(1, s.at("/run/jitWarmupWallSeconds").size());
    assertTrue(s.at("/run/jitWarmupWallSeconds/0").asDouble() > 0);
    assertTrue(r.out().contains("after 1 JIT warm-up run in this JVM"), r.out());
  }

  @Test
  void benchWithoutJitWarmupMeasuresAColdRunAndGivesTheSameModelFigures() throws Exception {
    Path warm = tmp.resolve("warm"), cold = tmp.resolve("cold");
    Result w = tlogsim("bench", "gcm1", "--sessions", "300", "--seconds", "0.05", "--jit-warmup", "2", "--out",
        warm.toString());
    Result c = tlogsim("bench", "gcm1", "--sessions", "300", "--seconds", "0.05", "--jit-warmup", "0", "--out",
        cold.toString());
    assertEquals(0, w.code(), w.err());
    assertEquals(0, c.code(), c.err());
    assertEquals(2, summary(warm).at("/run/jitWarmupWallSeconds").size());
    assertEquals(0, summary(cold).at("/run/jitWarmupRuns").asInt(-1), summary(cold).get("run").toString());
    assertEquals(0, summary(cold).at("/run/jitWarmupWallSeconds").size());
    assertFalse(c.out().contains("JIT warm-up") || c.out().contains("jit "), c.out());
    assertTrue(w.out().contains("after 2 JIT warm-up runs in this JVM"), w.out());
    assertTrue(w.out().contains("jit          2 warm-up runs of the same benchmark"), w.out());
    assertEquals(summary(warm).get("digest"), summary(cold).get("digest"));
    assertEquals(summary(warm).get("commits"), summary(cold).get("commits"));
  }

  /** Bad input: exit 2, exactly one line on stderr starting "tlogsim: " and containing {@code expected}, no out dir. */
  private void badInput(String expected, String... argv) {
    Path out = tmp.resolve("never");
    Result r = tlogsim(args(argv, "--out", out.toString()));
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.errLines().size(), "one line: " + r.err());
    assertTrue(r.err().startsWith("tlogsim: "), r.err());
    assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    assertFalse(Files.exists(out), "nothing written for bad input");
    assertEquals("", r.out());
  }

  @Test
  void unknownScenarioNamesTheAllowedOnes() {
    badInput("built-in scenarios: ", "run", "nosuch");
    badInput(", gcm1, gcm1-100k, ", "run", "nosuch");
  }

  @Test
  void unknownKeyNamesTheAllowedKeys() {
    badInput("allowed: sessions, simulatedSeconds", "run", "gcm1", "--set", "nosuchkey=1");
  }

  @Test
  void wrongType() {
    badInput("sessions: must be an integer", "run", "gcm1", "--set", "sessions=abc");
  }

  @Test
  void outOfRange() {
    badInput("sessions: must be an integer from 1 to", "run", "gcm1", "--set", "sessions=-5");
  }

  @Test
  void unknownFlushPolicy() {
    badInput("flushPolicy: must be one of group-commit", "run", "gcm1", "--set", "flushPolicy=foo");
  }

  @Test
  void malformedScenarioFile() throws Exception {
    Path file = tmp.resolve("broken.conf");
    Files.writeString(file, "kind = gcm1\nsessions = {\n");
    badInput("malformed", "run", file.toString());
  }

  @Test
  void unknownOption() {
    badInput("Unknown option: '--bogus'", "run", "gcm1", "--bogus");
  }

  @Test
  void malformedSet() {
    badInput("--set sessions: must have the form key=value", "run", "gcm1", "--set", "sessions");
  }

  @Test
  void badNumbers() {
    badInput("--seed", "run", "gcm1", "--seed", "abc");
    badInput("--threads: must be an integer from 1", "run", "gcm1", "--threads", "0");
    badInput("--sessions", "bench", "gcm1", "--sessions", "many");
    badInput("--jit-warmup -1: allowed 0 to 10 runs", "bench", "gcm1", "--jit-warmup", "-1");
    badInput("--jit-warmup", "bench", "gcm1", "--jit-warmup", "some");
    badInput("--jit-warmup 11: allowed 0 to 10 runs", "bench", "gcm1", "--jit-warmup", "11");
    badInput("--checkpoint-min-gap: a benchmark is not journaled", "bench", "gcm1", "--checkpoint-min-gap", "0s");
    badInput("--checkpoint-every-simulated: a benchmark is not journaled", "bench", "gcm1",
        "--checkpoint-every-simulated", "10%");
    badInput("--checkpoint-min-gap and --cluster: the coordinating node's config sets", "run", "gcm1", "--cluster",
        "127.0.0.1:25520", "--checkpoint-min-gap", "0s");
    badInput("--checkpoint-min-gap and --journal none: a run without a journal takes no checkpoints", "run", "gcm1",
        "--journal", "none", "--checkpoint-min-gap", "0s");
  }

  @Test
  void unknownSubcommandAndMissingParameter() {
    badInput("unknown command 'bogus'; commands: scenarios, params, run, runs, replay, facts, report, compare, journal, bench, "
        + "sweep, validate, calibrate-device, calibrate-host, calibrate-postgres, advise, node, completion, help", "bogus");
    badInput("run: give a scenario (<name|file.conf>, see tlogsim scenarios) or --resume <run-id>", "run");
    badInput("unknown benchmark 'foo'; allowed: gcm1", "bench", "foo");
  }

  /** A model that fails mid-run (a kind found through ServiceLoader): exit 1, one line naming it, nothing kept. */
  @Test
  void aFailedRunExits1WithOneLineNamingTheComponent() throws Exception {
    Path conf = tmp.resolve("faulty.conf");
    Files.writeString(conf, "kind = test-faulty\ndescription = \"a model that fails\"\nfailAtUs = 250\n");
    Path data = tmp.resolve("data");
    Result r = tlogsim("run", conf.toString(), "--data", data.toString(), "--quiet");
    assertEquals(1, r.code(), r.err());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.errLines().get(0).startsWith("tlogsim: run failed: broken-model failed: java.lang.IllegalStateException:"
        + " index 250000 out of range (at io.tlogsim.cli.FaultyKind$Broken.onEvent(FaultyKind.java:"), r.err());
    try (Stream<Path> left = Files.exists(data.resolve("runs")) ? Files.list(data.resolve("runs")) : Stream.empty()) {
      assertEquals(0, left.count(), "a failed run leaves no run directory behind");
    }
  }

  @Test
  void anUnknownJournalIsRefusedNamingTheAllowedOnes() {
    badInput("--journal mysql: unknown; allowed: none, h2, postgres", "run", "gcm1", "--journal", "mysql");
  }
}
