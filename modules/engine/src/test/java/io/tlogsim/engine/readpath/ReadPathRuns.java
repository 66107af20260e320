package io.tlogsim.engine.readpath;

import io.tlogsim.engine.ScenarioKinds;
import io.tlogsim.engine.scenario.RunControl;
import io.tlogsim.engine.scenario.Scenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Helpers to run read-path scenarios with a few keys set, and to read their summaries. */
final class ReadPathRuns {
  private ReadPathRuns() {}

  /** A scenario of {@code kind} with its defaults and the keys given. */
  static Scenario scenario(String kind, String... keyValues) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) o.put(keyValues[i], keyValues[i + 1]);
    try {
      Path f = Files.createTempFile("tlogsim-" + kind, ".conf");
      Files.writeString(f, "kind = " + kind + "\ndescription = \"test\"\n");
      f.toFile().deleteOnExit();
      return ScenarioKinds.loader().load(f.toString(), o);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> run(Scenario s, long seed, int threads) {
    return s.run(new RunControl(seed, threads, null)).summary();
  }

  static Map<String, Object> run(String kind, String... keyValues) {
    return run(scenario(kind, keyValues), 42, 2);
  }

  @SuppressWarnings("unchecked")
  static Object at(Map<String, Object> summary, String path) {
    Object cur = summary;
    for (String part : path.split("\\.")) {
      int b = part.indexOf('[');
      String key = b < 0 ? part : part.substring(0, b);
      cur = ((Map<String, Object>) cur).get(key);
      if (b >= 0) cur = ((List<Object>) cur).get(Integer.parseInt(part.substring(b + 1, part.length() - 1)));
    }
    return cur;
  }

  static double num(Map<String, Object> summary, String path) {
    return ((Number) at(summary, path)).doubleValue();
  }
}
