package io.tlogsim.analysis;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a run's latency histograms to {@code DIR/latency.hlog} in HdrHistogram's own interval-log format
 * (HistogramLogWriter), so HdrHistogram's tools read them: {@code HistogramLogProcessor -i latency.hlog} prints the
 * percentile distribution. Values are nanoseconds; interval timestamps are simulated seconds from the start of the
 * run. A run whose sessions record commits per report interval gets one interval per report interval
 * ({@link #writeIntervals}, as pgbench --log gives them): untagged for the run's one database (what tools read by
 * default: their sum is the run's distribution), tagged "warmup" in the warm-up, and tagged with the database's name
 * where a run has several. Other runs get one interval, the whole run: the "commits" histogram untagged, any other
 * tagged with its name.
 */
public final class LatencyLog {
  public static final String FILE_NAME = "latency.hlog";
  /** The log's Interval_Max column in us (values are ns). */
  private static final double MAX_VALUE_UNIT_RATIO = 1e3;
  public static final String UNTAGGED = "commits";

  private LatencyLog() {}

  /** One report interval's commit latencies: its tag (null: none), its span in simulated s, its histogram. */
  public record Interval(String tag, double fromSeconds, double toSeconds, Histogram histogram) {}

  /** Writes {@code dir/latency.hlog} with one interval per report interval; returns the path written. */
  public static Path writeIntervals(Path dir, String runId, java.util.List<Interval> intervals) throws IOException {
    return write(dir, runId, w -> {
      for (Interval i : intervals) {
        Histogram h = i.histogram().copy();
        h.setTag(i.tag());
        w.outputIntervalHistogram(i.fromSeconds(), i.toSeconds(), h, MAX_VALUE_UNIT_RATIO);
      }
    });
  }

  /** Writes {@code dir/latency.hlog} (through a temporary file); returns the path written. */
  public static Path write(Path dir, String runId, double simulatedSeconds, Map<String, Histogram> histograms)
      throws IOException {
    return write(dir, runId, w -> {
      for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
        Histogram h = e.getValue().copy(); // the tag is set on a copy, never on the caller's histogram
        h.setTag(e.getKey().equals(UNTAGGED) ? null : e.getKey());
        w.outputIntervalHistogram(0.0, simulatedSeconds, h, MAX_VALUE_UNIT_RATIO);
      }
    });
  }

  private static Path write(Path dir, String runId, java.util.function.Consumer<HistogramLogWriter> body)
      throws IOException {
    return AtomicFile.replace(dir.resolve(FILE_NAME), tmp -> writeTo(tmp, runId, body));
  }

  private static void writeTo(Path tmp, String runId, java.util.function.Consumer<HistogramLogWriter> body)
      throws IOException {
    try (OutputStream os = Files.newOutputStream(tmp);
        PrintStream ps = new PrintStream(os, false, StandardCharsets.UTF_8)) {
      HistogramLogWriter w = new HistogramLogWriter(ps);
      w.outputComment("tlogsim run " + runId + ": latencies in ns; timestamps are simulated seconds from the start"
          + " of the run; Interval_Max is in us");
      w.outputLogFormatVersion();
      w.outputLegend();
      body.accept(w);
      ps.flush();
      if (ps.checkError()) throw new IOException("cannot write " + tmp);
    }
  }
}
