package io.tlogsim.cli;

import io.tlogsim.engine.scenario.BadInputException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tlogsim run <name|file.conf>}: validate, run, print the summary, write summary.json. */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Run a built-in scenario or a scenario file; print the summary and write DIR/summary.json and "
        + "DIR/latency.hlog.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT, Tlogsim.EXIT_SIGNAL}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_DEBUG})
final class RunCommand implements Callable<Integer> {
  static final List<String> JOURNALS_AVAILABLE = List.of("none");
  static final List<String> JOURNALS_PLANNED = List.of("h2", "postgres");

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<name|file.conf>",
      description = "A built-in scenario (see 'tlogsim scenarios') or a path to a .conf file.")
  String scenario;

  @Mixin
  RunOptions options;

  @Option(names = "--journal", paramLabel = "none|h2|postgres", defaultValue = "none",
      description = "Where the run's events go (default: ${DEFAULT-VALUE}; h2 and postgres are not available yet).")
  String journal;

  @Option(names = "--cluster", paramLabel = "HOST:PORT",
      description = "Run on a running tlogsim cluster reached through this node (see 'tlogsim node' and "
          + "deploy/local-cluster.sh); progress and summary come back here.")
  String cluster;

  @Override
  public Integer call() throws Exception {
    if (JOURNALS_PLANNED.contains(journal)) {
      throw new BadInputException("--journal " + journal + ": not available yet in this version; allowed: "
          + String.join(", ", JOURNALS_AVAILABLE));
    }
    if (!JOURNALS_AVAILABLE.contains(journal)) {
      throw new BadInputException("--journal " + journal + ": unknown; allowed: " + String.join(", ", JOURNALS_AVAILABLE)
          + " (" + String.join(", ", JOURNALS_PLANNED) + ": not available yet)");
    }
    if (cluster != null && !cluster.matches("[^:\\s]+:[0-9]{1,5}")) {
      throw new BadInputException("--cluster " + cluster + ": must be host:port of a tlogsim node, e.g. 127.0.0.1:25520");
    }
    return new Runner(spec.commandLine()).run(scenario, options.overrides(), options, false, cluster);
  }
}
