package io.tlogsim.cli;

import io.tlogsim.engine.scenario.BadInputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options that {@code run} and {@code bench} share. */
final class RunOptions {
  static final int MAX_THREADS = 1024;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the run (default: the scenario's own seed).")
  Long seed;

  @Option(names = "--set", paramLabel = "key=value",
      description = "Override one scenario parameter; repeatable. Unknown keys are refused with the allowed ones.")
  List<String> sets = new ArrayList<>();

  @Option(names = "--threads", paramLabel = "T",
      description = "Dispatcher threads (default: the number of available processors).")
  Integer threads;

  @Option(names = "--out", paramLabel = "DIR", description = "Where summary.json goes (default: <data>/runs/<runId>).")
  Path out;

  @Option(names = "--data", paramLabel = "DIR",
      description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  Path data;

  /** The {@code --set} entries as key to value, in the order given (a later entry for a key wins). */
  Map<String, String> overrides() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String s : sets) {
      int eq = s.indexOf('=');
      if (eq <= 0 || s.substring(0, eq).isBlank()) {
        throw new BadInputException("--set " + s + ": must have the form key=value (e.g. --set sessions=1000)");
      }
      m.put(s.substring(0, eq).strip(), s.substring(eq + 1));
    }
    return m;
  }

  int threadsOrDefault() {
    int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    if (t < 1 || t > MAX_THREADS) {
      throw new BadInputException("--threads: must be an integer from 1 to " + MAX_THREADS + ", got " + t);
    }
    return t;
  }

  /** {@code --data}, else the environment variable TLOGSIM_DATA, else ./data. */
  Path dataDir() {
    if (data != null) return data;
    String env = System.getenv("TLOGSIM_DATA");
    return env != null && !env.isBlank() ? Path.of(env) : Path.of("data");
  }
}
