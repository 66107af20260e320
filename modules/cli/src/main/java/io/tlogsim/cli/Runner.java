package io.tlogsim.cli;

import io.tlogsim.analysis.LatencyLog;
import io.tlogsim.analysis.SummaryWriter;
import io.tlogsim.cluster.ClusterSubmit;
import io.tlogsim.cluster.RunSpec;
import io.tlogsim.engine.ScenarioKinds;
import io.tlogsim.engine.scenario.BadInputException;
import io.tlogsim.engine.scenario.ParamSpec;
import io.tlogsim.engine.scenario.RunControl;
import io.tlogsim.engine.scenario.Scenario;
import io.tlogsim.engine.scenario.ScenarioResult;
import io.tlogsim.engine.scenario.Text;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * What {@code run} and {@code bench} do: load and validate everything (bad input throws {@link BadInputException}
 * before anything is made), then either print the resolved configuration ({@code --dry-run}) or make the output
 * directory, run with progress on stderr, write summary.json and latency.hlog, and print the summary.
 *
 * <p>Where text goes: the human summary on stdout; with {@code --json}, summary.json on stdout and the human summary on
 * stderr; with {@code --quiet}, no human text at all. Progress and errors always go to stderr.
 */
final class Runner {
  private final CommandLine cl;

  Runner(CommandLine cl) {
    this.cl = cl;
  }

  int run(String scenarioArg, Map<String, String> overrides, RunOptions options, boolean bench) throws IOException {
    return run(scenarioArg, overrides, options, bench, null);
  }

  /** As above; {@code cluster} ("host:port", or null) runs it on a tlogsim cluster instead of here. */
  int run(String scenarioArg, Map<String, String> overrides, RunOptions options, boolean bench, String cluster)
      throws IOException {
    LoggerFactory.getILoggerFactory(); // logging up before Pekko's threads log (else SLF4J warns about a replay)
    // 1. Validate everything; nothing is written yet.
    Scenario loaded = ScenarioKinds.loader().load(scenarioArg, overrides);
    Scenario scenario = options.seed != null ? loaded.withSeed(options.seed, "--seed") : loaded;
    AtomicLong progress = new AtomicLong();
    RunControl control = new RunControl(scenario.seed(), options.threadsOrDefault(), progress);
    OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
    Path out = options.outDir();
    Path runs = options.dataDir().resolve("runs");
    if (out != null) {
      checkOut(out, options.force);
    } else {
      checkWritable(runs, "--data " + options.dataDir());
    }
    Map<String, Object> provenance = provenance(scenario, options, started);
    PrintWriter stdout = cl.getOut();
    PrintWriter err = cl.getErr();
    PrintWriter human = options.quiet ? null : options.json ? err : stdout;

    if (options.dryRun) {
      if (options.json) {
        stdout.print(SummaryWriter.toJson("dry-run", dryRunSummary(scenario, control, provenance, out, runs)));
      } else if (human != null) {
        dryRunLines(scenario, control, out, runs).forEach(human::println);
      }
      stdout.flush();
      return Tlogsim.OK;
    }
    if (human != null) {
      Text.paragraph("running", scenario.name() + (scenario.description().isEmpty() ? "" : ": "
          + scenario.description())).forEach(human::println);
      human.flush();
    }

    // 2. Run, with a shutdown hook that stops it cleanly on Ctrl-C or SIGTERM.
    String runId;
    Path dir;
    ScenarioResult result;
    Path summaryFile;
    Path latencyFile = null;
    try (RunGuard guard = new RunGuard(err, () -> where(progress.get(), scenario.endTimeNanos()))) {
      if (out == null) { // runs/<runId>, the first id not taken
        guard.makeDirectory(() -> runs.resolve(SummaryWriter.runId(scenario.name(), scenario.seed(),
            started.toLocalDateTime(), candidate -> !tryCreate(runs, candidate))));
        dir = guard.madeDir();
        runId = dir.getFileName().toString();
      } else {
        runId = SummaryWriter.runId(scenario.name(), scenario.seed(), started.toLocalDateTime(),
            id -> Files.exists(runs.resolve(id)));
        dir = out;
        guard.makeDirectory(() -> {
          boolean existed = Files.isDirectory(out);
          try {
            Files.createDirectories(out);
          } catch (IOException e) {
            throw new BadInputException("--out " + out + ": cannot create the directory (" + e + ")");
          }
          return existed ? null : out;
        });
      }
      boolean made = guard.madeDir() != null;
      try (Progress bar = Progress.start(options.quiet, Progress.stderrIsTerminal(), options.progressSeconds, err,
          scenario.name(), scenario.endTimeNanos(), progress, List::of)) {
        result = cluster == null ? scenario.run(control)
            : ClusterSubmit.run(cluster, runSpec(runId, scenario), progress);
        bar.finished();
      } catch (RuntimeException | Error e) {
        if (made) RunGuard.removeIfEmpty(dir);
        if (guard.stopped()) throw new Failures.Interrupted();
        if (Failures.isOutOfMemory(e)) throw new Failures.OutOfMemory();
        throw e;
      }
      if (!guard.startWriting()) {
        if (made) RunGuard.removeIfEmpty(dir);
        throw new Failures.Interrupted();
      }

      // 3. Results: summary.json (provenance added) and the latency histograms.
      Map<String, Object> summary = new LinkedHashMap<>(result.summary());
      summary.put("provenance", provenance);
      summaryFile = SummaryWriter.write(dir, runId, summary);
      if (!result.histograms().isEmpty()) {
        latencyFile = LatencyLog.write(dir, runId, scenario.endTimeNanos() / 1e9,
            result.histograms());
      }
      if (options.json) stdout.print(SummaryWriter.toJson(runId, summary));
    }

    // 4. The human summary.
    if (human != null) {
      result.humanLines().forEach(human::println);
      if (bench) human.println(speedLine(result.summary()));
      if (latencyFile != null) {
        human.println("histogram    " + latencyFile.getFileName() + " beside summary.json (HdrHistogram log, "
            + "values in ns)");
      }
      human.println("summary      " + summaryFile.toAbsolutePath().normalize());
    }
    stdout.flush();
    err.flush();
    return Tlogsim.OK;
  }

