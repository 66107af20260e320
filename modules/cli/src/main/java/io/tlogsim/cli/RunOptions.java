package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
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
      description = "Override one scenario parameter; repeatable (see tlogsim params <kind>). Unknown keys are "
          + "refused with the allowed ones.")
  List<String> sets = new ArrayList<>();

  @Option(names = "--threads", paramLabel = "T",
      description = "Dispatcher threads (default: the number of available processors).")
  Long threads; // a long, so that a value too large is refused with the range, not as "not an integer"

  @Option(names = "--out", paramLabel = "DIR", description = "Where summary.json and latency.hlog go "
      + "(default: <data>/runs/<runId>).")
  String out;

  @Option(names = "--data", paramLabel = "DIR",
      description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  String data;

  @Option(names = "--force", description = "Overwrite a summary.json already in --out.")
  boolean force;

  @Option(names = "--dry-run", description = "Validate and print the resolved configuration (every parameter, its "
      + "value and where it comes from); run nothing, write nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print summary.json on stdout and nothing else (the human summary goes to "
      + "stderr unless --quiet).")
  boolean json;

  @Option(names = "--show", split = ",", paramLabel = "TABLE[,TABLE...]",
      description = "Also print these tables after the summary: onstat (Informix onstat -l), waits (wait statistics "
          + "like sys.dm_os_wait_stats), filestats (per-file I/O like sys.dm_io_virtual_file_stats), loginfo (DBCC "
          + "LOGINFO), logspace (DBCC SQLPERF(LOGSPACE) at each sqlperf step), vlfrules (VLFs per growth rule), "
          + "messages (the client's messages: backup progress, errors such as 4214 and 9002), errorlog (the server's "
          + "error log: recovery), layouts (log-drive-placement), sweep (pg-commit's clients table). A table the "
          + "run's kind does not keep says so.")
  List<String> show = new ArrayList<>();

  @Option(names = {"-c", "--client"}, paramLabel = "N", description = "Sessions (clients), as pgbench's -c: --set "
      + "sessions=N.")
  String sessions;

  @Option(names = {"-T", "--time"}, paramLabel = "S", description = "Simulated time, as pgbench's -T: --set "
      + "simulatedSeconds=S; a unit may follow (500ms, 10s, 2m).")
  String time;

  @Option(names = {"-R", "--rate"}, paramLabel = "TPS", description = "A fixed arrival rate, transactions per second "
      + "over all sessions, as pgbench's -R (Poisson; late starts are the schedule lag): --set arrivalRate=TPS.")
  String rate;

  @Option(names = "--percentiles", split = ",", paramLabel = "P[,P...]", description = "Also print these commit "
      + "latency percentiles, as fio's percentile_list (e.g. 50,90,99,99.9,99.99; latency.hlog has them all).")
  List<Double> percentiles = new ArrayList<>();

  @Option(names = {"--terse", "--minimal"}, description = "Print one line of semicolon-separated figures (as fio's "
      + "--minimal; fields in docs/reference.md) and nothing else; the progress still goes to stderr.")
  boolean terse;

  @Option(names = "--trace", paramLabel = "summary|full", description = "How much of the run's facts its journal "
      + "keeps (default: tlogsim.journal.trace, summary): summary, the per-interval aggregates every chart needs; "
      + "full, every fact too (each log write hardened, each checkpoint, ...) for tlogsim facts, at the cost of "
      + "journal size and speed.")
  String trace;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors (and, with --json, the JSON).")
  boolean quiet;

  @Option(names = "--checkpoint-every-simulated", paramLabel = "MARK", description = "Also take a checkpoint at "
      + "each simulated-time mark: a percent of the run's simulated time (10%%), a simulated duration (30s), or off "
      + "(default: tlogsim.journal.checkpoint-every-simulated, 10%%). replay --at and run --branch start from them.")
  String checkpointEverySimulated;

  @Option(names = "--checkpoint-min-gap", paramLabel = "D", description = "Pass over a simulated-time mark reached "
      + "less than D of wall time after the last mark's checkpoint (default: tlogsim.journal.checkpoint-min-gap, 500ms; a unit "
      + "is needed: 500ms, 2s); 0s: a checkpoint at every mark.")
  String checkpointMinGap;

  /** The first checkpoint option given (for a command or mode that takes no checkpoints to refuse), or null. */
  String checkpointOptionGiven() {
    return checkpointEverySimulated != null ? "--checkpoint-every-simulated"
        : checkpointMinGap != null ? "--checkpoint-min-gap" : null;
  }

  /** The simulated-time marks of a journaled run: the config's, with this command line's options. */
  io.tlogsim.journal.CheckpointMarks checkpointMarks() {
    return io.tlogsim.journal.CheckpointMarks.of(com.typesafe.config.ConfigFactory.load(), checkpointEverySimulated,
        checkpointMinGap);
  }

  @Option(names = "--progress", paramLabel = "S", description = "When stderr is not a terminal, print a progress line "
      + "every S wall seconds (on a terminal a progress bar is shown anyway).")
  Double progressSeconds;

  @Option(names = "--warmup", paramLabel = "S", description = "Leave the first S simulated seconds out of the commit "
      + "statistics (count, rate, latency): --set warmupSeconds=S (kinds gcm1, commit-path, informix, log-space). A warm-up "
      + "changes the figures, so a published reference is dropped.")
  Double warmup;

  /**
   * The {@code --set} entries as key to value, in the order given (a key given twice is refused), after the checks
   * that need no scenario: empty values of --out, --data, a --set key; options that contradict each other.
   */
  Map<String, String> overrides() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String s : sets) {
      int eq = s.indexOf('=');
      if (eq < 0) {
        throw new BadInputException("--set " + s + ": must have the form key=value (e.g. --set sessions=1000)");
      }
      String key = s.substring(0, eq).strip();
      if (key.isEmpty()) {
        throw new BadInputException("--set " + s + ": the key must not be empty (e.g. --set sessions=1000)");
      }
      if (m.containsKey(key)) { // two values for one key contradict each other, as --seed and --set seed= do
        throw new BadInputException("--set " + key + "=" + m.get(key) + " and --set " + s.strip() + ": give " + key
            + " once");
      }
      m.put(key, s.substring(eq + 1));
    }
    if (out != null && out.isBlank()) throw new BadInputException("--out: must not be empty; give a directory");
    if (data != null && data.isBlank()) throw new BadInputException("--data: must not be empty; give a directory");
    if (out != null && data != null) {
      throw new BadInputException("--out and --data: give one (--out is the run's own directory, --data the "
          + "directory that holds runs/<runId>)");
    }
    if (seed != null && m.containsKey("seed")) {
      throw new BadInputException("--seed and --set seed=" + m.get("seed") + ": give the seed once");
    }
    if (warmup != null) {
      if (m.containsKey("warmupSeconds")) {
        throw new BadInputException("--warmup and --set warmupSeconds=" + m.get("warmupSeconds")
            + ": give the warm-up once");
      }
      m.put("warmupSeconds", io.tlogsim.scenario.Text.plain(warmup));
      typed.put("warmupSeconds", "--warmup " + io.tlogsim.scenario.Text.plain(warmup));
    }
    shortOption(m, "-c " + sessions, "sessions", sessions);
    shortOption(m, "-T " + time, "simulatedSeconds", time);
    shortOption(m, "-R " + rate, "arrivalRate", rate);
    if (terse && json) throw new BadInputException("--terse and --json: give one of them");
    for (Double p : percentiles) {
      if (p == null || !(p > 0 && p <= 100)) {
        throw new BadInputException("--percentiles: each must be a number above 0 and at most 100, got " + p);
      }
    }
    if (quiet && progressSeconds != null) {
      throw new BadInputException("--quiet and --progress: --quiet prints no progress; give one");
    }
    if (progressSeconds != null && !(progressSeconds > 0 && progressSeconds <= 86_400)) {
      throw new BadInputException("--progress: must be a number of wall seconds from 0 (exclusive) to 86400, got "
          + io.tlogsim.scenario.Text.plain(progressSeconds));
    }
    return m;
  }

  /** Short options that stand for a --set key, and what the user typed for each (for error lines). */
  final Map<String, String> typed = new LinkedHashMap<>();

  /** A short option (-c, -T) as the --set entry it stands for; given with that --set too, refused. */
  private void shortOption(Map<String, String> m, String option, String key, String value) {
    if (value == null) return;
    if (value.isBlank()) throw new BadInputException(option.strip() + ": must not be empty");
    if (m.containsKey(key)) {
      throw new BadInputException(option + " and --set " + key + "=" + m.get(key) + ": give " + key + " once");
    }
    m.put(key, value.strip());
    typed.put(key, option);
  }

  /** An option given as "" is refused (picocli would make a Path of it the current directory). */
  static void notEmpty(String option, Object value, String give) {
    if (value != null && value.toString().isBlank()) {
      throw new BadInputException(option + ": must not be empty; give " + give);
    }
  }

  /** --trace, else the configured trace level; bad input naming the allowed levels. */
  io.tlogsim.journal.TraceLevel trace(io.tlogsim.journal.TraceLevel configured) {
    return trace == null ? configured : io.tlogsim.journal.TraceLevel.parse(trace, "--trace");
  }

  int threadsOrDefault() {
    long t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    if (t < 1 || t > MAX_THREADS) {
      throw new BadInputException("--threads: must be an integer from 1 to " + MAX_THREADS + ", got " + t);
    }
    return (int) t;
  }

  Path outDir() {
    return out == null ? null : Path.of(out);
  }

  /** {@code --data}, else the environment variable TLOGSIM_DATA, else ./data. */
  Path dataDir() {
    return dataDirOf(data == null ? null : Path.of(data));
  }

  /** {@code --data}, else the environment variable TLOGSIM_DATA, else ./data. */
  static Path dataDirOf(Path given) {
    if (given != null) return given;
    String env = System.getenv("TLOGSIM_DATA");
    return env != null && !env.isBlank() ? Path.of(env) : Path.of("data");
  }
}
