package io.tlogsim.cli;

import io.tlogsim.engine.gcm1.Gcm1Kind;
import io.tlogsim.engine.scenario.BadInputException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tlogsim bench gcm1}: the GCM-1 benchmark (BENCH.md) with its speed figures; same summary.json as run. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Run a benchmark (gcm1: BENCH.md's group-commit benchmark) and report the simulator's speed.")
final class BenchCommand implements Callable<Integer> {
  static final List<String> BENCHMARKS = List.of(Gcm1Kind.NAME);

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<benchmark>", description = "The benchmark: gcm1.")
  String benchmark;

  @Option(names = "--sessions", paramLabel = "N", description = "Committer sessions (default: the scenario's).")
  Integer sessions;

  @Option(names = "--seconds", paramLabel = "S", description = "Simulated seconds (default: the scenario's).")
  Double seconds;

  @Mixin
  RunOptions options;

  @Override
  public Integer call() throws Exception {
    if (!BENCHMARKS.contains(benchmark)) {
      throw new BadInputException("bench: unknown benchmark '" + benchmark + "'; allowed: " + String.join(", ", BENCHMARKS));
    }
    Map<String, String> overrides = options.overrides();
    if (sessions != null) overrides.put("sessions", String.valueOf(sessions));
    if (seconds != null) overrides.put("simulatedSeconds", String.valueOf(seconds));
    return new Runner(spec.commandLine()).run(benchmark, overrides, options, true);
  }
}
