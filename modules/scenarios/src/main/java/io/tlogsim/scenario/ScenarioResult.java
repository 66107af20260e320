package io.tlogsim.scenario;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a finished scenario gives the user: the summary (nested maps whose names follow DESIGN.md's summary.json
 * contract), a one-screen text rendering of it, its latency histograms, and files to write beside summary.json.
 */
public interface ScenarioResult {
  /** The tables {@code tlogsim run --show} knows, by name. */
  List<String> TABLES = List.of("onstat", "waits", "filestats", "loginfo", "logspace", "vlfrules", "messages",
      "errorlog");

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
   * when the kind has none.
   */
  default Map<String, List<String>> tables() {
    return Map.of();
  }
}
