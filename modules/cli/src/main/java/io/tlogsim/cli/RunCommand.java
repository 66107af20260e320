package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.journal.JournalKind;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim run <name|file.conf>}: validate, run (journaled in the default H2 journal unless --journal says
 * otherwise), print the summary, write summary.json. {@code tlogsim run --resume <run-id>}: continue an interrupted run.
 */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = {"Run a built-in scenario or a scenario file; print the summary and write DIR/summary.json and "
        + "DIR/latency.hlog.", "run --branch <run-id> --at T --set key=value...: a what-if run from a recorded run's "
        + "state at simulated time T."},
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT, Tlogsim.EXIT_SIGNAL}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_JDBC, Tlogsim.ENV_JDBC_USER, Tlogsim.ENV_CLUSTER_KEYS, Tlogsim.ENV_DEBUG})
final class RunCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "<name|file.conf>",
      description = "A built-in scenario (see 'tlogsim scenarios') or a path to a .conf file.")
  String scenario;

  @Mixin
  RunOptions options;

  @Option(names = "--journal", paramLabel = "none|h2|postgres", defaultValue = "h2",
      description = "Where the run is journaled (default: ${DEFAULT-VALUE}, an H2 file under the data directory; "
          + "postgres: TLOGSIM_JDBC_URL or tlogsim.journal.postgres.url, see deploy/postgres; none: nowhere).")
  String journal;

  @Option(names = "--cluster", paramLabel = "HOST:PORT",
      description = "Run on a running tlogsim cluster reached through this node (see 'tlogsim node' and "
          + "deploy/local-cluster.sh); progress and summary come back here. Journaled in the cluster's journal when its nodes have one (tlogsim node --journal), not here.")
  String cluster;

  @Option(names = "--resume", paramLabel = "<run-id>",
      description = "Continue an interrupted run (see 'tlogsim runs') from its last checkpoint, with its own scenario,"
          + " seed and settings; it ends as it would have without the interruption.")
  String resume;

  @Option(names = "--branch", paramLabel = "<run-id>",
      description = "A what-if run: start from a completed run's state at --at T (its last checkpoint at or before T "
          + "simulated on to T) with the settings --set changes (a flush policy and its settings, ...); settings that "
          + "fix the components (sessions, devices, the script, ...) are refused. Journaled as a run of its own that "
          + "names its parent and T (summary.json run.branchOf, run.branchAt).")
  String branch;

  @Option(names = "--at", paramLabel = "T",
      description = "With --branch: the simulated time where the branch leaves its parent (seconds, or 500ms, 2m).")
  String at;

  @Override
  public Integer call() throws Exception {
    JournalKind kind = JournalKind.parse(journal);
    options.checkpointMarks(); // a bad mark or gap is refused before anything is run
    if (kind == JournalKind.NONE && options.checkpointOptionGiven() != null) {
      throw new BadInputException(options.checkpointOptionGiven() + " and --journal none: a run without a journal "
          + "takes no checkpoints");
    }
    if (at != null && branch == null) throw new BadInputException("--at: only with --branch <run-id> (replay --at "
        + "shows a run's state at T)");
    if (branch != null) {
      if (resume != null || cluster != null || scenario != null || options.seed != null || options.dryRun) {
        throw new BadInputException("--branch: takes --at and --set only (not " + (resume != null ? "--resume"
            : cluster != null ? "--cluster" : scenario != null ? "a scenario (" + scenario + ")" : options.seed != null
            ? "--seed" : "--dry-run") + "); the parent's scenario and seed are in the journal");
      }
      if (kind == JournalKind.NONE) {
        throw new BadInputException("--branch and --journal none: a branch starts from a journaled run (h2 or postgres)");
      }
      return new Runner(spec.commandLine()).branch(branch, at, options.overrides(), options, kind);
    }
    if (resume != null) {
      if (cluster != null) throw new BadInputException("--resume and --cluster: a run is resumed here, from a journal");
      if (scenario != null) {
        throw new BadInputException("run --resume " + resume + ": takes no scenario (" + scenario + "); the run's own"
            + " is in the journal");
      }
      if (!options.sets.isEmpty() || options.seed != null) {
        throw new BadInputException("--resume and " + (options.seed != null ? "--seed" : "--set") + ": a resumed run"
            + " keeps the scenario, parameters and seed it was started with");
      }
      if (options.dryRun) throw new BadInputException("--resume and --dry-run: give one");
      if (kind == JournalKind.NONE) {
        throw new BadInputException("--resume and --journal none: the run is resumed from a journal (h2 or postgres)");
      }
      options.overrides(); // the checks of --out, --data, --quiet, --progress
      return new Runner(spec.commandLine()).resume(resume, options, kind);
    }
    if (scenario == null) {
      throw new BadInputException("run: give a scenario (<name|file.conf>, see tlogsim scenarios) or --resume <run-id>");
    }
    if (cluster != null) {
      if (options.checkpointOptionGiven() != null) {
        throw new BadInputException(options.checkpointOptionGiven() + " and --cluster: the coordinating node's config "
            + "sets a cluster run's checkpoints (tlogsim.journal.checkpoint-every-simulated and checkpoint-min-gap, "
            + "docs/clusters.md)");
      }
      checkCluster(cluster);
      io.tlogsim.cluster.ClusterKeys.forClient(options.dataDir()); // no keys: bad input before anything is written
    }
    return new Runner(spec.commandLine()).run(scenario, options.overrides(), options, false, kind, cluster);
  }

  /** --cluster: host:port of a node of a running cluster. */
  static void checkCluster(String cluster) {
    checkHostPort("--cluster", cluster, "of a tlogsim node, e.g. 127.0.0.1:25520");
  }

  /** host:port with a port from 1 to 65535, checked before anything tries to reach it. */
  static void checkHostPort(String option, String value, String what) {
    if (!value.matches("[^:\\s]+:[0-9]{1,5}")) {
      throw new BadInputException(option + " " + value + ": must be host:port " + what);
    }
    int port = Integer.parseInt(value.substring(value.lastIndexOf(':') + 1));
    if (port < 1 || port > 65535) {
      throw new BadInputException(option + " " + value + ": the port must be from 1 to 65535, got " + port);
    }
  }
}
