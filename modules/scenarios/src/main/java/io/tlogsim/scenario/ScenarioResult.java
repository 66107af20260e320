package io.tlogsim.scenario;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a finished scenario gives the user: the summary (nested maps whose names follow DESIGN.md's summary.json
 * contract), a one-screen text rendering of it, its latency histograms, and files to write beside summary.json. Every
 * kind makes an {@link Of}; a cluster's client gives its own (with what came back from the nodes).
 */
public interface ScenarioResult {
  Map<String, Object> summary();

  List<String> humanLines();

  /**
   * Latency histograms in ns by name (e.g. "commits"), whole run; written as DIR/latency.hlog. Empty when the kind
   * measures none.
   */
  default Map<String, Histogram> histograms() {
    return Map.of();
  }

  /**
   * Files to write beside summary.json, file name to text: time series (DESIGN.md: "Time series go to CSV files beside
   * summary.json, not into it"), e.g. a storage run's devices.csv. Empty when the kind has none.
   */
  default Map<String, String> files() {
    return Map.of();
  }

  /**
   * Tables a user may ask for ({@code tlogsim run ... --show onstat,waits,filestats}), by name, as text lines; empty
   * when the kind has none. A kind names the tables it may keep in {@link ScenarioKind#tables}.
   */
  default Map<String, List<String>> tables() {
    return Map.of();
  }

  /** A summary and its text, with no histograms, files or tables (add them with the {@code with} methods). */
  static Of of(Map<String, Object> summary, List<String> humanLines) {
    return new Of(summary, humanLines, Map.of(), Map.of(), Map.of());
  }

  /** A result as the kinds make it. */
  record Of(Map<String, Object> summary, List<String> humanLines, Map<String, Histogram> histograms,
      Map<String, String> files, Map<String, List<String>> tables) implements ScenarioResult {

    /** Another result's parts under a new summary and text (a kind that reports several runs as one). */
    public static Of from(ScenarioResult r) {
      return new Of(r.summary(), r.humanLines(), r.histograms(), r.files(), r.tables());
    }

    public Of withSummary(Map<String, Object> newSummary, List<String> newLines) {
      return new Of(newSummary, newLines, histograms, files, tables);
    }

    public Of withHistograms(Map<String, Histogram> h) {
      return new Of(summary, humanLines, h, files, tables);
    }

    public Of withFiles(Map<String, String> f) {
      return new Of(summary, humanLines, histograms, f, tables);
    }

    public Of withTables(Map<String, List<String>> t) {
      return new Of(summary, humanLines, histograms, files, t);
    }
  }
}
