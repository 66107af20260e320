package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.args;
import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html and the CSV series through the real command line: written by every run, rebuilt byte for byte by replay
 * and report; --warmup; the live figures of the progress lines.
 */
@ExtendWith(StderrNotATerminal.class)
class ReportTest {
  private static final String[] SMALL = {"--set", "sessions=300", "--set", "simulatedSeconds=0.2", "--threads", "2"};

  @TempDir
  Path tmp;

  private String data() {
    return tmp.resolve("data").toString();
  }

  private Path onlyRunDir() throws Exception {
    try (Stream<Path> s = Files.list(tmp.resolve("data/runs"))) {
      List<Path> dirs = s.toList();
      assertEquals(1, dirs.size(), dirs.toString());
      return dirs.get(0);
    }
  }

  private static List<String> names(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aRunWritesItsReportAndSeriesAndReplayAndReportRebuildThemByteForByte() throws Exception {
    Result run = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--data", data())));
    assertEquals(0, run.code(), run.err());
    Path dir = onlyRunDir();
    String runId = dir.getFileName().toString();
    assertEquals(List.of("commit-intervals.csv", "flush-sizes.csv", "latency.hlog", "log-intervals.csv",
        "report.html", "summary.json"), names(dir));
    assertTrue(run.out().replaceAll("\\s+", " ").contains("report report.html, commit-intervals.csv, "
        + "flush-sizes.csv, log-intervals.csv beside summary.json"), run.out());

    // The commit series adds up to the summary: 0.2 s in intervals of 2 ms, each pool's commits merged.
    JsonNode summary = summary(dir);
    List<String> rows = Files.readAllLines(dir.resolve("commit-intervals.csv"));
    assertEquals("database,fromSeconds,toSeconds,fromNanos,toNanos,warmup,commits,commitsPerSecond,latencyMeanUs,latencyP50Us,"
        + "latencyP90Us,latencyP99Us,latencyP999Us,latencyMaxUs", rows.get(0));
    assertEquals(101, rows.size(), "a header and 100 intervals");
    long commits = 0;
    double max = 0;
    for (String r : rows.subList(1, rows.size())) {
      String[] c = r.split(",", -1);
      commits += Long.parseLong(c[6]);
      if (!c[13].isEmpty()) max = Math.max(max, Double.parseDouble(c[13]));
    }
    assertEquals(summary.at("/commits/count").asLong(), commits);
    assertEquals(summary.at("/commits/latencyUs/max").asDouble(), max, 0.001);
    assertTrue(rows.get(1).startsWith(",0,0.002,0,2000000,false,"), rows.get(1));
    assertTrue(rows.get(100).startsWith(",0.198,0.2,198000000,200000000,false,"), rows.get(100));
    long writes = Files.readAllLines(dir.resolve("flush-sizes.csv")).stream().skip(1)
        .mapToLong(l -> Long.parseLong(l.split(",")[2])).sum();
    assertEquals(summary.at("/log/writes").asLong(), writes, "every write in the flush-size histogram");

    String html = Files.readString(dir.resolve("report.html"));
    assertFalse(html.contains("http://") && html.replace("http://www.w3.org/2000/svg", "").contains("http://"),
        "no network");
    for (String title : List.of("Commits per second", "Commit latency percentiles per interval", "Flush sizes",
        "Device IOPS", "Device MB/s")) {
      assertTrue(html.contains(">" + title + "</text>"), title);
    }
    assertTrue(html.contains("log-device cap"), "the simple device's cap is drawn");

    Path replayed = tmp.resolve("replayed");
    Result replay = tlogsim("replay", runId, "--data", data(), "--out", replayed.toString(), "--quiet");
    assertEquals(0, replay.code(), replay.err());
    Path reported = tmp.resolve("reported");
    Result report = tlogsim("report", runId, "--data", data(), "--out", reported.toString());
    assertEquals(0, report.code(), report.err());
    for (String f : names(dir)) {
      assertArrayEquals(Files.readAllBytes(dir.resolve(f)), Files.readAllBytes(replayed.resolve(f)), "replay: " + f);
      if (!f.equals("summary.json") && !f.equals("latency.hlog")) {
        assertArrayEquals(Files.readAllBytes(dir.resolve(f)), Files.readAllBytes(reported.resolve(f)), "report: " + f);
      }
    }
    assertFalse(Files.exists(reported.resolve("summary.json")), "report writes only the report and its series");

    Result unknown = tlogsim("report", "no-such-run", "--data", data());
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("no-such-run"), unknown.err());
  }

