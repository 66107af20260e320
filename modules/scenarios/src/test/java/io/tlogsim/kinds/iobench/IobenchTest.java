package io.tlogsim.kinds.iobench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ScenarioResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The iobench kind: fio's parameters, the summary's device and job figures, fio-like text, CSV, bad settings. */
class IobenchTest {

  @Test
  void anSsdRunHasTheDeviceAndJobFiguresAndReadsLikeFio() throws Exception {
    ScenarioResult r = StorageRuns.run(StorageRuns.iobench("rw", "randrw", "bs", "8192", "iodepth", "16", "numjobs",
        "2", "runtime", "0.5"), 2);
    Map<String, Object> s = r.summary();
    for (String key : List.of("reads", "writes", "iops", "mbPerSec", "mibPerSec", "meanLatencyUs", "throttledUs",
        "latencyUs.p50", "latencyUs.p99", "latencyUs.max", "utilPercent")) {
      StorageRuns.num(s, "devices.ssd." + key);
    }
    double iops = StorageRuns.num(s, "devices.ssd.iops");
    double jobIops = StorageRuns.num(s, "jobs.read.iops") + StorageRuns.num(s, "jobs.write.iops");
    assertEquals(iops, jobIops, 1e-6, "what the jobs completed is what the device did");
    assertTrue(StorageRuns.num(s, "jobs.read.clatUs.p99") >= StorageRuns.num(s, "jobs.read.clatUs.p50"));
    assertEquals(0.5, (double) s.get("simulatedSeconds"));
    String text = String.join("\n", r.humanLines());
    assertTrue(text.contains("rw=randrw, bs=(R) 8192B-8192B"), text);
    assertTrue(text.contains("  read: IOPS=") && text.contains("  write: IOPS="), text);
    assertTrue(text.contains("clat percentiles (usec):") && text.contains("99.99th=["), text);
    assertTrue(text.contains("Run status group 0 (all jobs):") && text.contains("Disk stats (read/write):"), text);
    assertEquals(java.util.Set.of("jobs-read", "jobs-write"), r.histograms().keySet());
    assertEquals((long) StorageRuns.num(s, "jobs.read.ios"), r.histograms().get("jobs-read").getTotalCount());
    String csv = r.files().get("devices.csv");
    assertTrue(csv.startsWith("device,second,reads,writes,iops,mbPerSec,queueDepth,throttledMs\n"), csv);
    assertEquals(2, csv.lines().count(), "one line per second of the half-second run");
  }

  @Test
  void aRaidRunReportsControllerAndMembersTheSameOnAnyThreads() throws Exception {
    String[] keys = {"device", "raid", "raidLevel", "5", "raidMembers", "4", "raidMemberDevice", "ssd",
        "raidWriteCache", "write-through", "rw", "randwrite", "iodepth", "32", "runtime", "0.05"};
    ScenarioResult one = StorageRuns.run(StorageRuns.iobench(keys), 1);
    ScenarioResult two = StorageRuns.run(StorageRuns.iobench(keys), 2);
    assertEquals(one.summary().get("digest"), two.summary().get("digest"));
    assertEquals(one.summary().get("devices"), two.summary().get("devices"));
    Map<String, Object> s = one.summary();
    double writes = StorageRuns.num(s, "devices.raid.writes");
    assertTrue(writes > 1000);
    assertEquals(2 * writes, StorageRuns.num(s, "devices.raid.counters.backendReads"), 64, "read-modify-write");
    for (int m = 0; m < 4; m++) assertTrue(StorageRuns.num(s, "devices.raid-m" + m + ".writes") > writes / 4);
  }

  /** Refused with one line that holds {@code message} (the loader may say where the value came from first). */
  private static void refused(String message, String... keyValues) {
    BadInputException e = assertThrows(BadInputException.class, () -> StorageRuns.iobench(keyValues));
    assertTrue(e.getMessage().contains(message), e.getMessage());
    assertTrue(!e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void badDeviceSettingsNameTheKeyAndWhatIsAllowed() {
    refused("ssdReadLatencyUs: must be a number from 0.001 to 10000000, got ", "ssdReadLatencyUs", "-5");
    refused("premiumTier: must be one of auto, P10, P15, P20, P30, P40, P50, P60, P70, P80, got 'P25'",
        "device", "premium", "premiumTier", "P25");
    refused("raidMembers: RAID 5 needs 3 to 64 members, got 2", "device", "raid", "raidLevel", "5", "raidMembers", "2");
    refused("raidStripeBytes: must be a power of two from 512 to 67108864, got 3000", "device", "raid",
        "raidStripeBytes", "3000");
    refused("raidLevel: must be one of 0, 1, 5, 6, 10, got 4", "device", "raid", "raidLevel", "4");
    refused("premiumFileSizeGiB: must be at most 8192 GiB (the managed-instance per-file table ends there), got"
        + " 10000.0", "device", "premium", "premiumFileSizeGiB", "10000");
    refused("hddTrackToTrackMs: must be at most the average seeks (3.3 and 3.8 ms), got 5.0", "device", "hdd",
        "hddTrackToTrackMs", "5");
    refused("hddRpm: must be an integer from 1000 to 30000, got ", "device", "hdd", "hddRpm", "0");
  }

  @Test
  void badJobSettingsToo() {
    refused("size: numjobs x size must fit on the device (429496729600 bytes), got 2 x 300000000000", "numjobs", "2",
        "size", "300000000000");
    refused("rw: must be one of read, write, randread, randwrite, randrw, got 'trim'", "rw", "trim");
    refused("iodepth: must be an integer from 1 to 65536, got ", "iodepth", "0");
  }
}
