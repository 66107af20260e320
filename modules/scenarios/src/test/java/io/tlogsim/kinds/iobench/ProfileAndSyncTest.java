package io.tlogsim.kinds.iobench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** iobench's sync and device profiles named as profile:FILE. */
class ProfileAndSyncTest {
  @TempDir
  Path dir;

  @Test
  void syncOnAnSsdAddsTheFlushToEveryWriteAndNothingOnADeviceThatIsDurableWhenItAcknowledges() throws Exception {
    String[] common = {"rw", "write", "bs", "4096", "iodepth", "1", "runtime", "0.2", "submitUs", "0.001",
        "size", "67108864"};
    double plain = mean(StorageRuns.iobench(with(common, "device", "ssd", "sync", "false")));
    double sync = mean(StorageRuns.iobench(with(common, "device", "ssd", "sync", "true")));
    // ssd defaults: a write lands in 20 us + 4096 B at 2,000 MB/s; its flush costs 35 us (power-loss protection)
    assertEquals(35, sync - plain, 0.5);
    double simple = mean(StorageRuns.iobench(with(common, "device", "simple", "sync", "false")));
    double simpleSync = mean(StorageRuns.iobench(with(common, "device", "simple", "sync", "true")));
    assertEquals(simple, simpleSync, 1e-9);
  }

  @Test
  void aProfileFileSetsTheProfileModelAndItsSettings() throws Exception {
    Path p = dir.resolve("disk.conf");
    Files.writeString(p, """
        profile {
          profile512Us = 100
          profile4096Us = 200
          profile8192Us = 300
          profile16384Us = 400
          profile32768Us = 500
          profile61440Us = 600
          profile1048576Us = 5000
          profileQd8Speedup = 2
          profileFlushUs = 10
        }
        measured { path = "/somewhere" }
        """);
    Scenario s = StorageRuns.iobench("device", "profile:" + p, "rw", "write", "bs", "4096", "iodepth", "1",
        "runtime", "0.5", "submitUs", "0.001", "sync", "true");
    assertEquals("profile", s.params().getString("device"));
    assertEquals(200.0, s.params().getDouble("profile4096Us"));
    assertTrue(s.origins().get("profile4096Us").contains("device profile"), s.origins().get("profile4096Us"));
    assertEquals(200, mean(s), 0.01);
    // --set wins over the profile
    Scenario o = StorageRuns.iobench("device", "profile:" + p, "profile4096Us", "250", "rw", "write", "bs", "4096",
        "iodepth", "1", "runtime", "0.5", "submitUs", "0.001");
    assertEquals(250, mean(o), 0.01);
  }

  @Test
  void aMissingOrWrongProfileIsBadInputNamingTheKey() throws Exception {
    BadInputException e = assertThrows(BadInputException.class,
        () -> StorageRuns.iobench("device", "profile:" + dir.resolve("none.conf")));
    assertTrue(e.getMessage().startsWith("device: device profile"), e.getMessage());
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "profile { ssdMBps = 3 }\n");
    e = assertThrows(BadInputException.class, () -> StorageRuns.iobench("device", "profile:" + bad));
    assertTrue(e.getMessage().contains("not a profile setting"), e.getMessage());
  }

  private static double mean(Scenario s) {
    Map<String, Object> sum = StorageRuns.run(s, 1).summary();
    return StorageRuns.num(sum, "jobs.write.clatUs.mean");
  }

  private static String[] with(String[] a, String... more) {
    String[] out = java.util.Arrays.copyOf(a, a.length + more.length);
    System.arraycopy(more, 0, out, a.length, more.length);
    return out;
  }
}