  @Test
  void aRunWithoutAJournalWritesTheSameReport() throws Exception {
    Path journaled = tmp.resolve("journaled");
    Path none = tmp.resolve("none");
    Result j = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--out", journaled.toString(), "--quiet")));
    assertEquals(0, j.code(), j.err());
    assertEquals(0, tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--journal", "none", "--out",
        none.toString(), "--quiet"))).code());
    for (String f : List.of("commit-intervals.csv", "log-intervals.csv", "flush-sizes.csv")) {
      assertArrayEquals(Files.readAllBytes(journaled.resolve(f)), Files.readAllBytes(none.resolve(f)), f);
    }
  }

  @Test
  void warmupLeavesTheFirstSecondsOutOfTheStatisticsAndDropsTheReference() throws Exception {
    Path full = tmp.resolve("full");
    Path warm = tmp.resolve("warm");
    String[] base = {"--set", "sessions=300", "--set", "simulatedSeconds=0.4", "--journal", "none"};
    Result a = tlogsim(args(new String[] {"run", "gcm1"}, args(base, "--out", full.toString())));
    Result b = tlogsim(args(new String[] {"run", "gcm1"}, args(base, "--warmup", "0.1", "--out", warm.toString())));
    assertEquals(0, a.code(), a.err());
    assertEquals(0, b.code(), b.err());
    JsonNode sa = summary(full), sb = summary(warm);
    assertEquals(sa.at("/digest").asText(), sb.at("/digest").asText(), "the same simulation");
    assertEquals(0.1, sb.at("/warmupSeconds").asDouble());
    assertEquals(0.1, sb.at("/params/warmupSeconds").asDouble());

    // The warm-up's commits are those of the intervals before 0.1 s, which the series marks (the intervals after it
    // hold the commits counted).
    long warmCommits = 0, counted = 0;
    List<String> rows = Files.readAllLines(warm.resolve("commit-intervals.csv"));
    assertEquals(81, rows.size(), "0.4 s in intervals of 5 ms");
    for (String r : rows.subList(1, rows.size())) {
      String[] c = r.split(",", -1);
      boolean inWarmup = Double.parseDouble(c[1]) < 0.1;
      assertEquals(String.valueOf(inWarmup), c[5], r);
      if (inWarmup) warmCommits += Long.parseLong(c[6]);
      else counted += Long.parseLong(c[6]);
    }
    assertTrue(warmCommits > 0);
    assertEquals(sa.at("/commits/count").asLong() - warmCommits, sb.at("/commits/count").asLong());
    assertEquals(counted, sb.at("/commits/count").asLong());
    assertEquals(Math.round(counted / 0.3 * 1000) / 1000.0, sb.at("/commits/perSecond").asDouble(), 0.01,
        "the rate over the 0.3 s counted");
    // The first commits (an empty log) are faster: the warm-up changes the figures.
    assertTrue(sb.at("/commits/latencyUs/min").asDouble() > sa.at("/commits/latencyUs/min").asDouble());
    assertTrue(b.out().contains("warm-up      the first 0.1 simulated s are left out"), b.out());
    assertFalse(sb.has("reference"));

    Result twice = tlogsim("run", "gcm1", "--warmup", "0.1", "--set", "warmupSeconds=0.2", "--journal", "none");
    assertEquals(2, twice.code());
    assertTrue(twice.err().contains("--warmup and --set warmupSeconds=0.2"), twice.err());
    Result tooLong = tlogsim("run", "gcm1", "--warmup", "2", "--journal", "none", "--out", tmp.resolve("x").toString());
    assertEquals(2, tooLong.code());
    assertTrue(tooLong.err().contains("--warmup 2 (warmupSeconds): must be less than simulatedSeconds (2), got 2"),
        tooLong.err());
    assertFalse(Files.exists(tmp.resolve("x")));
  }

  @Test
  void aWarmupDropsThePublishedReferenceAndSaysWhy() {
    Result kept = tlogsim("run", "gcm1", "--dry-run", "--journal", "none");
    assertTrue(kept.out().contains("reference    compared with BENCH.md"), kept.out());
    Result zero = tlogsim("run", "gcm1", "--dry-run", "--journal", "none", "--warmup", "0");
    assertTrue(zero.out().contains("reference    compared with BENCH.md"), "no warm-up is the published run: "
        + zero.out());
    Result warm = tlogsim("run", "gcm1", "--dry-run", "--journal", "none", "--warmup", "0.5");
    assertEquals(0, warm.code(), warm.err());
    assertTrue(warm.out().contains("reference    dropped: --set warmupSeconds changes the model"), warm.out());
    assertTrue(warm.out().matches("(?s).*\\n  warmupSeconds +0.5 s +--set\\n.*"), warm.out());
  }

  @Test
  void progressLinesCarryTheCommitRateAndLatency() {
    Result r = tlogsim(args(new String[] {"run", "gcm1"}, "--set", "sessions=1000", "--set", "simulatedSeconds=4",
        "--journal", "none", "--progress", "0.2", "--out", tmp.resolve("p").toString()));
    assertEquals(0, r.code(), r.err());
    Matcher m = Pattern.compile("([0-9,]+) commits/s,\\s+latency mean ([0-9.]+) us, p99 ([0-9.]+) us").matcher(
        r.err().replaceAll("\\n\\s+", " "));
    assertTrue(m.find(), "no live figures in: " + r.err());
    double rate = Double.parseDouble(m.group(1).replace(",", ""));
    assertTrue(rate > 600_000 && rate < 750_000, "GCM-1 commits about 674,000 a simulated second: " + rate);
  }

  /**
   * A run whose script ends long before its limit (as stairway-update-fragmented's 225 s of 7,200): every series ends
   * within the run, and it still has a point per second (not three 100 s intervals reaching past its end).
   */
  @Test
  void aRunThatEndsLongBeforeItsLimitHasSeriesThatEndWithinItAndAPointASecond() throws Exception {
    Path out = tmp.resolve("early");
    Result r = tlogsim("run", "oltp-commits", "--set", "sessions=10", "--set",
        "script=[{step = insert, rows = 2000, thinkUs = 10000}]", "--set", "simulatedSeconds=5000", "--set",
        "warmupSeconds=0", "--journal", "none", "--out", out.toString(), "--quiet");
    assertEquals(0, r.code(), r.err());
    double end = summary(out).get("simulatedSeconds").asDouble();
    assertTrue(end > 20 && end < 100, "the script's own length, not the limit: " + end);
    for (String csv : List.of("commit-intervals.csv", "log-intervals.csv", "device-intervals.csv")) {
      List<String> lines = Files.readAllLines(out.resolve(csv));
      List<String> header = List.of(lines.get(0).split(","));
      int to = header.indexOf("toSeconds") >= 0 ? header.indexOf("toSeconds") : header.indexOf("toNanos");
      double scale = header.get(to).equals("toNanos") ? 1e9 : 1;
      double last = lines.stream().skip(1).mapToDouble(l -> Double.parseDouble(l.split(",")[to]) / scale).max()
          .orElseThrow();
      double precision = 5e-7; // the series write their ends to the microsecond, rounded
      assertTrue(last <= end + precision, csv + " ends at " + last + " s, after the run's end " + end);
      assertTrue(last >= end - 1, csv + " ends at " + last + " s, before the run's end " + end);
      if (!csv.startsWith("device")) {
        assertTrue(lines.size() - 1 >= (int) end, csv + ": " + (lines.size() - 1) + " rows for " + end + " s");
      }
    }
  }
}
