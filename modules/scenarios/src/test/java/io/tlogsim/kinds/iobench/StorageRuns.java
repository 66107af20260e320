package io.tlogsim.kinds.iobench;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioResult;
import java.util.LinkedHashMap;
import java.util.Map;

/** Helpers: load a scenario (built-in or iobench with keys set) and run it; read summary paths. */
final class StorageRuns {
  private StorageRuns() {}

  static Scenario load(String name, String... keyValues) {
    Map<String, String> o = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) o.put(keyValues[i], keyValues[i + 1]);
    return ScenarioKinds.loader().load(name, o);
  }

  /** An iobench scenario from a temporary file of the given lines (the loader reads files like built-ins). */
  static Scenario iobench(String... keyValues) throws Exception {
    java.nio.file.Path f = java.nio.file.Files.createTempFile("iobench", ".conf");
    f.toFile().deleteOnExit();
    java.nio.file.Files.writeString(f, "kind = iobench\n");
    return load(f.toString(), keyValues);
  }

  static ScenarioResult run(Scenario s, int threads) {
    return s.run(new RunControl(s.seed(), threads, null));
  }

  @SuppressWarnings("unchecked")
  static Object at(Map<String, Object> summary, String path) {
    Object cur = summary;
    for (String part : path.split("\\.")) cur = ((Map<String, Object>) cur).get(part);
    return cur;
  }

  static double num(Map<String, Object> summary, String path) {
    Object v = at(summary, path);
    if (!(v instanceof Number n)) throw new AssertionError(path + " is " + v);
    return n.doubleValue();
  }
}
