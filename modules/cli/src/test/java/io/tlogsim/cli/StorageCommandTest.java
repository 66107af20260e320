package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Storage runs through the command line: bad device settings exit 2 with one line; a run writes devices.csv. */
class StorageCommandTest {
  @TempDir
  Path tmp;

  private Path iobench() throws Exception {
    Path f = tmp.resolve("bench.conf");
    Files.writeString(f, "kind = iobench\nruntime = 0.05\n");
    return f;
  }

  private void refused(String key, String... sets) throws Exception {
    Path out = tmp.resolve("out-" + key);
    String[] args = new String[4 + sets.length * 2];
    args[0] = "run";
    args[1] = iobench().toString();
    args[2] = "--out";
    args[3] = out.toString();
    for (int i = 0; i < sets.length; i++) {
      args[4 + 2 * i] = "--set";
      args[5 + 2 * i] = sets[i];
    }
    TlogsimTest.Result r = TlogsimTest.tlogsim(args);
    assertEquals(Tlogsim.BAD_INPUT, r.code(), r.err());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.err().contains(key + ": "), r.err());
    assertFalse(Files.exists(out), "nothing written");
  }

  @Test
  void badDeviceSettingsExitTwoNamingTheKey() throws Exception {
    refused("ssdReadLatencyUs", "ssdReadLatencyUs=-5");
    refused("premiumTier", "device=premium", "premiumTier=P25");
    refused("raidMembers", "device=raid", "raidLevel=5", "raidMembers=2");
    refused("raidStripeBytes", "device=raid", "raidStripeBytes=3000");
  }

  @Test
  void aRunWritesTheSeriesBesideTheSummary() throws Exception {
    Path out = tmp.resolve("run");
    TlogsimTest.Result r = TlogsimTest.tlogsim("run", iobench().toString(), "--out", out.toString(), "--threads", "2");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("IOPS="), r.out());
    assertTrue(Files.exists(out.resolve("summary.json")));
    String csv = Files.readString(out.resolve("devices.csv"));
    assertTrue(csv.startsWith("device,second,"), csv);
    assertTrue(csv.contains("\nssd,0,"), csv);
  }

  /** fio's rate_iops: a device that keeps up gives the rate asked; one that cannot gives what it can. */
  @Test
  void rateIopsIssuesAtTheRateAskedWhenTheDeviceKeepsUp() throws Exception {
    Path ssd = tmp.resolve("ssd");
    TlogsimTest.Result r = TlogsimTest.tlogsim("run", "iobench-ssd", "--set", "rate_iops=5000", "--set", "runtime=1s",
        "--journal", "none", "--out", ssd.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("numjobs=1, rate_iops=5000") && r.out().contains("read: IOPS=5000,"), r.out());
    double iops = TlogsimTest.summary(ssd).at("/jobs/read/iops").asDouble();
    assertEquals(5000, iops, 5000 * 0.01, "the rate asked, not the iodepth's 32 in flight");
    Path hdd = tmp.resolve("hdd");
    r = TlogsimTest.tlogsim("run", "iobench-ssd", "--set", "device=hdd", "--set", "iodepth=4", "--set",
        "rate_iops=5000", "--set", "runtime=1s", "--journal", "none", "--out", hdd.toString(), "--quiet");
    assertEquals(0, r.code(), r.err());
    assertTrue(TlogsimTest.summary(hdd).at("/jobs/read/iops").asDouble() < 1000, "a 15K disk cannot keep up");
  }
}
