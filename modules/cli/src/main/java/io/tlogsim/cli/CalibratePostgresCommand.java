package io.tlogsim.cli;

import com.typesafe.config.ConfigUtil;
import io.tlogsim.analysis.calibrate.PostgresCalibration;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.HostProfiles;
import io.tlogsim.scenario.Text;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim calibrate-postgres}: pg-commit's inputs measured on a running PostgreSQL (libpq's variables say which),
 * written as a pg-commit scenario that {@code tlogsim run FILE} runs.
 */
@Command(name = "calibrate-postgres", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Measure pg-commit's inputs on a running PostgreSQL, connecting as psql does (libpq's variables): "
        + "pg_test_fsync on the WAL's disk (fsyncUs; a server on several cores: from each alone, their mean), "
        + "pgbench -n with a one-row INSERT and synchronous_commit=off at each --clients count (cpuPerTxnUs from the "
        + "CPU the server and pgbench used, roundTripUs, cpuPerTxnUsOneClient), the CPU of a backend's sleep "
        + "(sessionSleepCpuUs: pg_sleep(0.001) against pg_sleep(0) at the most clients), the server's cores; and "
        + "write them as a pg-commit scenario "
        + "(<data>/postgres/NAME.conf) for tlogsim run, with --host-profile the host's costs of waiting too. It "
        + "creates one table and drops it.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {
        "  PGHOST, PGPORT     the server (libpq's defaults otherwise)",
        "  PGUSER, PGDATABASE as whom, in which database",
        "  PGPASSWORD         or PGPASSFILE (~/.pgpass); never printed",
        Tlogsim.ENV_DATA, Tlogsim.ENV_DEBUG})