  /** What a cluster's nodes need to make the same scenario: a file's text travels with it. */
  private static RunSpec runSpec(String runId, Scenario s) {
    String text = null;
    if (!s.source().startsWith("built-in:")) {
      try {
        text = Files.readString(Path.of(s.source()));
      } catch (IOException e) {
        throw new BadInputException("scenario file " + s.source() + " cannot be read: " + e.getMessage());
      }
    }
    return new RunSpec(runId, s.name(), s.source(), text, s.overrides(), s.seed(), s.seedOrigin());
  }

  /** "at 0.84 of 2 simulated s", for the line that says a signal stopped the run. */
  private static String where(long reachedNanos, long endNanos) {
    return "at " + Text.number(Math.round(Math.min(reachedNanos, endNanos) / 1e6) / 1e3) + " of "
        + Text.number(endNanos / 1e9) + " simulated s";
  }

  /**
   * --out must be a directory (or creatable as one) where tlogsim may write, and must not hold a summary.json
   * unless --force.
   */
  private static void checkOut(Path out, boolean force) {
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new BadInputException("--out " + out + ": exists and is not a directory");
    }
    if (Files.exists(out.resolve(SummaryWriter.FILE_NAME)) && !force) {
      throw new BadInputException("--out " + out + ": already holds " + SummaryWriter.FILE_NAME
          + "; give --force to overwrite it, or another --out");
    }
    checkWritable(out, "--out " + out);
  }

  /** The directory, or the nearest existing one above it, must be a writable directory. */
  private static void checkWritable(Path dir, String what) {
    Path p = dir.toAbsolutePath().normalize();
    while (p != null && !Files.exists(p)) p = p.getParent();
    if (p == null) throw new BadInputException(what + ": no existing directory above it");
    if (!Files.isDirectory(p)) throw new BadInputException(what + ": " + p + " is not a directory");
    if (!Files.isWritable(p)) throw new BadInputException(what + ": " + p + " is not writable");
  }

  /** Makes runs/id (and its parents); false when runs/id is already there, so the caller tries the next id. */
  private static boolean tryCreate(Path runs, String id) {
    try {
      Files.createDirectories(runs);
      Files.createDirectory(runs.resolve(id));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new BadInputException("cannot create the run directory " + runs.resolve(id) + " (" + e
          + "); give --out DIR or --data DIR");
    }
  }

  /** summary.json's provenance: what was run, from where, with which overrides, when, by which version. */
  private Map<String, Object> provenance(Scenario scenario, RunOptions options, OffsetDateTime started) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("version", Tlogsim.version());
    p.put("commandLine", commandLine());
    p.put("scenarioFile", scenario.source());
    p.put("description", scenario.description());
    Map<String, Object> overrides = new LinkedHashMap<>(scenario.overrides());
    if (options.seed != null) overrides.put("seed", String.valueOf(options.seed));
    p.put("overrides", overrides);
    p.put("startedAt", started.toString());
    Map<String, Object> origins = new LinkedHashMap<>();
    origins.put("seed", scenario.seedOrigin());
    origins.putAll(scenario.origins());
    p.put("origins", origins);
    return p;
  }

  /** The command as typed, each argument quoted for a POSIX shell where it needs it. */
  private String commandLine() {
    CommandLine root = cl;
    while (root.getParent() != null) root = root.getParent();
    List<String> args = root.getParseResult() == null ? List.of() : root.getParseResult().originalArgs();
    return "tlogsim" + args.stream().map(Runner::shellQuoted).map(a -> " " + a).collect(Collectors.joining());
  }

  static String shellQuoted(String arg) {
    if (!arg.isEmpty() && arg.matches("[A-Za-z0-9_@%+=:,./-]+")) return arg;
    return "'" + arg.replace("'", "'\\''") + "'";
  }

  /** What --dry-run prints: the scenario, seed and every parameter with its value, unit and origin; the output. */
  private static List<String> dryRunLines(Scenario s, RunControl control, Path out, Path runs) {
    List<String> lines = new ArrayList<>();
    lines.addAll(Text.paragraph("dry run", s.name() + " (" + s.source() + "), kind " + s.kind().name()
        + ": valid; nothing run or written"));
    if (!s.description().isEmpty()) lines.addAll(Text.paragraph("description", s.description()));
    lines.add("parameters   value and where it comes from (tlogsim params " + s.kind().name() + " explains each)");
    lines.add(row("seed", String.valueOf(s.seed()), s.seedOrigin()));
    for (ParamSpec spec : s.kind().params()) {
      String unit = spec.unit().isEmpty() ? "" : " " + spec.unit();
      lines.add(row(spec.key(), Text.plain(s.params().asMap().get(spec.key())) + unit, s.origins().get(spec.key())));
    }
    lines.addAll(Text.lines("threads", String.valueOf(control.threads())));
    if (s.reference() != null) {
      lines.addAll(Text.paragraph("reference", "compared with " + s.reference().source()));
    } else if (s.droppedReference() != null) {
      lines.addAll(s.droppedReference().lines());
    }
    String dir = out != null ? out.toString() : runs.resolve("<runId>").toString();
    lines.addAll(Text.paragraph("output", "would write " + dir + "/" + SummaryWriter.FILE_NAME + " and "
        + LatencyLog.FILE_NAME));
    return lines;
  }

  /** "  sessions          1000 sessions     scenario, scenarios/gcm1.conf:5" */
  private static String row(String key, String value, String origin) {
    return String.format(Locale.ROOT, "  %-18s %-16s %s", key, value, origin).stripTrailing();
  }

  private static Map<String, Object> dryRunSummary(Scenario s, RunControl control, Map<String, Object> provenance,
      Path out, Path runs) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dryRun", true);
    m.put("scenario", s.name());
    m.put("kind", s.kind().name());
    m.put("seed", s.seed());
    m.put("threads", control.threads());
    m.put("params", s.params().asMap());
    if (s.reference() != null) m.put("referenceSource", s.reference().source());
    if (s.droppedReference() != null) m.put("referenceDropped", s.droppedReference().toSummary());
    m.put("out", (out != null ? out : runs.resolve("<runId>")).toString());
    m.put("provenance", provenance);
    return m;
  }

  /** The benchmark's speed figures, from summary.run. */
  static String speedLine(Map<String, Object> summary) {
    Object r = summary.get("run");
    Map<?, ?> run = r instanceof Map<?, ?> m ? m : Map.of();
    return String.join("\n", Text.lines("speed", Text.whole(number(run.get("commitsPerWallSecond")))
            + " simulated commits/wall s", Text.whole(number(run.get("simulatedEventsPerWallSecond"))) + " events/wall s",
        String.format(Locale.ROOT, "%.4f messages/event", number(run.get("messagesPerEvent")))));
  }

  private static double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
