package io.tlogsim.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.RecordedFact;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/** What the report does with facts it has never heard of, and with figures a log scale cannot show. */
class RunReportTest {
  /** An interval fact the report knows nothing about, as the log-space models will record. */
  public record LogSpaceInterval(long fromNanos, long toNanos, String file, long usedBytes, int vlfs, byte[] ignored)
      implements IntervalFact {}

  @Test
  void anyIntervalFactGetsItsCsvAndAChartPerNumericField() {
    List<RecordedFact> facts = List.of(
        new RecordedFact(1_000_000, 3, new LogSpaceInterval(0, 1_000_000, "log", 4096, 4, new byte[0])),
        new RecordedFact(2_000_000, 3, new LogSpaceInterval(1_000_000, 2_000_000, "log", 8192, 5, new byte[0])));
    SortedMap<String, String> files = RunReport.files(new RunReport.Input("r", Map.of("scenario", "s"), List.of(),
        Map.of(), facts, id -> "log-manager"));
    assertEquals("component,timeSeconds,fromNanos,toNanos,file,usedBytes,vlfs\n"
        + "log-manager,0.001,0,1000000,log,4096,4\nlog-manager,0.002,1000000,2000000,log,8192,5\n",
        files.get("log-space-intervals.csv"));
    String html = files.get(RunReport.FILE);
    // named in words with their units, not by the record's field names
    assertTrue(html.contains(">Log space: used</text>") && html.contains(">used, MB</text>"), html);
    assertTrue(html.contains(">Log space: vlfs</text>") && html.contains(">vlfs, count</text>"), html);
    assertTrue(!html.contains("LogSpaceInterval.usedBytes</text>"), html);
    assertTrue(html.contains("<polyline class=\"series\" data-name=\"log-manager log\""), html);
    assertTrue(html.contains("log-space-intervals.csv</a>"), html);
  }

  @Test
  void theTimelineMarksTheCrashAndTheRecoverysStepsAfterIt() {
    Map<String, Object> summary = Map.of("scenario", "s", "simulatedSeconds", 3.0,
        "crash", Map.of("atSeconds", 1.0),
        "recovery", Map.of("crashSeconds", 1.0, "startDelaySeconds", 0.25, "analysisSeconds", 0.5,
            "redoSeconds", 0.75, "undoSeconds", 0.0));
    String html = RunReport.files(new RunReport.Input("r", summary, List.of(), Map.of(), List.of(), id -> "c"))
        .get(RunReport.FILE);
    assertTrue(html.contains("<title>crash (power loss): 0 s from 1 s</title>"), html);
    assertTrue(html.contains("<title>recovery: start: 0.25 s from 1 s</title>"), html);
    assertTrue(html.contains("<title>recovery: analysis: 0.5 s from 1.25 s</title>"), html);
    assertTrue(html.contains("<title>recovery: redo: 0.75 s from 1.75 s</title>"), html);
    assertTrue(!html.contains("recovery: undo"), "a step that took no time is not drawn");
  }

  @Test
  void aLogScaleWithNothingPositiveStillDraws() {
    String svg = new SvgChart("t", "x", "y").logY(true).add("zeros", new double[] {1, 2}, new double[] {0, 0})
        .render(400, 200);
    assertTrue(svg.endsWith("</svg>\n"), svg);
  }
}
