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
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Issue 23 (everyday use, second pass) through the command line, in-process. */
@ExtendWith(StderrNotATerminal.class)
class EverydaySecondPassTest {
  @TempDir
  Path tmp;

  private static void bad(String expected, String... argv) {
    Result r = tlogsim(argv);
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals(1, r.errLines().size(), "one line: " + r.err());
    assertTrue(r.err().startsWith("tlogsim: ") && r.err().contains(expected), "expected '" + expected + "': " + r.err());
  }

  private static JsonNode dryRun(String... argv) throws Exception {
    String[] a = new String[argv.length + 2];
    System.arraycopy(argv, 0, a, 0, argv.length);
    a[argv.length] = "--dry-run";
    a[argv.length + 1] = "--json";
    Result r = tlogsim(a);
    assertEquals(0, r.code(), r.err());
    return new JsonMapper().readTree(r.out()).get("params");
  }

  @Test
  void valuesWithUnitsAreConvertedToTheParametersUnit() throws Exception {
    Path out = tmp.resolve("io");
    Result io = tlogsim("run", "iobench-ssd", "--set", "bs=4k", "--set", "runtime=200ms", "--journal", "none",
        "--out", out.toString(), "--quiet");
    assertEquals(0, io.code(), io.err());
    assertEquals(4096, summary(out).at("/params/bs").asLong());
    assertEquals(0.2, summary(out).at("/params/runtime").asDouble(), 1e-12);
    assertEquals(2000, dryRun("run", "gcm1", "--set", "thinkMeanUs=2ms").get("thinkMeanUs").asDouble(), 1e-9);
    assertEquals(0.1, dryRun("run", "gcm1", "--set", "simulatedSeconds=100ms").get("simulatedSeconds").asDouble(),
        1e-12);
    assertEquals(10_240, dryRun("run", "log-reservation", "--set", "logSizeMB=10GB", "--set", "logMaxSizeMB=0")
        .get("logSizeMB").asLong(), "SQL Server's GB: 1024 MB");
    assertEquals(1500, dryRun("run", "gcm1", "--set", "deviceMBps=1.5GB/s").get("deviceMBps").asDouble(), 1e-9);
    Path conf = tmp.resolve("mine.conf");
    Files.writeString(conf, "kind = iobench\nbs = 64k\nruntime = 1s\n");
    assertEquals(65_536, dryRun("run", conf.toString()).get("bs").asLong(), "in a scenario file too");

    bad("simulatedSeconds: '10GB' is a size; simulatedSeconds is a time in s", "run", "gcm1", "--set",
        "simulatedSeconds=10GB");
    bad("bs: '2ms' is a time; bs is a size in bytes", "run", "iobench-ssd", "--set", "bs=2ms");
    bad("sessions: '3ms' is a time; sessions is a plain number", "run", "gcm1", "--set", "sessions=3ms");
    bad("bs: must be an integer from 1 to", "run", "iobench-ssd", "--set", "bs=0.1k");
    Files.writeString(conf, "kind = iobench\nbs = 10ms\n");
    bad("mine.conf:2: bs: '10ms' is a time", "run", conf.toString());
  }

  @Test
  void shortOptionsAsPgbenchsStandForSessionsAndTime() throws Exception {
    JsonNode p = dryRun("run", "gcm1", "-c", "250", "-T", "500ms");
    assertEquals(250, p.get("sessions").asInt());
    assertEquals(0.5, p.get("simulatedSeconds").asDouble(), 1e-12);
    bad("-c 5 and --set sessions=6: give sessions once", "run", "gcm1", "-c", "5", "--set", "sessions=6");
    bad("-T 2x (simulatedSeconds): must be", "run", "gcm1", "-T", "2x");
    bad("-c 4 (sessions): unknown key for kind iobench", "run", "iobench-ssd", "-c", "4");
  }

  @Test
  void terseIsOneLineOfSemicolonSeparatedFigures() throws Exception {
    Path out = tmp.resolve("t");
    Result r = tlogsim("run", "gcm1", "-c", "200", "-T", "50ms", "--terse", "--journal", "none", "--out",
        out.toString());
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(1, lines.size(), r.out());
    String[] f = lines.get(0).split(";", -1);
    assertEquals(2 + Terse.FIELDS.size(), f.length, lines.get(0));
    assertEquals(Terse.VERSION, f[0]);
    JsonNode s = summary(out);
    assertEquals(s.get("runId").asText(), f[1]);
    assertEquals(s.get("digest").asText(), f[2 + Terse.FIELDS.indexOf("digest")]);
    assertEquals(s.at("/commits/count").asLong(), Long.parseLong(f[2 + Terse.FIELDS.indexOf("commits.count")]));
    assertEquals(s.at("/commits/latencyUs/p99").asDouble(),
        Double.parseDouble(f[2 + Terse.FIELDS.indexOf("commits.latencyUs.p99")]), 0);
    bad("--terse and --json: give one of them", "run", "gcm1", "--terse", "--json");
  }

