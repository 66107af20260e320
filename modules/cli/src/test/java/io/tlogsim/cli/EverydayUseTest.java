package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.args;
import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.cli.TlogsimTest.Result;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.ParamSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.codegen.docgen.manpage.ManPageGenerator;

/** Issue 12 through the real command line, in-process: discoverability, provenance, output modes, statistics. */
@ExtendWith(StderrNotATerminal.class)
class EverydayUseTest {
  private static final String[] SMALL = {"--set", "sessions=200", "--set", "simulatedSeconds=0.05", "--threads", "1"};

  @TempDir
  Path tmp;

  private static String[] run(String... tail) {
    return args(new String[] {"run", "gcm1"}, tail);
  }

  @Test
  void paramsListsEveryParameterWithTypeRangeDefaultUnitAndMeaning() {
    Result r = tlogsim("params", "gcm1");
    assertEquals(0, r.code(), r.err());
    for (ParamSpec p : ScenarioKinds.loader().kind("gcm1").params()) {
      assertTrue(r.out().lines().anyMatch(l -> l.startsWith(p.key() + " = ")), p.key() + " missing:\n" + r.out());
      assertTrue(r.out().contains(p.description()), p.description());
      assertTrue(r.out().contains(p.rangeText()), p.rangeText());
    }
    assertTrue(r.out().contains("thinkMeanUs = 1000 us"), r.out());
    assertTrue(r.out().contains("number, 0.001 to 1,000,000,000 us"), r.out());
    assertTrue(r.out().contains("BENCH.md Model: \"think Exp(mean 1 ms)\" (application.conf:"), r.out());
    assertTrue(r.out().contains("flushPolicy = group-commit"), r.out());
    assertWithin80Columns(r.out());

    Result unknown = tlogsim("params", "gcm1-100k");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("kinds: ") && unknown.err().contains("gcm1,")
        && unknown.err().contains("gcm1-100k' is a scenario"),
        unknown.err());
    assertEquals(2, tlogsim("params").code());
  }

  @Test
  void dryRunPrintsEveryValueAndItsOriginAndWritesNothing() throws Exception {
    Path data = tmp.resolve("data");
    Result r = tlogsim(run("--dry-run", "--data", data.toString(), "--set", "hopUs=7", "--seed", "9"));
    assertEquals(0, r.code(), r.err());
    assertFalse(Files.exists(data), "a dry run makes no directory");
    assertTrue(r.out().contains("valid; nothing run or written"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  seed +9 +--seed\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  sessions +1000 +scenario, scenarios/gcm1.conf:5\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  hopUs +7 us +--set\\n.*"), r.out());
    assertTrue(r.out().matches("(?s).*\\n  thinkMeanUs +1000 us +default, application.conf:\\d+\\n.*"), r.out());
    for (ParamSpec p : ScenarioKinds.loader().kind("gcm1").params()) {
      assertTrue(r.out().contains("\n  " + p.key() + " "), p.key());
    }
    assertTrue(r.out().contains("reference    dropped: --set hopUs changes the model"), r.out());
    assertWithin80Columns(r.out());

    Result json = tlogsim(run("--dry-run", "--json", "--data", data.toString()));
    assertEquals(0, json.code(), json.err());
    JsonNode j = new JsonMapper().readTree(json.out());
    assertTrue(j.get("dryRun").asBoolean());
    assertEquals(1000, j.at("/params/sessions").asInt());
    JsonNode seeded = new JsonMapper().readTree(tlogsim(run("--dry-run", "--json", "--set", "seed=3")).out());
    assertEquals("--set", seeded.at("/provenance/origins/seed").asText(), seeded.toString());
    assertEquals(3, seeded.get("seed").asLong());
    assertFalse(Files.exists(data));
  }

  @Test
  void summaryCarriesProvenanceAndTheDescriptionIsPrinted() throws Exception {
    Path out = tmp.resolve("out");
    Result r = tlogsim(run(args(SMALL, "--out", out.toString())));
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("running      gcm1: GCM-1 group-commit benchmark"), r.out());
    JsonNode p = summary(out).get("provenance");
    assertEquals(Tlogsim.version(), p.get("version").asText());
    assertEquals("tlogsim run gcm1 " + String.join(" ", SMALL) + " --out " + out, p.get("commandLine").asText());
    assertEquals("built-in:gcm1", p.get("scenarioFile").asText());
    assertTrue(p.get("description").asText().startsWith("GCM-1 group-commit benchmark"));
    assertEquals("200", p.at("/overrides/sessions").asText());
    assertEquals("0.05", p.at("/overrides/simulatedSeconds").asText());
    assertTrue(java.time.OffsetDateTime.parse(p.get("startedAt").asText()).getYear() >= 2024, p.toString());
    assertEquals(200, summary(out).at("/params/sessions").asInt(), "resolved parameters stay under params");

    Path file = tmp.resolve("my scenario.conf");
    Files.writeString(file, "kind = gcm1\ndescription = \"mine\"\nsessions = 50\nsimulatedSeconds = 0.01\n");
    Path out2 = tmp.resolve("out2");
    assertEquals(0, tlogsim("run", file.toString(), "--threads", "1", "--out", out2.toString()).code());
    JsonNode p2 = summary(out2).get("provenance");
    assertEquals(file.toAbsolutePath().toString(), p2.get("scenarioFile").asText());
    assertTrue(p2.get("commandLine").asText().contains("'" + file + "'"), "quoted for the shell: " + p2);
  }

  @Test
  void referenceIsKeptWhenTheModelIsUnchangedAndTheRunSaysWhenItIsDropped() throws Exception {
    Path kept = tmp.resolve("kept");
    Result same = tlogsim(run("--set", "sessions=1000", "--set", "simulatedSeconds=2", "--threads", "1", "--out",
        kept.toString()));
    assertEquals(0, same.code(), same.err());
    assertTrue(summary(kept).has("reference"), "sessions=1000 is gcm1's own value");
    assertTrue(same.out().contains("published 1,347,453, simulated"), same.out());

    Path dropped = tmp.resolve("dropped");
    Result r = tlogsim(run(args(SMALL, "--out", dropped.toString())));
    JsonNode s = summary(dropped);
    assertFalse(s.has("reference"));
    assertEquals("[\"sessions\",\"simulatedSeconds\"]", s.at("/referenceDropped/changedKeys").toString());
    assertEquals(1, r.out().lines().filter(l -> l.startsWith("reference")).count(), r.out());
    assertTrue(r.out().contains("\nreference    dropped: --set sessions, simulatedSeconds change the model\n"),
        r.out());
  }

  @Test
  void jsonPutsOnlyTheSummaryOnStdoutAndQuietPrintsNothing() throws Exception {
    Path out = tmp.resolve("j");
    Result r = tlogsim(run(args(SMALL, "--json", "--out", out.toString())));
    assertEquals(0, r.code(), r.err());
    JsonNode printed = new JsonMapper().readTree(r.out());
    assertEquals(summary(out), printed, "stdout is summary.json, nothing else");
    assertTrue(r.err().contains("commits "), "the human summary went to stderr: " + r.err());

    Result quiet = tlogsim(run(args(SMALL, "--quiet", "--out", tmp.resolve("q").toString())));
    assertEquals(0, quiet.code());
    assertEquals("", quiet.out());
    assertEquals("", quiet.err());
    assertTrue(Files.exists(tmp.resolve("q/summary.json")));

    Result both = tlogsim(run(args(SMALL, "--quiet", "--json", "--out", tmp.resolve("qj").toString())));
    assertEquals(summary(tmp.resolve("qj")), new JsonMapper().readTree(both.out()));
    assertEquals("", both.err());
  }

  @Test
  void progressLinesGoToStderrWhenItIsNotATerminal() {
    Result r = tlogsim(run("--set", "sessions=1000", "--set", "simulatedSeconds=1", "--threads", "1", "--progress",
        "0.01", "--out", tmp.resolve("p").toString()));
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.errLines();
    assertFalse(lines.isEmpty(), "a progress line every 10 ms of a run that takes longer");
    for (String l : lines) {
      if (l.startsWith("             ")) continue; // the live figures wrapped under the margin (see ReportTest)
      // then, once the first intervals are complete, the commit rate and latency
      assertTrue(l.matches("progress     [\\d.]+ of 1 simulated s \\(\\d+\\.\\d%\\), [\\d.]+ wall s(, [\\d,]+ commits/s,)?"),
          l);
    }
    assertFalse(r.out().contains("progress"), "progress never goes to stdout");
    Result none = tlogsim(run(args(SMALL, "--out", tmp.resolve("n").toString())));
    assertEquals("", none.err(), "no --progress and no terminal: no progress");
  }

  @Test
  void latencyStatisticsAndTheHistogramLog() throws Exception {
    Path out = tmp.resolve("stats");
    Result r = tlogsim(run(args(SMALL, "--out", out.toString())));
    assertEquals(0, r.code(), r.err());
    JsonNode lat = summary(out).at("/commits/latencyUs");
    String[] order = {"min", "p50", "p90", "p95", "p99", "p999", "max"};
    for (int i = 1; i < order.length; i++) {
      assertTrue(lat.get(order[i - 1]).asDouble() <= lat.get(order[i]).asDouble(), order[i] + ": " + lat);
    }
    assertTrue(lat.get("min").asDouble() <= lat.get("mean").asDouble() && lat.get("mean").asDouble() <= lat.get("max")
        .asDouble(), lat.toString());
    assertTrue(lat.get("stddev").asDouble() > 0, lat.toString());
    assertTrue(r.out().contains("histogram    latency.hlog"), r.out());

    // one interval per report interval (docs/reports.md): together, untagged, the run's distribution
    HistogramLogReader reader = new HistogramLogReader(out.resolve("latency.hlog").toFile());
    Histogram h = new Histogram(3);
    h.setAutoResize(true);
    for (Histogram i; (i = (Histogram) reader.nextIntervalHistogram()) != null; ) {
      if (i.getTag() == null) h.add(i);
    }
    assertEquals(summary(out).at("/commits/count").asLong(), h.getTotalCount());
    assertEquals(lat.get("stddev").asDouble(), h.getStdDeviation() / 1e3, lat.get("stddev").asDouble() * 0.01);
  }

  @Test
  void readableOutputFitsEightyColumnsAndZeroCommitsSaySo() throws Exception {
    Result big = tlogsim("run", "gcm1-100k", "--set", "simulatedSeconds=0.3", "--threads", "1", "--out",
        tmp.resolve("big").toString());
    assertEquals(0, big.code(), big.err());
    assertTrue(big.out().contains("100,000 sessions in 2 pools"), big.out());
    assertTrue(big.out().matches("(?s).*mean [\\d.]+ ms.*"), "latencies of ms are shown in ms: " + big.out());
    assertWithin80Columns(big.out());

    Path none = tmp.resolve("none");
    Result zero = tlogsim(run("--set", "sessions=1", "--set", "thinkMeanUs=1e8", "--set", "simulatedSeconds=0.001",
        "--threads", "1", "--out", none.toString()));
    assertEquals(0, zero.code(), zero.err());
    assertTrue(zero.out().contains("commits      0 commits in 0.001 simulated s: none acknowledged"), zero.out());
    assertTrue(zero.out().contains("1 session in 1 pool"), zero.out());
    assertFalse(zero.out().contains("latency      "), "no latency figures without commits: " + zero.out());
    JsonNode lat = summary(none).at("/commits/latencyUs");
    assertTrue(lat.get("mean").isNull() && lat.get("p99").isNull(), "no commit, no mean of 0: " + lat);
  }

  private static void assertWithin80Columns(String text) {
    text.lines().filter(l -> !l.startsWith("summary ") && !l.startsWith("output "))
        .forEach(l -> assertTrue(l.length() <= 80, "over 80 columns (" + l.length() + "): " + l));
  }

  /** Bad input through the real command line: exit 2, one line naming what is wrong, nothing written. */
  private void refused(String expected, String... argv) {
    Path data = tmp.resolve("refused-data");
    Result r = tlogsim(argv);
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
    assertEquals("", r.out());
    assertFalse(Files.exists(data));
  }

  @Test
  void conflictingOptionsNameBoth() {
    String data = tmp.resolve("refused-data").toString();
    refused("--seed and --set seed=4", run("--seed", "3", "--set", "seed=4", "--data", data));
    refused("--out and --data", run("--out", tmp.resolve("o").toString(), "--data", data));
    refused("--set sessions=5 and --set sessions=6: give sessions once", run("--set", "sessions=5", "--set",
        "sessions=6", "--data", data));
    refused("--sessions and --set sessions=5", "bench", "gcm1", "--sessions", "4", "--set", "sessions=5", "--data",
        data);
    refused("--seconds and --set simulatedSeconds=1", "bench", "gcm1", "--seconds", "2", "--set",
        "simulatedSeconds=1", "--data", data);
    refused("--quiet and --progress", run("--quiet", "--progress", "1", "--data", data));
    refused("--progress: must be", run("--progress", "0", "--data", data));
    assertFalse(Files.exists(tmp.resolve("o")));
  }

  @Test
  void emptyStringsAreRefused() {
    String data = tmp.resolve("refused-data").toString();
    refused("--out: must not be empty", run("--out", ""));
    refused("--data: must not be empty", run("--data", ""));
    refused("the scenario must not be empty", "run", "", "--data", data);
    refused("the key must not be empty", run("--set", "=5", "--data", data));
    refused("the key must not be empty", run("--set", " =5", "--data", data));
  }

  /**
   * Bad input a new user tries, across the commands: each exits 2 with one line naming the option or key and what is
   * allowed, and leaves nothing behind. {@code DATA} stands for a data directory that must stay absent.
   */
  static Stream<Arguments> badInputs() {
    return Stream.of(
        bad("sessions: must be an integer from 1 to 10000000, got '0'", "run", "gcm1", "--set", "sessions=0"),
        bad("sessions: must be an integer from 1 to", "run", "gcm1", "--set", "sessions=NaN"),
        bad("sessions: must be an integer from 1 to", "run", "gcm1", "--set", "sessions=99999999999999999999"),
        bad("simulatedSeconds: must be a number from 0.001 to", "run", "gcm1", "--set", "simulatedSeconds=0"),
        bad("simulatedSeconds: must be a number from", "run", "gcm1", "--set", "simulatedSeconds=Infinity"),
        bad("simulatedSeconds: must be a number from", "run", "gcm1", "--set", "simulatedSeconds=1e300"),
        bad("flushPolicy: must be one of per-commit, buffered,", "run", "oltp-commits", "--set", "flushPolicy=nosuch"),
        bad("--warmup 5 (warmupSeconds): must be less than simulatedSeconds (2), got 5", "run", "gcm1", "--warmup",
            "5"),
        bad("--warmup -1 (warmupSeconds): must be a number from 0", "run", "gcm1", "--warmup", "-1"),
        bad("--warmup 0.1 (warmupSeconds): unknown key for kind pg-commit", "run", "pg-commit", "--warmup", "0.1"),
        bad("--progress: must be a number of wall seconds from 0 (exclusive) to 86400, got -1", "run", "gcm1",
            "--progress", "-1"),
        bad("--seed': 'abc' is not an integer", "run", "gcm1", "--seed", "abc"),
        bad("--threads: must be an integer from 1 to 1024, got 100000", "run", "gcm1", "--threads", "100000"),
        bad("--threads: must be an integer from 1 to 1024, got 99999999999", "run", "gcm1", "--threads",
            "99999999999"),
        bad("--show nosuch: unknown table; allowed: onstat,", "run", "gcm1", "--show", "nosuch"),
        bad("--resume: the run id must not be empty", "run", "--resume", ""),
        bad("the run id must not be empty", "replay", ""),
        bad("the run id must not be empty", "report", ""),
        bad("the run id must not be empty", "compare", "", ""),
        bad("sessions: must be an integer from 1 to", "bench", "gcm1", "--sessions", "0"),
        bad("sessions: must be an integer from 1 to 10000000, got '99999999999'", "bench", "gcm1", "--sessions",
            "99999999999"),
        bad("simulatedSeconds: must be a number from", "bench", "gcm1", "--seconds", "NaN"),
        bad("simulatedSeconds: must be a number from 0.001 to 86400, got '0'", "bench", "gcm1", "--seconds", "0"),
        bad("unknown kind 'nosuch'; kinds: commit-path, gcm1,", "params", "nosuch"),
        bad("--parallel: must be an integer from 1 to 256, got 0", "sweep", "commit-policies", "--parallel", "0"),
        bad("--out: must not be empty; give a directory", "sweep", "commit-policies", "--out", ""),
        bad("--cluster nohost: must be host:port of a tlogsim node, e.g. 127.0.0.1:25520", "sweep", "commit-policies",
            "--cluster", "nohost"),
        bad("--path: must not be empty; give a directory", "calibrate-device", "--path", ""),
        bad("--out: must not be empty; give a file", "calibrate-device", "--path", ".", "--out", ""),
        bad("--seconds: must be from 5 to 3600, got 0", "calibrate-device", "--path", ".", "--seconds", "0"),
        bad("--name: letters, digits", "calibrate-device", "--path", ".", "--name", "../x"),
        bad("--port: must be an integer from 0 to 65535, got 70000", "node", "--port", "70000"),
        bad("--seed bogus: must be host:port", "node", "--seed", "bogus"),
        bad("--host: must not be empty", "node", "--host", ""),
        bad("--device nosuch (logDevice): must be one of simple, ssd,", "advise", "--target-commits-per-second",
            "1000", "--max-loss-ms", "1", "--device", "nosuch"),
        bad("--max-loss-ms: must be from 0 (fully durable) to 3,600,000, got -1", "advise",
            "--target-commits-per-second", "1000", "--max-loss-ms", "-1"));
  }

  private static Arguments bad(String expected, String... argv) {
    return Arguments.of(expected, argv);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badInputs")
  void badInputExits2WithOneLineAndWritesNothing(String expected, String[] argv) {
    String data = tmp.resolve("refused-data").toString();
    boolean takesData = Tlogsim.commandLine().getSubcommands().get(argv[0]).getCommandSpec().findOption("--data")
        != null;
    refused(expected, takesData ? args(argv, "--data", data) : argv);
  }

  @Test
  void scenarioFilesAndDirectoriesAreNamedWithTheirLine() throws Exception {
    String data = tmp.resolve("refused-data").toString();
    refused("is a directory", "run", tmp.toString(), "--data", data);
    Path f = tmp.resolve("bad.conf");
    Files.writeString(f, "kind = gcm1\n# a comment\nsessions = -3\n");
    refused(f + ":3: sessions: must be an integer from 1 to", "run", f.toString(), "--data", data);
    Files.writeString(f, "this is { not hocon\n");
    refused(f + ":2: malformed:", "run", f.toString(), "--data", data);
    refused(f + ":2: malformed: Key", "sweep", f.toString(), "--data", data);
    refused("--config " + f + ":2: malformed: Key", "node", "--config", f.toString(), "--data", data);
    refused("experiment " + tmp + " is a directory", "sweep", tmp.toString(), "--data", data);
  }

  @Test
  void outIsCheckedBeforeTheRunAndSummariesAreNotOverwrittenWithoutForce() throws Exception {
    Path file = tmp.resolve("a-file");
    Files.writeString(file, "x");
    refused("is not a directory", run(args(SMALL, "--out", file.resolve("sub").toString())));
    refused(file + ": exists and is not a directory", "sweep", "commit-policies", "--out", file.toString());
    // a file as the data directory holds no journal
    for (String command : List.of("runs", "replay", "report", "facts")) {
      refused("--data " + file + ": exists and is not a directory",
          command.equals("runs") ? new String[] {command, "--data", file.toString()}
              : new String[] {command, "some-run", "--data", file.toString()});
    }
    refused("--out " + file.resolve("sub") + ": " + file + " is not a directory", "sweep", "commit-policies", "--out",
        file.resolve("sub").toString());
    Path out = tmp.resolve("twice");
    assertEquals(0, tlogsim(run(args(SMALL, "--out", out.toString()))).code());
    String first = Files.readString(out.resolve("summary.json"));
    refused("already holds summary.json; give --force", run(args(SMALL, "--out", out.toString())));
    assertEquals(first, Files.readString(out.resolve("summary.json")), "left as it was");
    Result forced = tlogsim(run(args(SMALL, "--seed", "5", "--out", out.toString(), "--force")));
    assertEquals(0, forced.code(), forced.err());
    assertEquals(5, summary(out).get("seed").asLong());
  }

  @Test
  void completionHelpAndManPagesComeFromTheCommandModel() throws Exception {
    Result c = tlogsim("completion");
    assertEquals(0, c.code(), c.err());
    assertTrue(c.out().startsWith("#!/usr/bin/env bash"), c.out());
    for (String word : List.of("scenarios", "params", "run", "bench", "--dry-run", "--json", "--progress")) {
      assertTrue(c.out().contains(word), word);
    }

    Result help = tlogsim("--help");
    for (String word : List.of("TLOGSIM_DATA", "TLOGSIM_JAVA_OPTS", "TLOGSIM_DEBUG", "Exit codes:", "  0 ", "  1 ",
        "  2 ")) {
      assertTrue(help.out().contains(word), word + " in:\n" + help.out());
    }
    assertTrue(tlogsim("run", "--help").out().contains("TLOGSIM_JAVA_OPTS"));
    for (String command : List.of("run", "bench", "runs", "replay", "facts", "report", "compare", "sweep",
        "calibrate-device", "calibrate-host", "advise", "node")) {
      String h = tlogsim(command, "--help").out();
      assertTrue(h.contains("\nExit codes:\n  0 ") && h.contains("  2 "), command + ":\n" + h);
      // one variable a line, none wrapped under the names
      h.substring(h.indexOf("\nEnvironment:\n") + 14).lines().filter(l -> !l.isEmpty())
          .forEach(l -> assertTrue(l.startsWith("  TLOGSIM_") && l.length() <= 80, command + ": " + l));
    }

    Path man = tmp.resolve("man");
    assertEquals(0, ManPageGenerator.generateManPage(man.toFile(), null, new boolean[0], false,
        Tlogsim.commandLine().getCommandSpec()));
    String run;
    try (Stream<Path> pages = Files.list(man)) {
      assertTrue(pages.map(p -> p.getFileName().toString()).toList().containsAll(List.of("tlogsim.adoc",
          "tlogsim-run.adoc", "tlogsim-params.adoc", "tlogsim-completion.adoc")));
    }
    run = Files.readString(man.resolve("tlogsim-run.adoc"));
    assertTrue(run.contains("*--dry-run*") && run.contains("TLOGSIM_JAVA_OPTS") && run.contains("Exit codes"), run);
  }
}