final class CalibratePostgresCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--name", paramLabel = "NAME", defaultValue = "local",
      description = "The scenario's name (default: ${DEFAULT-VALUE}): <data>/postgres/NAME.conf.")
  String name;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the scenario here instead.")
  Path out;

  @Option(names = "--data", paramLabel = "DIR", description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  Path data;

  @Option(names = "--force", description = "Replace an existing file.")
  boolean force;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "30",
      description = "pgbench -T of each run, wall seconds (default: ${DEFAULT-VALUE}; 1 to 3600).")
  double seconds;

  @Option(names = "--fsync-seconds", paramLabel = "S", defaultValue = "5",
      description = "pg_test_fsync -s (default: ${DEFAULT-VALUE}; 1 to 60): a run takes about 16 x S seconds, one "
          + "per core of the server unless --fsync-once.")
  int fsyncSeconds;

  @Option(names = "--clients", paramLabel = "N", defaultValue = "1,64", split = ",",
      description = "pgbench -c of each run (default: ${DEFAULT-VALUE}): the fewest give roundTripUs, the most "
          + "cpuPerTxnUs; 1 to 10000 each.")
  List<Integer> clients;

  @Option(names = "--wal-dir", paramLabel = "DIR",
      description = "A writable directory on the WAL's disk for pg_test_fsync (default: <data_directory>/pg_wal, which "
          + "the user must be allowed to read: superuser or pg_read_all_settings).")
  Path walDir;

  @Option(names = "--cores", paramLabel = "N",
      description = "The server's cores, when it runs elsewhere (default: its postmaster's affinity, read here).")
  Integer cores;

  @Option(names = "--host-profile", paramLabel = "NAME",
      description = "The database host's profile from tlogsim calibrate-host (a name in <data>/hosts, or a .conf "
          + "path), written into the scenario as host = profile:NAME: the CPU of waiting for a flush, which "
          + "synchronous_commit=off does not show (default: none, and the file says how to add it).")
  String hostProfile;

  @Option(names = "--fsync-once", description = "Run pg_test_fsync once, on the server's cores together, not from "
      + "each alone: quicker on many cores (a run takes about 16 x --fsync-seconds s), but on a VM it may settle on the "
      + "core whose flushes complete cheapest while the server flushes from all (docs/commit-path-host-costs.md 10.2).")
  boolean fsyncOnce;

  @Option(names = "--no-sleep", description = "Do not measure sessionSleepCpuUs (two more pgbench runs).")
  boolean noSleep;

  @Option(names = "--quiet", description = "Print nothing but errors.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    if (!(seconds >= 1 && seconds <= 3600)) {
      throw new BadInputException("--seconds: must be from 1 to 3600, got " + Text.plain(seconds));
    }
    if (fsyncSeconds < 1 || fsyncSeconds > 60) {
      throw new BadInputException("--fsync-seconds: must be from 1 to 60, got " + fsyncSeconds);
    }
    for (int c : clients) {
      if (c < 1 || c > 10_000) throw new BadInputException("--clients: each from 1 to 10000, got " + c);
    }
    List<Integer> counts = clients.stream().distinct().sorted().toList();
    if (cores != null && (cores < 1 || cores > 4096)) {
      throw new BadInputException("--cores: must be from 1 to 4096, got " + cores);
    }
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
      throw new BadInputException("--name: letters, digits, '.', '_' and '-' (it names a file), got '" + name + "'");
    }
    RunOptions.notEmpty("--wal-dir", walDir, "a directory");
    RunOptions.notEmpty("--out", out, "a file");
    RunOptions.notEmpty("--data", data, "a directory");
    if (out != null && data != null) throw new BadInputException("--out and --data: give one of them");
    String host = hostProfile == null ? null : hostRef(hostProfile);
    if (walDir != null && !Files.isDirectory(walDir)) {
      throw new BadInputException("--wal-dir: " + walDir + " is not a directory");
    }
    Path file = out != null ? out : RunOptions.dataDirOf(data).resolve("postgres").resolve(name + ".conf");
    if (Files.isDirectory(file)) throw new BadInputException("--out: " + file + " is a directory");
    if (Files.exists(file) && !force) {
      throw new BadInputException("--out: " + file + " exists; --force replaces it, --name gives another");
    }
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    long start = System.nanoTime();
    PostgresCalibration.Result r;
    try {
      r = new PostgresCalibration(new PostgresCalibration.Settings(seconds, fsyncSeconds, counts, walDir, cores,
          !noSleep, !fsyncOnce),
          line -> {
            if (quiet) return;
            err.printf(Locale.ROOT, "progress     %s (%.1f s)%n", line, (System.nanoTime() - start) / 1e9);
            err.flush();
          }).run();
    } catch (IOException e) {
      throw new IllegalStateException("measuring PostgreSQL: " + e.getMessage(), e);
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, render(name, r, host));
    if (!quiet) {
      for (String note : r.notes()) stdout.println("note         " + note);
      stdout.printf(Locale.ROOT, "%-8s %12s %14s %18s%n", "clients", "TPS (off)", "transactions", "CPU us/txn");
      for (PostgresCalibration.Run run : r.runs()) {
        stdout.printf(Locale.ROOT, "%-8d %12.0f %,14d %18s%n", run.clients(), run.tps(), run.transactions(),
            r.cpuMeasured() ? String.format(Locale.ROOT, "%.1f", run.cpuPerTxnUs()) : "-");
      }
      stdout.printf(Locale.ROOT, "inputs       fsyncUs = %.1f, cpuPerTxnUs = %.3f, roundTripUs = %.3f, cores = %d"
          + "%s%s%n", r.fsyncUs(), r.cpuPerTxnUs(), r.roundTripUs(), r.cores(), r.cpuPerTxnUsOneClient() > 0
              ? String.format(Locale.ROOT, ", cpuPerTxnUsOneClient = %.3f", r.cpuPerTxnUsOneClient()) : "",
          r.sleepRuns().size() == 2 ? String.format(Locale.ROOT, ", sessionSleepCpuUs = %.3f", r.sessionSleepCpuUs())
              : "");
      stdout.println("host         " + (host != null ? "profile:" + host : "none: add host = profile:NAME (tlogsim "
          + "calibrate-host --name NAME on the WAL's disk, under the server's affinity), or give --host-profile"));
      stdout.println("scenario     " + file.toAbsolutePath());
      stdout.println("use          ./tlogsim run " + file + "   (pg-commit with these inputs, 1 to 64 clients)");
      stdout.flush();
    }
    return Tlogsim.OK;
  }

  /**
   * {@code --host-profile}'s value as the scenario names it: a name (a path under --data's hosts when --data is given:
   * a run looks in $TLOGSIM_DATA), or a .conf path made absolute; it must exist.
   */
  private String hostRef(String given) {
    RunOptions.notEmpty("--host-profile", given, "a host profile's name or .conf path");
    boolean path = given.endsWith(".conf") || given.contains("/");
    String ref = path ? Path.of(given).toAbsolutePath().normalize().toString()
        : data != null ? HostProfiles.fileOf(RunOptions.dataDirOf(data), given).toAbsolutePath().normalize().toString()
        : given;
    try {
      HostProfiles.settings(ref);
    } catch (BadInputException e) {
      throw new BadInputException("--host-profile: " + e.getMessage().replaceFirst("^host: ", ""));
    }
    return ref;
  }

  /**
   * A pg-commit scenario with the inputs of the judged model (docs/commit-path-host-costs.md 10.2), what was measured
   * in comments; {@code host}: the host profile it names (null: none, and a comment says how to add one).
   */
  static String render(String name, PostgresCalibration.Result r, String host) {
    List<String> l = new ArrayList<>();
    l.add("# pg-commit's inputs measured by tlogsim calibrate-postgres on " + host() + " at " + Instant.now());
    l.add("# server: PostgreSQL " + r.version() + " (" + r.server() + "), wal_sync_method " + r.walSyncMethod()
        + ", WAL under " + r.walDir());
    l.add("# cores: " + r.cores() + " from " + r.coresFrom());
    l.add("# recipe: " + (r.cpuMeasured() ? "CPU measured (server from /proc, pgbench's own): docs/commit-path-host-"
        + "costs.md section 7" : "CPU inferred from throughput (cores x 10^6 / TPS; README's recipe)"));
    for (String note : r.notes()) l.add("# note: " + note);
    l.add("# pgbench -n -f (one-row INSERT), synchronous_commit=off:");
    l.add("#   clients  TPS  transactions  latency ms  CPU us/txn");
    for (PostgresCalibration.Run run : r.runs()) l.add(row("", run, r.cpuMeasured()));
    if (r.sleepRuns().size() == 2) {
      l.add("# the same with INSERT then SELECT pg_sleep(0), then with pg_sleep(0.001):");
      l.add(row("pg_sleep(0)  ", r.sleepRuns().get(0), true));
      l.add(row("pg_sleep(0.001)  ", r.sleepRuns().get(1), true));
    }
    l.add("kind = pg-commit");
    l.add("description = \"PostgreSQL commits with the inputs calibrate-postgres measured (" + name + ")\"");
    if (r.fsyncEachCore()) {
      l.add("# pg_test_fsync, " + r.walSyncMethod() + ", one 8kB write, from each of the server's cores alone: "
          + r.fsyncs().stream().map(f -> String.format(Locale.ROOT, "core %s %.1f us", f.cpus(), f.us()))
              .collect(Collectors.joining(", ")));
    }
    l.add(String.format(Locale.ROOT, "fsyncUs = %.3f        # pg_test_fsync, %s, one 8kB write%s", r.fsyncUs(),
        r.walSyncMethod(), r.fsyncEachCore() ? ": the mean over the server's cores"
            : r.fsyncs().get(0).cpus().isEmpty() ? "" : ", on cores " + r.fsyncs().get(0).cpus()));
    l.add(String.format(Locale.ROOT, "cpuPerTxnUs = %.3f    # CPU of a transaction at %d clients", r.cpuPerTxnUs(),
        r.cpuPerTxnUsClients()));
    if (r.cpuPerTxnUsOneClient() > 0) {
      l.add(String.format(Locale.ROOT, "cpuPerTxnUsOneClient = %.3f    # CPU of a transaction at 1 client",
          r.cpuPerTxnUsOneClient()));
      l.add("cpuPerTxnUsClients = " + r.cpuPerTxnUsClients() + "    # where cpuPerTxnUs was measured");
    }
    if (r.sleepRuns().size() == 2) {
      // it stands for the host profile's sleep figures: without a profile it would charge sleeps and no wakes or
      // flushes, neither the judged model nor one without host costs
      l.add(String.format(Locale.ROOT, "%ssessionSleepCpuUs = %.3f    # CPU of one sleep of a backend: pg_sleep(0.001) "
          + "less pg_sleep(0), per transaction%s", host == null ? "# " : "", r.sessionSleepCpuUs(),
          host == null ? " (uncomment with host below)" : ""));
    }
    l.add(String.format(Locale.ROOT, "roundTripUs = %.3f    # one client's transaction off any core", r.roundTripUs()));
    l.add("cores = " + r.cores());
    if (host != null) {
      l.add("host = " + ConfigUtil.quoteString("profile:" + host) + "    # the host's costs of waiting (tlogsim "
          + "calibrate-host)");
    } else {
      l.add("# host = \"profile:NAME\"    # add the host's costs of waiting: tlogsim calibrate-host --name NAME --path"
          + " <the WAL's directory>, under the server's affinity (docs/commit-path.md, Host costs)");
    }
    l.add("sweep = true");
    return String.join("\n", l) + "\n";
  }

  /** One pgbench run as a comment line: clients, TPS, transactions, latency, CPU per transaction. */
  private static String row(String what, PostgresCalibration.Run run, boolean cpuMeasured) {
    return String.format(Locale.ROOT, "#   %s%d  %.1f  %d  %.3f  %s", what, run.clients(), run.tps(),
        run.transactions(), run.latencyMs(), cpuMeasured ? String.format(Locale.ROOT, "%.3f", run.cpuPerTxnUs()) : "-");
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
