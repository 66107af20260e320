package io.tlogsim.analysis.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.engine.iobench.DeviceProfiles;
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
    for (ProfileFile.Row row : rows) {
      assertEquals(0, row.latencyError(), 0.10, row.toString());
      assertEquals(0, row.rateError(), 0.10, row.toString());
    }
  }
}
