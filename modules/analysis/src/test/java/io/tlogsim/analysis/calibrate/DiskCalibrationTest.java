package io.tlogsim.analysis.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.storage.DeviceProfiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * calibrate-device on this machine's disk (a temporary directory): bounded, and its profile run back through iobench
 * with the same patterns gives the measured latency and rate within 10%.
 */
class DiskCalibrationTest {
  @TempDir
  Path dir;

  @Test
  void theProfileRunBackThroughIobenchGivesTheMeasuredLatencyAndRateWithinTenPercent() throws Exception {
    List<String> progress = new ArrayList<>();
    long maxBytes = 32L << 20;
    DiskCalibration.Result r = new DiskCalibration(dir, new DiskCalibration.Limits(maxBytes, 4, 8L << 20),
        progress::add).run();
    assertTrue(r.bytesWritten() <= maxBytes, "bounded in size: " + r.bytesWritten());
    assertFalse(Files.exists(dir.resolve("tlogsim-calibrate.tmp")), "the temporary file is deleted");
    assertEquals(DeviceProfiles.SIZES.size(), r.sizes().size());
    assertTrue(progress.size() >= DeviceProfiles.SIZES.size() + 2, "a progress line per pattern");
    Path profile = dir.resolve("p.conf");
    Files.writeString(profile, ProfileFile.render("test", r, "host"));
    List<ProfileFile.Row> rows = ProfileFile.compare(profile, r);
    assertEquals(DeviceProfiles.SIZES.size() + 1, rows.size());
    for (ProfileFile.Row row : rows.subList(0, rows.size() - 1)) { // one in flight: every size
      assertEquals(0, row.latencyError(), 0.10, row.toString());
      assertEquals(0, row.rateError(), 0.10, row.toString());
    }
    ProfileFile.Row qd8 = rows.get(rows.size() - 1);
    assertEquals(0, qd8.rateError(), 0.10, qd8.toString());
    // 8 in flight: the latency follows from the rate (Little's law) when the host kept 8 writes outstanding; on a busy
    // host its threads wait for a CPU between writes and the disk saw fewer: the model's latency is then 8 / that
    double depth = r.qd8().effectiveDepth();
    if (depth >= 0.9 * 8) {
      assertEquals(0, qd8.latencyError(), 0.10, qd8.toString());
    } else {
      assertEquals(8 / depth, qd8.simulatedUs() / qd8.measuredUs(), 0.10 * 8 / depth, qd8 + " at depth " + depth);
    }
  }
}
