package io.tlogsim.kinds.gcm1;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;

/** Helpers to run the built-in gcm1 scenario with a few keys changed. */
final class Gcm1Runs {
  private Gcm1Runs() {}

  static Scenario scenario(String... keyValues) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) o.put(keyValues[i], keyValues[i + 1]);
    return ScenarioKinds.loader().load("gcm1", o);
  }

  static Params params(String... keyValues) {
    return scenario(keyValues).params();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> run(Scenario s, long seed, int threads) {
    return s.run(new RunControl(seed, threads, null)).summary();
  }

  @SuppressWarnings("unchecked")
  static Object at(Map<String, Object> summary, String path) {
    Object cur = summary;
    for (String part : path.split("\\.")) cur = ((Map<String, Object>) cur).get(part);
    return cur;
  }
}
