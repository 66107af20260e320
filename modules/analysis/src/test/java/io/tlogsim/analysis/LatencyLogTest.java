package io.tlogsim.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.session.CommitStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LatencyLogTest {
  @Test
  void hdrHistogramsOwnReaderReadsTheLogBack(@TempDir Path dir) throws Exception {
    Histogram commits = CommitStats.newHistogram();
    for (long v = 1_000; v <= 1_000_000; v += 1_000) commits.recordValue(v);
    Histogram device = new Histogram(3);
    device.recordValue(300_000);
    Map<String, Histogram> histograms = new LinkedHashMap<>();
    histograms.put("commits", commits);
    histograms.put("device", device);

    Path file = LatencyLog.write(dir, "gcm1-42-x", 2.0, histograms);
    assertEquals(dir.resolve("latency.hlog"), file);
    assertTrue(Files.readString(file).startsWith("#tlogsim run gcm1-42-x: latencies in ns"), Files.readString(file));
    assertTrue(Files.notExists(dir.resolve("latency.hlog.tmp")));

    HistogramLogReader reader = new HistogramLogReader(file.toFile());
    Histogram first = (Histogram) reader.nextIntervalHistogram();
    assertNull(first.getTag(), "commit latencies are untagged: what HdrHistogram's tools read by default");
    assertEquals(1000, first.getTotalCount());
    assertEquals(commits.getValueAtPercentile(99), first.getValueAtPercentile(99));
    assertEquals(0.0, first.getStartTimeStamp() / 1e3);
    assertEquals(2.0, first.getEndTimeStamp() / 1e3);
    Histogram second = (Histogram) reader.nextIntervalHistogram();
    assertEquals("device", second.getTag());
    assertEquals(1, second.getTotalCount());
    assertNull(reader.nextIntervalHistogram());
    assertNull(commits.getTag(), "the caller's histogram is not changed");
  }
}
