package io.tlogsim.cli;

import io.tlogsim.analysis.sweep.Experiment;
import io.tlogsim.analysis.sweep.Sweep;
import io.tlogsim.cluster.ClusterSubmit;
import io.tlogsim.cluster.ClusterSweep;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim sweep <experiment>}: a grid of runs with replications, one CSV row per run, an aggregate CSV with
 * means and 95% confidence intervals, and report.html. Run again with the same --out, it continues where it stopped.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Run an experiment: a grid of parameters x replications (a built-in, e.g. commit-policies, or a "
        + ".conf file); writes runs.csv, points.csv (mean and 95%% confidence interval per point) and report.html. "
        + "Given the same --out again, it continues where it stopped.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_CLUSTER_KEYS, Tlogsim.ENV_DEBUG})
final class SweepCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<experiment|file.conf>",
      description = "A built-in experiment or an experiment file (see docs/experiments.md).")
  String experiment;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where the results go (default: <data>/sweeps/<experiment>; an existing one is continued).")
  Path out;

  @Option(names = "--data", paramLabel = "DIR", description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  Path data;

  @Option(names = "--parallel", paramLabel = "N", description = "Runs at once (default: the experiment's).")
  Integer parallel;

  @Option(names = "--cluster", paramLabel = "HOST:PORT",
      description = "Run on a running tlogsim cluster reached through this node (see 'tlogsim node' and "
          + "deploy/local-cluster.sh): each run whole on one node, as many at once as the cluster has nodes unless "
          + "--parallel says otherwise. The results are written here, as for a sweep run here.")
  String cluster;

  @Option(names = "--quiet", description = "Print nothing but errors.")
  boolean quiet;

  @Option(names = "--json", description = "Print the results on stdout as JSON (per point its values and, per "
      + "metric, n, mean, stddev and 95%% confidence interval) and nothing else there; the rest goes to stderr.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (parallel != null && (parallel < 1 || parallel > 256)) {
      throw new BadInputException("--parallel: must be an integer from 1 to 256, got " + parallel);
    }
    RunOptions.notEmpty("--out", out, "a directory");
    RunOptions.notEmpty("--data", data, "a directory");
    if (out != null && data != null) throw new BadInputException("--out and --data: give one of them");
    if (cluster != null) RunCommand.checkCluster(cluster);
    Experiment e = Experiment.load(experiment);
    Path dir = out != null ? out : RunOptions.dataDirOf(data).resolve("sweeps").resolve(e.name());
    if (Files.exists(dir) && !Files.isDirectory(dir)) throw new BadInputException(dir + ": exists and is not a directory");
    Runner.checkWritable(dir, out != null ? "--out " + dir : "the sweep's directory " + dir);
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter jsonOut = spec.commandLine().getOut();
    PrintWriter stdout = json ? err : jsonOut;
    // joined before anything is written: a cluster that does not answer is bad input, and the directory stays as it was
    try (ClusterSubmit.Client client = cluster == null ? null
        : ClusterSubmit.Client.join(cluster, io.tlogsim.cluster.ClusterKeys.forClient(RunOptions.dataDirOf(data)))) {
      int nodes = client == null ? 0 : client.nodes();
      int at = parallel != null ? parallel : client != null ? Math.max(1, nodes) : e.parallel();
      if (!quiet) {
        stdout.printf(Locale.ROOT, "sweep        %s: %d points x %d replications = %d runs, %d at once%s%n", e.name(),
            e.points().size(), e.replications(), e.runs(), at, client == null ? ""
                : String.format(Locale.ROOT, " on the cluster at %s (%s; each run whole on one node)", cluster,
                    Text.plural(nodes, "node")));
        java.util.Set<String> notes = new java.util.LinkedHashSet<>();
        for (Experiment.Point p : e.points()) notes.addAll(SettingNotes.of(e.scenario(p, 0)));
        for (String n : notes) Text.paragraph("note", n).forEach(stdout::println);
        stdout.flush();
      }
      return sweep(e, dir, at, client == null ? Sweep.here(e) : new ClusterSweep(client, at), stdout, err,
          json ? jsonOut : null);
    }
  }

  private int sweep(Experiment e, Path dir, int at, Sweep.Runs runs, PrintWriter stdout, PrintWriter err,
      PrintWriter jsonOut) throws java.io.IOException {
    long start = System.nanoTime();
    int[] newRuns = {0};
    List<Sweep.Row> rows = new Sweep(e, dir, runs).run(at, p -> {
      newRuns[0]++;
      if (quiet) return;
      double elapsed = (System.nanoTime() - start) / 1e9;
      double eta = elapsed / newRuns[0] * (p.total() - p.done());
      err.printf(Locale.ROOT, "progress     %d/%d runs%s, %s elapsed, ETA %s (point %d, replication %d)%n",
          p.done(), p.total(), p.resumed() > 0 ? " (" + p.resumed() + " resumed)" : "", duration(elapsed),
          duration(eta), p.last().point(), p.last().replication());
      err.flush();
    });
    if (!quiet) {
      double wall = (System.nanoTime() - start) / 1e9;
      stdout.printf(Locale.ROOT, "done         %d runs in %s wall (%d new)%n", rows.size(), duration(wall), newRuns[0]);
      List<Experiment.Point> points = e.points();
      for (Sweep.Precision pr : Sweep.precision(e, rows)) {
        stdout.printf(Locale.ROOT, "precision    %s: widest 95%% CI %s of the mean (point %s)%n", pr.metric(),
            Double.isFinite(pr.widest()) ? String.format(Locale.ROOT, "%.2f%%", pr.widest() * 100) : "unbounded",
            pr.point() < 0 ? "-" : String.join(" ", points.get(pr.point()).values()));
      }
      if (newRuns[0] == 0) stdout.println("sweep        all " + rows.size() + " runs were done already");
      stdout.println("results      " + dir.resolve(Sweep.RUNS) + " (per run)");
      stdout.println("             " + dir.resolve(Sweep.POINTS) + " (mean and 95% confidence interval per point)");
      stdout.println("             " + dir.resolve("report.html"));
      stdout.flush();
    }
    if (jsonOut != null) {
      jsonOut.println(SweepJson.of(e, dir, rows, newRuns[0]));
      jsonOut.flush();
    }
    return Tlogsim.OK;
  }

  static String duration(double s) {
    long t = Math.round(s);
    return t >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", t / 3600, t % 3600 / 60)
        : t >= 60 ? String.format(Locale.ROOT, "%dm%02ds", t / 60, t % 60) : t + "s";
  }
}
