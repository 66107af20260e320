package io.tlogsim.engine.scenario;

import java.util.List;
import java.util.Map;

/**
 * What a finished scenario gives the user: the summary (nested maps whose names follow DESIGN.md's summary.json
 * contract) and a one-screen text rendering of it.
 */
public interface ScenarioResult {
  Map<String, Object> summary();

  List<String> humanLines();
}
