package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sweep, advise, calibrate-device and calibrate-host through the command line: bad input is one line and exit 2,
 * nothing written; sweep --json.
 */
class ExperimentCommandsTest {
  @TempDir
  Path tmp;

  private static void badInput(String expected, String... argv) {
    TlogsimTest.Result r = tlogsim(argv);
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.errLines().size(), "one line: " + r.err());
    assertTrue(r.err().startsWith("tlogsim: ") && r.err().contains(expected), r.err());
  }

  @Test
  void adviseRefusesBadTargetsLossesDevicesAndVersions() {
    badInput("--target-commits-per-second", "advise", "--target-commits-per-second", "-5", "--max-loss-ms", "0");
    badInput("--max-loss-ms", "advise", "--target-commits-per-second", "5000", "--max-loss-ms", "-1");
    badInput("--log-growth-per-hour", "advise", "--target-commits-per-second", "5000", "--max-loss-ms", "0",
        "--log-growth-per-hour", "-3");
    badInput("logDevice", "advise", "--target-commits-per-second", "5000", "--max-loss-ms", "0", "--device", "tape");
    badInput("--sql-server-version", "advise", "--target-commits-per-second", "5000", "--max-loss-ms", "0",
        "--sql-server-version", "2000");
    badInput("--max-loss-ms", "advise", "--target-commits-per-second", "5000");
    badInput("give one of --target-commits-per-second X or --target-mb-per-second MB", "advise", "--max-loss-ms", "0");
    badInput("give one of --target-commits-per-second X or --target-mb-per-second MB", "advise",
        "--target-commits-per-second", "10", "--target-mb-per-second", "1", "--max-loss-ms", "0");
    badInput("--target-mb-per-second: must be a number above 0", "advise", "--target-mb-per-second", "0",
        "--max-loss-ms", "0");
    badInput("--vcores: must be an integer from 0", "advise", "--target-commits-per-second", "10", "--max-loss-ms",
        "0", "--vcores", "-1");
  }

  /**
   * A log-rate target on a managed instance: turned into commits by the load's log per commit; the table, the advice
   * and the cloud file name the same file, with the per-vCore log-rate cap on in its runs.
   */
  @Test
  void adviseTakesAnMbPerSecondTargetAndNamesOneFileSizeOnAManagedInstance() {
    TlogsimTest.Result r = tlogsim("advise", "--target-mb-per-second", "0.05", "--max-loss-ms", "0", "--device",
        "premium", "--quiet");
    assertEquals(0, r.code(), r.err());
    var target = java.util.regex.Pattern.compile("target +0\\.050* MB/s of log records at ([\\d,]+) B per commit of the "
        + "load = ([\\d,]+) commits/s").matcher(r.out());
    assertTrue(target.find(), r.out());
    double perCommit = Double.parseDouble(target.group(1).replace(",", ""));
    double commits = Double.parseDouble(target.group(2).replace(",", ""));
    assertEquals(50_000 / perCommit, commits, 1, r.out());
    assertTrue(r.out().contains("(8 vCores: log rate at most"), r.out());
    var advice = java.util.regex.Pattern.compile("advice +flush policy \\S+ on premium file (\\d+) GiB").matcher(r.out());
    assertTrue(advice.find(), r.out());
    String gib = advice.group(1);
    assertTrue(r.out().contains("cloud file   managed-instance log file of " + gib + " GiB (band "), r.out());
    assertTrue(r.out().contains("--set premiumLogRateVCores=8"), "the cap is on in the runs: " + r.out());
  }

  @Test
  void calibrateDeviceRefusesAMissingDirectoryAndBadLimitsWritingNothing() {
    Path out = tmp.resolve("p.conf");
    badInput("--path", "calibrate-device", "--path", tmp.resolve("none").toString(), "--out", out.toString());
    badInput("--seconds", "calibrate-device", "--path", tmp.toString(), "--seconds", "1", "--out", out.toString());
    badInput("--max-mb", "calibrate-device", "--path", tmp.toString(), "--max-mb", "1", "--out", out.toString());
    badInput("--name", "calibrate-device", "--path", tmp.toString(), "--name", "../x");
    assertFalse(Files.exists(out));
  }

  @Test
  void calibrateDeviceWritesAProfileAndPrintsMeasuredBesideSimulated() throws Exception {
    Path out = tmp.resolve("p.conf");
    TlogsimTest.Result r = tlogsim("calibrate-device", "--path", tmp.toString(), "--seconds", "5", "--max-mb", "16",
        "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.readString(out).contains("profile4096Us"));
    assertTrue(r.out().contains("write 4096 B sync qd8") && r.out().contains("simulated us"), r.out());
    badInput("exists", "calibrate-device", "--path", tmp.toString(), "--seconds", "5", "--out", out.toString());
    // the profile is usable by name of file
    TlogsimTest.Result dry = tlogsim("run", "iobench-ssd", "--set", "device=profile:" + out, "--dry-run");
    assertEquals(0, dry.code(), dry.err());
    assertTrue(dry.out().contains("device profile"), dry.out());
  }

  @Test
  void sweepJsonGivesEveryPointsStatisticsOnStdoutAndNothingElse() throws Exception {
    Path conf = tmp.resolve("grid.conf");
    Files.writeString(conf, """
        base = gcm1
        set { simulatedSeconds = 0.02 }
        vary { sessions = [100, 200] }
        replications = 2
        metrics = ["commits.perSecond", "commits.latencyUs.p99"]
        parallel = 1
        """);
    TlogsimTest.Result r = tlogsim("sweep", conf.toString(), "--out", tmp.resolve("sw").toString(), "--json");
    assertEquals(0, r.code(), r.err());
    var j = new com.fasterxml.jackson.databind.json.JsonMapper().readTree(r.out());
    assertEquals(4, j.get("runs").asInt());
    assertEquals("sessions", j.get("axes").get(0).asText());
    assertEquals(2, j.get("points").size());
    var p = j.get("points").get(1);
    assertEquals("200", p.get("values").get("sessions").asText());
    var rate = p.get("metrics").get("commits.perSecond");
    assertEquals(2, rate.get("n").asInt());
    assertTrue(rate.get("ci95Low").asDouble() <= rate.get("mean").asDouble()
        && rate.get("mean").asDouble() <= rate.get("ci95High").asDouble(), rate.toString());
    assertTrue(r.err().contains("sweep        grid:"), "the human lines go to stderr: " + r.err());
  }

  @Test
  void calibrateHostRefusesBadOptionsWritingNothing() {
    Path out = tmp.resolve("h.conf");
    badInput("--seconds: must be from 2 to 3600, got 1", "calibrate-host", "--seconds", "1", "--out", out.toString());
    badInput("--path", "calibrate-host", "--path", tmp.resolve("none").toString(), "--out", out.toString());
    badInput("--name", "calibrate-host", "--name", "../x", "--data", tmp.toString());
    badInput("--out and --data", "calibrate-host", "--out", out.toString(), "--data", tmp.toString());
    assertFalse(Files.exists(out));
  }

  @Test
  void calibrateHostWritesAHostProfileUnderTheDataDirectory() throws Exception {
    TlogsimTest.Result r = tlogsim("calibrate-host", "--seconds", "2", "--data", tmp.toString(), "--name", "here",
        "--path", tmp.toString());
    assertEquals(0, r.code(), r.err());
    Path profile = tmp.resolve("hosts").resolve("here.conf");
    String text = Files.readString(profile);
    for (String key : java.util.List.of("hostWakeCpuUs", "hostSleepCpuUs", "hostSameCoreWakeCpuUs",
        "hostSameCoreSleepCpuUs", "hostIdleWakeUs", "hostWriteCpuUs", "hostFlushCpuUs", "fdatasyncCpu", "p90Us")) {
      assertTrue(text.contains(key), key + " in:\n" + text);
    }
    assertTrue(r.out().contains("p10 us") && r.out().contains("host = profile:here"), r.out());
    badInput("exists", "calibrate-host", "--seconds", "2", "--data", tmp.toString(), "--name", "here");
  }
}