  @Test
  void scenariosShowTheirKindAndRunHelpListsEveryTable() {
    Result r = tlogsim("scenarios");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().lines().findFirst().orElseThrow().matches("SCENARIO +KIND +DESCRIPTION"), r.out());
    assertTrue(r.out().lines().anyMatch(l -> l.matches("stairway-backup-fragmented +stairway +Log backup .*")),
        r.out());
    String help = tlogsim("run", "--help").out().replaceAll("\\s+", " ");
    for (String table : io.tlogsim.kinds.ScenarioKinds.tables()) assertTrue(help.contains(table + " ("), table + ": " + help);
  }

  @Test
  void dryRunColumnsAreAligned() {
    Result r = tlogsim("run", "oltp-commits", "--dry-run");
    assertEquals(0, r.code(), r.err());
    List<String> rows = r.out().lines().filter(l -> l.matches("  \\S+ +\\S.* +(default|scenario|--set)\\b.*"))
        .toList();
    assertTrue(rows.size() > 30, r.out());
    Set<Integer> originColumns = rows.stream().map(l -> Math.max(Math.max(l.indexOf(" default, "),
        l.indexOf(" scenario, ")), l.indexOf(" --set"))).collect(Collectors.toSet());
    assertEquals(1, originColumns.size(), "the origins start in one column: " + r.out());
    assertTrue(r.out().contains("  script  ") && r.out().contains("\n    [{step=insert,"), "a script below its row: "
        + r.out());
  }

  @Test
  void aFixedArrivalRateGivesThatRateAndSaysWhenItCannot() throws Exception {
    Path under = tmp.resolve("under");
    Result r = tlogsim("run", "oltp-commits", "-R", "20000", "-T", "1", "--journal", "none", "--out", under.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode s = summary(under);
    assertEquals(20_000, s.at("/commits/perSecond").asDouble(), 20_000 * 0.03, "the rate asked, Poisson");
    assertEquals(20_000, s.at("/arrivals/ratePerSecond").asDouble(), 0);
    assertTrue(s.at("/arrivals/late").asLong() < s.at("/arrivals/scheduled").asLong() / 10, s.get("arrivals").toString());
    assertTrue(r.out().contains("arrivals     20,000/s asked (Poisson)"), r.out());
    Path over = tmp.resolve("over");
    r = tlogsim("run", "oltp-commits", "-R", "1000000", "-T", "1", "--journal", "none", "--out", over.toString(),
        "--quiet");
    assertEquals(0, r.code(), r.err());
    JsonNode o = summary(over);
    assertTrue(o.at("/commits/perSecond").asDouble() < 500_000, "the host cannot: " + o.get("commits"));
    assertTrue(o.at("/arrivals/late").asLong() > o.at("/arrivals/scheduled").asLong() / 2, o.get("arrivals").toString());
    assertTrue(o.at("/arrivals/lagMaxUs").asDouble() > 100_000, "the schedule lag grows: " + o.get("arrivals"));
    bad("-R 5 (arrivalRate): unknown key for kind gcm1", "run", "gcm1", "-R", "5");
  }

  @Test
  void percentilesAndOneLatencyIntervalPerReportInterval() throws Exception {
    Path out = tmp.resolve("p");
    Result r = tlogsim("run", "gcm1", "-c", "300", "-T", "200ms", "--warmup", "0.05", "--percentiles", "50,99.99",
        "--journal", "none", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().matches("(?s).*\npercentiles  p50 [\\d.]+ us, p99.99 [\\d.]+ us\n.*"), r.out());
    List<String> intervals = Files.readAllLines(out.resolve("commit-intervals.csv"));
    var reader = new org.HdrHistogram.HistogramLogReader(out.resolve("latency.hlog").toString());
    int n = 0;
    long untagged = 0;
    int warm = 0;
    for (org.HdrHistogram.EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; n++) {
      org.HdrHistogram.Histogram hh = (org.HdrHistogram.Histogram) h;
      if (hh.getTag() == null) untagged += hh.getTotalCount();
      else if (hh.getTag().equals("warmup")) warm++;
    }
    assertEquals(intervals.size() - 1, n, "one interval per report interval");
    assertTrue(warm > 0, "the warm-up's intervals are tagged");
    assertEquals(summary(out).at("/commits/count").asLong(), untagged, "the untagged intervals are the run's commits");
    bad("--percentiles: each must be a number above 0 and at most 100", "run", "gcm1", "--percentiles", "101");
  }

  @Test
  void theReportNamesItsAxesHidesZeroSeriesAndPutsLargeTablesBesideIt() throws Exception {
    Path conf = tmp.resolve("grow.conf");
    Files.writeString(conf, "kind = log-space\ndescription = \"a log grown 300 x 1 MB\"\n"
        + "script = [{ step = grow-log, file = 2, mb = 1, times = 300 }, { step = insert, rows = 10 }]\n");
    Path out = tmp.resolve("r");
    Result r = tlogsim("run", conf.toString(), "--journal", "none", "--out", out.toString(), "--quiet");
    assertEquals(0, r.code(), r.err());
    String html = Files.readString(out.resolve("report.html"));
    assertTrue(!html.contains("DeviceInterval.") && !html.contains("LogSpaceSample."), "raw field names as titles");
    assertTrue(html.contains("Log space: log size") && html.contains("log size, MB"), "names and units on the axes");
    assertTrue(html.contains("simulated time, s"), "the time axis");
    assertTrue(html.contains("0 throughout the run, not drawn: reads"), "an all-zero series is said, not drawn");
    assertTrue(!html.contains(">Device: reads<"), "and not drawn");
    List<String> loginfo = Files.readAllLines(out.resolve("table-loginfo.txt"));
    assertTrue(loginfo.size() > 300, "every LOGINFO row in the file: " + loginfo.size());
    assertTrue(html.contains("rows; all of them in <a href=\"table-loginfo.txt\">"), "the page links it");
    assertTrue(html.split(java.util.regex.Pattern.quote(loginfo.get(loginfo.size() - 1)), -1).length == 1,
        "the last row is not on the page");
    // a read path's BACKUP LOG with no full backup: Msg 4214 on the run's own output; the error log wraps in the report
    Path nofull = tmp.resolve("nofull.conf");
    Files.writeString(nofull, "kind = read-path\nfullBackupTaken = false\n"
        + "script = [{ step = update, rows = 100 }, { step = backup-log }]\n");
    Path err = tmp.resolve("e");
    r = tlogsim("run", nofull.toString(), "--journal", "none", "--out", err.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().replaceAll("\\s+", " ").contains("error at ")
        && r.out().replaceAll("\\s+", " ").contains("Msg 4214: BACKUP LOG cannot be performed because there is no"
        + " current database backup."), r.out());
    assertTrue(Files.readString(err.resolve("report.html")).contains("<pre class=\"wrap\">"), "the error log wraps");
  }

  @Test
  void theWordsFollowTheSettings() throws Exception {
    Path out = tmp.resolve("d");
    Result r = tlogsim("run", "gcm1", "-c", "200", "-T", "50ms", "--journal", "none", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    String said = "GCM-1 group-commit benchmark with sessions = 200 and simulatedSeconds = 0.05 s (--set)";
    assertTrue(r.out().replaceAll("\\s+", " ").startsWith("running gcm1: " + said), r.out());
    assertEquals(said, summary(out).at("/provenance/description").asText());
    assertTrue(Files.readString(out.resolve("report.html")).contains(said), "the report's header");
    assertTrue(!r.out().contains("1,000 sessions") && !r.out().contains("2 s (BENCH.md)"), r.out());
    Result plain = tlogsim("run", "gcm1", "--dry-run");
    assertTrue(plain.out().replaceAll("\\s+", " ").contains("description GCM-1 group-commit benchmark: 1,000 sessions,"),
        plain.out());

    Result dd = tlogsim("run", "oltp-commits", "--set", "flushPolicy=delayed-durability", "-T", "0.6", "--journal",
        "none", "--out", tmp.resolve("dd").toString());
    assertEquals(0, dd.code(), dd.err());
    assertTrue(dd.out().contains("flush policy delayed-durability (DISABLED: every commit waits)"), dd.out());
    Result gc = tlogsim("run", "oltp-commits", "--set", "flushPolicy=group-commit", "--dry-run");
    assertTrue(gc.out().replaceAll("\\s+", " ").contains("note flushPolicy group-commit with groupCommitDelayUs = 0 and"
        + " groupCommitCount = 0 holds no flush back"), gc.out());
    Result gc200 = tlogsim("run", "oltp-commits", "--set", "flushPolicy=group-commit", "--set", "groupCommitDelayUs=200",
        "--dry-run");
    assertTrue(!gc200.out().contains("holds no flush back"), "a delay groups commits: " + gc200.out());

    Path mi = tmp.resolve("mi");
    Result cap = tlogsim("run", "oltp-commits", "--set", "logDevice=premium", "--set", "premiumTier=P40", "-c", "2",
        "-T", "3", "--set", "warmupSeconds=0", "--journal", "none", "--out", mi.toString());
    assertEquals(0, cap.code(), cap.err());
    assertTrue(cap.out().replaceAll("\\s+", " ").contains("of its cap of 7,500 IOPS: the cap never limited this run"),
        cap.out());
  }
}
