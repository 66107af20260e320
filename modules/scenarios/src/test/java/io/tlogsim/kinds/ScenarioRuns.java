package io.tlogsim.kinds;

import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Helpers for tests: load and run scenarios (built-in, or a kind with its defaults) with a few keys changed, and read
 * their summaries.
 */
public final class ScenarioRuns {
  private ScenarioRuns() {}

  /** A built-in scenario, or else, when {@code name} is a kind, a scenario of that kind with its defaults. */
  public static Scenario scenario(String name, String... keyValues) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) o.put(keyValues[i], keyValues[i + 1]);
    if (!ScenarioKinds.loader().builtins().containsKey(name) && ScenarioKinds.loader().kindNames().contains(name)) {
      try {
        Path f = Files.createTempFile("tlogsim-" + name, ".conf");
        Files.writeString(f, "kind = " + name + "\ndescription = \"test\"\n");
        f.toFile().deleteOnExit();
        return ScenarioKinds.loader().load(f.toString(), o);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return ScenarioKinds.loader().load(name, o);
  }

  public static Map<String, Object> run(Scenario s, long seed, int threads) {
    return s.run(new RunControl(seed, threads, null)).summary();
  }

  /**
   * On one thread: what a run computes does not depend on its thread count (the *DeterminismTest classes check that
   * on 1, 2 and more), and the window-bound runs most tests make take about half the wall time and CPU on one thread
   * that they take on two, while the module runs two test classes at a time (HostCostsTest alone: 33 s on two, 19 on one).
   */
  public static Map<String, Object> run(String name, String... keyValues) {
    return run(scenario(name, keyValues), 42, 1);
  }

  @SuppressWarnings("unchecked")
  public static Object at(Map<String, Object> summary, String path) {
    Object cur = summary;
    for (String part : path.split("\\.")) {
      int b = part.indexOf('[');
      String key = b < 0 ? part : part.substring(0, b);
      cur = ((Map<String, Object>) cur).get(key);
      if (b >= 0) cur = ((List<Object>) cur).get(Integer.parseInt(part.substring(b + 1, part.length() - 1)));
    }
    return cur;
  }

  public static double num(Map<String, Object> summary, String path) {
    return ((Number) at(summary, path)).doubleValue();
  }
}
