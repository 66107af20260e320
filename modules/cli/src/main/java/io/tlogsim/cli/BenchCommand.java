package io.tlogsim.cli;

import io.tlogsim.kinds.gcm1.Gcm1Kind;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
import io.tlogsim.journal.JournalKind;
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
    description = "Run a benchmark (gcm1: BENCH.md's group-commit benchmark) and report the simulator's speed.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT, Tlogsim.EXIT_SIGNAL}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_DEBUG})
final class BenchCommand implements Callable<Integer> {
  static final List<String> BENCHMARKS = List.of(Gcm1Kind.NAME);
  static final int MAX_JIT_WARMUP = 10;

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<benchmark>", description = "The benchmark: gcm1.")
  String benchmark;

  @Option(names = "--sessions", paramLabel = "N", description = "Committer sessions (default: the scenario's).")
  Long sessions; // a long, so that a value too large is refused with the range, not as "not an integer"

  @Option(names = "--seconds", paramLabel = "S", description = "Simulated seconds (default: the scenario's).")
  Double seconds;

  @Option(names = "--jit-warmup", paramLabel = "K", defaultValue = "1", description = "Runs of the same benchmark in "
      + "this JVM before the measured one, so that its speed is that of compiled code, as JMH's warm-up iterations "
      + "(run.jitWarmupRuns, run.jitWarmupWallSeconds; each must give the measured run's digest). 0: a cold JVM, the "
      + "JIT's compilation inside the measured run. Default: ${DEFAULT-VALUE}.")
  int jitWarmup;

  @Mixin
  RunOptions options;

  @Override
  public Integer call() throws Exception {
    if (!BENCHMARKS.contains(benchmark)) {
      throw new BadInputException("bench: unknown benchmark '" + benchmark + "'; allowed: " + String.join(", ", BENCHMARKS));
    }
    if (jitWarmup < 0 || jitWarmup > MAX_JIT_WARMUP) {
      throw new BadInputException("--jit-warmup " + jitWarmup + ": allowed 0 to " + MAX_JIT_WARMUP + " runs");
    }
    if (options.checkpointOptionGiven() != null) {
      throw new BadInputException(options.checkpointOptionGiven() + ": a benchmark is not journaled, so it takes no "
          + "checkpoints (tlogsim run does)");
    }
    Map<String, String> overrides = options.overrides();
    overrides.putAll(option("--sessions", sessions, "sessions", overrides));
    overrides.putAll(option("--seconds", seconds, "simulatedSeconds", overrides));
    // A benchmark measures the simulator alone: it is not journaled.
    return new Runner(spec.commandLine()).withJitWarmup(jitWarmup)
        .run(benchmark, overrides, options, true, JournalKind.NONE, null);
  }

  /** {@code --sessions N} as {@code sessions=N}; refused when --set gives the same key. */
  private static Map<String, String> option(String name, Object value, String key, Map<String, String> overrides) {
    if (value == null) return Map.of();
    if (overrides.containsKey(key)) {
      throw new BadInputException(name + " and --set " + key + "=" + overrides.get(key) + ": give " + key + " once");
    }
    return Map.of(key, Text.plain(value)); // "--seconds 2" is simulatedSeconds=2, not 2.0
  }
}
