package io.tlogsim.cli;

import io.tlogsim.analysis.LatencyLog;
import io.tlogsim.analysis.SummaryWriter;
import io.tlogsim.cluster.ClusterSubmit;
import io.tlogsim.cluster.RunSubmission;
import io.tlogsim.cluster.RunUpdate;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalDatabase;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.JournaledRun;
import io.tlogsim.journal.RunRecorder;
import io.tlogsim.journal.RunSpec;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStore;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.SimulationHost;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
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

  /** Runs of a benchmark before its measured one, in this JVM (bench --jit-warmup); 0 for every other command. */
  private int jitWarmupRuns;

  Runner withJitWarmup(int runs) {
    this.jitWarmupRuns = runs;
    return this;
  }

  /**
   * Runs a scenario here, journaled in {@code journalKind}, or ({@code cluster} "host:port", else null) on a tlogsim
   * cluster, which keeps no journal of it yet.
   */
  int run(String scenarioArg, Map<String, String> overrides, RunOptions options, boolean bench, JournalKind journalKind,
      String cluster) throws IOException {
    LoggerFactory.getILoggerFactory(); // logging up before Pekko's threads log (else SLF4J warns about a replay)
    // The journal's actor system starts meanwhile (most of its start-up); its database is touched only once the
    // input is valid: bad input writes nothing.
    if (options.trace != null) io.tlogsim.journal.TraceLevel.parse(options.trace, "--trace"); // checked even for --dry-run
    if (options.trace != null && (journalKind == JournalKind.NONE || cluster != null)) {
      throw new BadInputException("--trace " + options.trace + ": " + (cluster != null ? "a --cluster run is journaled"
          + " by the cluster's nodes, at their trace level" : bench ? "a benchmark is not journaled"
          : "--journal none keeps no facts") + "; --trace applies to a run journaled here (--journal h2 or postgres)");
    }
    JournalSettings configured = journalKind == JournalKind.NONE || options.dryRun || cluster != null ? null
        : JournalSettings.of(journalKind, options.dataDir());
    JournalSettings js = configured == null ? null : configured.withTrace(options.trace(configured.trace()));
    try (Journal.Opening opening = js == null ? null : Journal.openingForWriting(js)) {
      return run(scenarioArg, overrides, options, bench, opening, cluster);
    }
  }

  private int run(String scenarioArg, Map<String, String> overrides, RunOptions options, boolean bench,
      Journal.Opening opening, String cluster) throws IOException {
    // 1. Validate everything; nothing is written yet.
    for (String table : options.show) {
      if (!ScenarioKinds.tables().contains(table)) {
        throw new BadInputException("--show " + table + ": unknown table; allowed: "
            + String.join(", ", ScenarioKinds.tables()));
      }
    }
    Scenario loaded;
    try {
      loaded = ScenarioKinds.loader().load(scenarioArg, overrides);
    } catch (BadInputException e) {
      // --warmup, -c and -T are passed as --set entries: name the option the user typed
      for (Map.Entry<String, String> t : options.typed.entrySet()) {
        String m = e.getMessage();
        String named = m.replaceFirst("^(--set )?" + t.getKey() + "\\b", t.getValue() + " (" + t.getKey() + ")");
        if (!named.equals(m)) throw new BadInputException(named);
      }
      throw e;
    }
    Scenario scenario = options.seed != null ? loaded.withSeed(options.seed, "--seed") : loaded;
    AtomicLong progress = new AtomicLong();
    RunControl control = new RunControl(scenario.seed(), options.threadsOrDefault(), progress);
    OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
    Path out = options.outDir();
    Path runs = checkedDestination(options);
    Map<String, Object> provenance = provenance(scenario, options, started);
    PrintWriter stdout = cl.getOut();

    if (options.dryRun) {
      if (options.json) {
        stdout.print(SummaryWriter.toJson("dry-run", dryRunSummary(scenario, control, provenance, out, runs)));
      } else if (!options.quiet) {
        PrintWriter human = options.json ? cl.getErr() : stdout;
        dryRunLines(scenario, control, out, runs).forEach(human::println);
      }
      stdout.flush();
      return Tlogsim.OK;
    }
    // The journal is opened (and on first use created) before anything else is made: a journal that is not
    // tlogsim's is bad input, and then nothing is written.
    try (Journal journal = opening == null ? null : opening.open()) {
      return execute(scenario, control, provenance, options, bench, journal, new Fresh(out, runs, started, cluster));
    }
  }

  /**
   * {@code tlogsim run --resume <run-id>}: the run's scenario, seed and settings come from the journal; it goes on from
   * its last checkpoint (from its start when it has none) and writes its summary under the data directory given now
   * ({@code <data>/runs/<run-id>}), or in --out: never in a directory the journal remembers from elsewhere.
   */
  int resume(String runId, RunOptions options, JournalKind journalKind) throws IOException {
    LoggerFactory.getILoggerFactory();
    if (runId.isBlank()) throw new BadInputException("--resume: the run id must not be empty (tlogsim runs lists them)");
    if (options.trace != null) {
      throw new BadInputException("--resume and --trace: a resumed run keeps the trace level it was started with");
    }
    JournalSettings js = JournalSettings.of(journalKind, options.dataDir());
    if (JournalDatabase.prepare(js, false) == JournalDatabase.Found.ABSENT) { // reading it would create it
      throw new BadInputException("unknown run id '" + runId + "': the " + js.describe() + " does not exist yet");
    }
    try (Journal journal = Journal.openForWriting(js)) {
      RunStore store = journal.store();
      RunState state = store.resumable(runId);
      Checkpoint from = store.lastCheckpoint(runId, state);
      RunSpec spec = state.spec();
      if (from == null && spec.provenance().get("branch") != null) { // its start is its parent's state, not t = 0
        throw new BadInputException("run " + runId + " is a branch stopped before its first checkpoint: it cannot be"
            + " resumed; branch again (" + spec.commandLine() + ")");
      }
      Scenario scenario = spec.scenario(ScenarioKinds.all());
      if (spec.provenance().get("branch") instanceof Map<?, ?> b) { // a resumed branch still names its parent
        Map<String, Object> named = new LinkedHashMap<>();
        b.forEach((k, v) -> named.put(String.valueOf(k), v));
        branchOf = named;
      }
      int threads = options.threads != null ? options.threadsOrDefault() : spec.threads();
      RunControl control = new RunControl(spec.seed(), threads, new AtomicLong());
      Path dir = options.outDir() != null ? options.outDir() : options.dataDir().resolve("runs").resolve(runId);
      checkOut(dir, options.force);
      Map<String, Object> provenance = new LinkedHashMap<>(spec.provenance());
      Map<String, Object> resumed = new LinkedHashMap<>();
      resumed.put("commandLine", commandLine());
      resumed.put("at", OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS).toString());
      resumed.put("fromSimulatedSeconds", from == null ? 0.0 : from.simulatedNanos() / 1e9);
      provenance.put("resumed", resumed);
      if (!options.quiet && !options.terse) {
        PrintWriter human = options.json ? cl.getErr() : cl.getOut();
        Text.paragraph("resuming", runId + " (" + spec.scenario() + ", seed " + spec.seed() + ") " + (from == null
            ? "from its start: no checkpoint had been taken"
            : "from its checkpoint at " + Text.number(from.simulatedNanos() / 1e9) + " of "
                + Text.number(spec.endTimeNanos() / 1e9) + " simulated s")).forEach(human::println);
        human.flush();
      }
      return execute(scenario, control, provenance, options, false, journal, new Resumed(state, dir, from));
    }
  }

  /**
   * {@code tlogsim run --branch <run-id> --at T --set key=value...}: a new run from the state of a completed run at T
   * (its last checkpoint at or before T simulated on to T) with the changed settings ({@link BranchPoint}). Up to T it
   * is its parent (its digest goes on from the digest of the parent's events up to T); journaled as a run of its own,
   * whose provenance and summary.json ({@code run.branchOf}, {@code run.branchAt}) name its parent and T.
   */
  int branch(String parentId, String atText, Map<String, String> sets, RunOptions options, JournalKind journalKind)
      throws IOException {
    LoggerFactory.getILoggerFactory();
    if (parentId.isBlank()) throw new BadInputException("--branch: the run id must not be empty (tlogsim runs lists them)");
    if (atText == null) throw new BadInputException("--branch " + parentId + ": give --at T, where the branch leaves it");
    long at = StateAt.parseAt("--at", atText);
    JournalSettings js = JournalSettings.of(journalKind, options.dataDir());
    if (JournalDatabase.prepare(js, false) == JournalDatabase.Found.ABSENT) {
      throw new BadInputException("unknown run id '" + parentId + "': the " + js.describe() + " does not exist yet");
    }
    try (Journal journal = Journal.openForWriting(js)) {
      RunState parent = StateAt.completed(journal, parentId, "run --branch");
      StateAt.checkWithin("--at", parent, at);
      RunSpec ps = parent.spec();
      Scenario parentScenario = ps.scenario(ScenarioKinds.all());
      Scenario scenario = BranchPoint.scenario(ps, parentScenario, sets);
      int threads = options.threads != null ? options.threadsOrDefault() : ps.threads();
      StateAt.Simulated atT = StateAt.simulate(journal, parent, at, true);
      Checkpoint cut = StateAt.checkpointOf(atT);
      BranchPoint.check(parentScenario, scenario, cut, sets, ps.seed(), threads);
      Map<String, Object> branchOf = new LinkedHashMap<>();
      branchOf.put("branchOf", parentId);
      branchOf.put("branchAt", at / 1e9);
      branchOf.put("branchPrefixDigest", atT.outcome().digestHex());
      this.branchOf = branchOf;
      this.branchStart = cut;
      OffsetDateTime started = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
      Path out = options.outDir();
      Path runs = checkedDestination(options);
      Map<String, Object> provenance = provenance(scenario, options, started);
      provenance.put("branch", branchOf);
      Scenario described = new Scenario(scenario.name(), scenario.kind(), "branch of " + parentId + " at "
          + Text.number(at / 1e9) + " s: " + scenario.description(), scenario.seed(), scenario.params(),
          scenario.reference(), scenario.source(), scenario.origins(), scenario.seedOrigin(), scenario.overrides(),
          scenario.droppedReference());
      RunControl control = new RunControl(ps.seed(), threads, new AtomicLong()).resumingFrom(cut);
      if (!options.quiet && !options.terse) {
        PrintWriter human = options.json ? cl.getErr() : cl.getOut();
        Text.paragraph("branch", "of " + parentId + " at " + Text.number(at / 1e9) + " simulated s (its state there: "
            + (atT.from() == null ? "simulated from its start" : "its checkpoint at " + Text.number(
            Math.round(atT.fromSeconds() * 1e6) / 1e6) + " s simulated on") + ", digest " + atT.outcome().digestHex()
            + "), with " + String.join(", ", sets.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
            .toList())).forEach(human::println);
        human.flush();
      }
      return execute(described, control, provenance, options, false, journal, new Fresh(out, runs, started, null));
    }
  }

  /** A branch's run.branchOf, run.branchAt and run.branchPrefixDigest (null: not a branch). */
  private Map<String, Object> branchOf;

  /** A new branch's start, its parent's state at T: recorded as its first checkpoint (null: not a new branch). */
  private Checkpoint branchStart;

  /** Where a run's results go: a fresh run's id and directory are made when it starts; a resumed run has both. */
  private sealed interface Target permits Fresh, Resumed {}

  /** @param cluster "host:port" of a tlogsim cluster to run on, or null to run here */
  private record Fresh(Path out, Path runs, OffsetDateTime started, String cluster) implements Target {}

  private record Resumed(RunState state, Path dir, Checkpoint from) implements Target {}

  /** A run under way: its id, its directory (null until made), and its journal (null: none). */
  private static final class Started {
    String runId;
    Path dir;
    boolean madeDir;
    JournaledRun journaled;
  }

  private int execute(Scenario scenario, RunControl baseControl, Map<String, Object> provenance, RunOptions options,
      boolean bench, Journal journal, Target target) throws IOException {
    AtomicLong progress = baseControl.progress();
    PrintWriter stdout = cl.getOut();
    PrintWriter err = cl.getErr();
    PrintWriter human = options.quiet || options.terse ? null : options.json ? err : stdout;

    // 2. Run, with a shutdown hook that stops it cleanly on Ctrl-C or SIGTERM.
    Started run;
    ScenarioResult result;
    Path summaryFile;
    Map<String, Object> summary;
    Path latencyFile = null;
    String clusterJournal = null; // the cluster's journal that recorded a --cluster run, if any
    List<Path> seriesFiles = new ArrayList<>();
    try (RunGuard guard = new RunGuard(err, () -> where(progress.get(), scenario.endTimeNanos()))) {
      run = start(scenario, baseControl, provenance, journal, target, guard);
      // Said once the run's start is durable in its journal and its directory exists: a run announced as running is
      // resumable whenever the process dies after.
      if (human != null && target instanceof Fresh) {
        Text.paragraph("running", scenario.name() + (scenario.description().isEmpty() ? "" : ": "
            + scenario.description())).forEach(human::println);
        SettingNotes.lines(scenario).forEach(human::println);
        human.flush();
      }
      // The interval facts for the progress lines, and for the report when no journal keeps them.
      boolean onCluster = target instanceof Fresh f && f.cluster() != null;
      LiveSeries live = new LiveSeries(run.journaled == null && !onCluster); // a cluster run's facts come with it
      RunControl control = baseControl.withFacts(live);
      if (run.journaled != null) {
        control = run.journaled.control(control, options.checkpointMarks());
        guard.onStop("run " + run.runId + " stays in the journal; tlogsim run --resume " + run.runId
            + " continues it from its last checkpoint");
      }
      RunOutcome outcome;
      PreparedRun prepared = null;
      List<RunOutcome> warmups = List.of();
      try {
        // before the progress bar, which shows the measured run
        if (bench && !onCluster) warmups = jitWarmup(scenario, baseControl, human);
        try (Progress bar = Progress.start(options.quiet, Progress.stderrIsTerminal(), options.progressSeconds, err,
            scenario.name(), scenario.endTimeNanos(), progress, live::sinceLastAsked)) {
          guard.beforeStopLine(bar::stopDisplay);
          if (onCluster) {
            outcome = null;
            ClusterSubmit.Result r = onCluster(((Fresh) target).cluster(), options, run, scenario, provenance,
                progress, live);
            clusterJournal = r.journal();
            result = r;
          } else {
            prepared = scenario.prepare(control);
            RunSettings settings = control.settings(scenario.endTimeNanos());
            if (run.journaled != null) settings = run.journaled.settings(settings); // a failed write stops it at once
            SimulationHost host = journal != null ? journal.host() : SimulationHost.shared();
            outcome = host.run(prepared.topology(), prepared::models, settings);
            result = scenario.complete(prepared.result(outcome));
            for (RunOutcome w : warmups) {
              if (w.digest() != outcome.digest()) { // the same run twice in one JVM: a difference is a kernel fault
                throw new SimulationException("the JIT warm-up run's digest " + w.digestHex()
                    + " differs from the measured run's " + outcome.digestHex()
                    + ": the simulation is not deterministic");
              }
            }
          }
          bar.finished();
        }
      } catch (RuntimeException | Error e) {
        if (run.madeDir) RunGuard.removeIfEmpty(run.dir);
        if (guard.stopped()) throw new Failures.Interrupted();
        boolean oom = Failures.isOutOfMemory(e);
        if (run.journaled != null && run.journaled.journalFailure() == null) {
          run.journaled.failed(oom ? "out of memory" : Tlogsim.oneLine(String.valueOf(e.getMessage())));
        }
        if (oom) throw new Failures.OutOfMemory();
        throw e;
      }
      if (!guard.startWriting()) {
        if (run.madeDir) RunGuard.removeIfEmpty(run.dir);
        throw new Failures.Interrupted();
      }

      // 3. Results: the journal's record of the end (durable first: should a file then fail to be written, replay
      // gives it), summary.json (provenance added), the latency histograms, the report and its series.
      summary = new LinkedHashMap<>(result.summary());
      if (run.journaled != null) {
        summary.put("journal", FactsTable.journalFigures(run.journaled.spec().trace(), run.journaled.factsKept()));
      }
      if (bench && !onCluster) { // a benchmark's figures: say how its JVM was warmed (0 runs: cold)
        Map<String, Object> warmed = new LinkedHashMap<>();
        warmed.put("jitWarmupRuns", warmups.size());
        warmed.put("jitWarmupWallSeconds", warmups.stream().map(Runner::wallSeconds).toList());
        addToRun(summary, warmed);
      }
      if (branchOf != null) addToRun(summary, branchOf); // a branch names its parent and where it left it
      summary.put("provenance", provenance);
      if (run.journaled != null) {
        try {
          run.journaled.completed(outcome, SummaryWriter.withRunId(run.runId, summary));
        } catch (RuntimeException e) {
          if (run.madeDir) RunGuard.removeIfEmpty(run.dir);
          throw e;
        }
      }
      summaryFile = SummaryWriter.write(run.dir, run.runId, summary);
      if (!result.histograms().isEmpty()) {
        latencyFile = LatencyLog.write(run.dir, run.runId, scenario.endTimeNanos() / 1e9, result.histograms());
      }
      // The report and the time series, from the facts as the journal holds them (what a replay reads) or, without
      // a journal, as they came.
      if (result instanceof ClusterSubmit.Result r) {
        seriesFiles.addAll(ReportFiles.write(run.dir, run.runId, summary, result, r.facts(), r.components()));
      } else {
        List<io.tlogsim.kernel.RecordedFact> facts = run.journaled != null
            ? ReportFiles.intervalFacts(journal.store(), run.runId) : live.facts();
        List<Double> checkpoints = run.journaled != null ? ReportFiles.checkpointSeconds(journal, run.runId)
            : List.of();
        seriesFiles.addAll(ReportFiles.write(run.dir, run.runId, summary, result, facts, prepared.topology(),
            checkpoints));
      }
      if (options.json) stdout.print(SummaryWriter.toJson(run.runId, summary));
      if (options.terse) stdout.println(Terse.line(run.runId, SummaryWriter.withRunId(run.runId, summary)));
    }

    // 4. The human summary.
    if (human != null) {
      printSummary(human, scenario, result, options, bench ? summary : null, run, journal, new Outputs(summaryFile,
          latencyFile, seriesFiles, clusterJournal));
    }
    stdout.flush();
    err.flush();
    return Tlogsim.OK;
  }

  /**
   * {@code bench --jit-warmup K}: K runs of the same benchmark, identical to the measured one, in this JVM before it,
   * so that its speed is that of compiled code (as JMH's warm-up iterations; a sweep's runs after its first get it).
   * Each is checked against the measured run's digest. Not journaled, no progress shown; its facts go to a sink of
   * their own, so that the code that records them is warmed too.
   */
  private List<RunOutcome> jitWarmup(Scenario scenario, RunControl base, PrintWriter human) {
    List<RunOutcome> done = new ArrayList<>();
    for (int i = 0; i < jitWarmupRuns; i++) {
      RunControl quiet = new RunControl(base.seed(), base.threads(), new AtomicLong()).withFacts(new LiveSeries(true));
      PreparedRun p = scenario.prepare(quiet);
      done.add(SimulationHost.shared().run(p.topology(), p::models, quiet.settings(scenario.endTimeNanos())));
    }
    if (human != null && !done.isEmpty()) {
      Text.paragraph("jit", Text.plural(done.size(), "warm-up run") + " of the same benchmark before the measured one, "
          + done.stream().map(w -> Text.number(wallSeconds(w))).collect(Collectors.joining(", "))
          + " wall s (--jit-warmup 0: a cold JVM)").forEach(human::println);
      human.flush();
    }
    return done;
  }

  /** What a run wrote: summary.json, latency.hlog (or null), the report's files, the cluster's journal (or null). */
  private record Outputs(Path summary, Path latency, List<Path> series, String clusterJournal) {}

  /** A run's wall time in seconds, to the ms, as summary.json gives it. */
  private static double wallSeconds(RunOutcome o) {
    return Math.round(o.wallNanos() / 1e6) / 1e3;
  }

  /** Adds {@code fields} to summary.json's {@code run} section (a copy: the result's own map is left as it is). */
  private static void addToRun(Map<String, Object> summary, Map<String, Object> fields) {
    Map<String, Object> run = new LinkedHashMap<>();
    if (summary.get("run") instanceof Map<?, ?> r) r.forEach((k, v) -> run.put(String.valueOf(k), v));
    run.putAll(fields);
    summary.put("run", run);
  }

  /** {@code benchSummary}: a benchmark's summary.json, whose speed is printed; null for a run. */
  private static void printSummary(PrintWriter human, Scenario scenario, ScenarioResult result, RunOptions options,
      Map<String, Object> benchSummary, Started run, Journal journal, Outputs files) {
    result.humanLines().forEach(human::println);
    Percentiles.lines(options.percentiles, result.histograms()).forEach(human::println);
    if (benchSummary != null) human.println(speedLine(benchSummary));
    for (String table : options.show) {
      List<String> rows = result.tables().get(table);
      human.println();
      if (rows == null) {
        human.println(table + ": not kept by kind " + scenario.kind().name());
      } else {
        rows.forEach(human::println);
      }
    }
    if (!options.show.isEmpty()) human.println();
    if (files.latency() != null) {
      human.println("histogram    " + files.latency().getFileName() + " beside summary.json (HdrHistogram log, "
          + "values in ns)");
    }
    if (run.journaled != null) {
      Text.lines("journal", run.runId + " in the " + journal.settings().kind().option() + " journal",
          Text.plural(run.journaled.checkpoints(), "checkpoint") + " (tlogsim runs)").forEach(human::println);
    }
    if (files.clusterJournal() != null) {
      Text.lines("journal", run.runId + " in the cluster's " + files.clusterJournal()).forEach(human::println);
    }
    Text.paragraph("report", ReportFiles.names(files.series()) + " beside summary.json").forEach(human::println);
    human.println("summary      " + files.summary().toAbsolutePath().normalize());
  }

  /**
   * The run's id, its start in the journal (durable when this returns) and then its directory: a run directory exists
   * only for a run the journal holds. A fresh id is the first that neither names a directory under runs/ nor is in
   * the journal (ids carry the second they were made in, so the journal rarely holds one already: two runs with --out
   * in the same second, a deleted directory, another process that took it at the same moment); then the next is taken.
   */
  private Started start(Scenario scenario, RunControl control, Map<String, Object> provenance, Journal journal,
      Target target, RunGuard guard) throws IOException {
    Started run = new Started();
    Set<String> inJournal = new HashSet<>();
    while (true) {
      if (target instanceof Resumed r) {
        run.runId = r.state().spec().runId();
        run.dir = r.dir();
      } else {
        Fresh f = (Fresh) target;
        run.runId = SummaryWriter.runId(scenario.name(), scenario.seed(), f.started().toLocalDateTime(),
            id -> inJournal.contains(id) || Files.exists(f.runs().resolve(id)));
        run.dir = f.out() != null ? f.out() : f.runs().resolve(run.runId);
      }
      if (journal == null) break;
      try {
        run.journaled = target instanceof Resumed r ? JournaledRun.resume(journal, r.state(), r.from())
            : JournaledRun.start(journal, RunSpec.of(run.runId, scenario, control.threads(),
                journal.settings().trace(), run.dir.toAbsolutePath().normalize().toString(), commandLine(),
                provenance));
        if (branchStart != null && target instanceof Fresh) run.journaled.startsFrom(branchStart);
        break;
      } catch (RunRecorder.RunIdTaken taken) {
        inJournal.add(run.runId);
      }
    }
    Path dir = run.dir;
    guard.makeDirectory(() -> {
      boolean existed = Files.isDirectory(dir);
      try {
        // a data directory made here is its owner's alone
        if (target instanceof Fresh f && f.out() == null) io.tlogsim.journal.PrivateFiles.createDirectories(f.runs());
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new BadInputException((target instanceof Fresh f && f.out() == null ? "the run directory " : "--out ")
            + dir + ": cannot be created (" + e + ")");
      }
      return existed ? null : dir;
    });
    run.madeDir = guard.madeDir() != null;
    return run;
  }

  /** Submits the run to the cluster at {@code contact} and follows it, its interval facts fed to {@code live}. */
  private ClusterSubmit.Result onCluster(String contact, RunOptions options, Started run, Scenario scenario, Map<String, Object> provenance,
      AtomicLong progress, LiveSeries live) {
    return ClusterSubmit.run(contact, io.tlogsim.cluster.ClusterKeys.forClient(options.dataDir()),
        clusterSpec(run.runId, scenario, run.dir, provenance), progress,
        new Consumer<RunUpdate>() { // the progress lines' commit rate and latency, as for a run here
          // the last (window, part) passed on: parts sent again (a roll-back, a new coordinator) count once
          private long window = -1;
          private int part = -1;

          @Override
          public void accept(RunUpdate e) {
            if (!(e instanceof RunUpdate.Facts f)) return;
            if (f.window() < window || (f.window() == window && f.part() <= part)) return;
            window = f.window();
            part = f.part();
            live.accept(new FactBatch(f.window(), f.facts()));
          }
        });
  }

  /**
   * What a cluster's nodes need to make the same scenario (a file's text travels with it), and what its journal
   * records beside it: the command line, the output directory and the provenance summary.json gets.
   */
  private RunSubmission clusterSpec(String runId, Scenario s, Path dir, Map<String, Object> provenance) {
    String text = RunSubmission.textOf(s);
    String provenanceJson;
    try {
      provenanceJson = new com.fasterxml.jackson.databind.json.JsonMapper().writeValueAsString(provenance);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("provenance cannot be written as JSON", e);
    }
    return new RunSubmission(runId, s.name(), s.source(), text, s.overrides(), s.seed(), s.seedOrigin(),
        commandLine(), dir.toAbsolutePath().normalize().toString(), provenanceJson);
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
  /** A new run's directories: --out may be written, else {@code <data>/runs}; returns the latter. */
  private static Path checkedDestination(RunOptions options) {
    Path runs = options.dataDir().resolve("runs");
    if (options.outDir() != null) {
      checkOut(options.outDir(), options.force);
    } else {
      checkWritable(runs, "--data " + options.dataDir());
    }
    return runs;
  }

  static void checkOut(Path out, boolean force) {
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new BadInputException("--out " + out + ": exists and is not a directory");
    }
    if (Files.exists(out.resolve(SummaryWriter.FILE_NAME)) && !force) {
      throw new BadInputException("--out " + out + ": already holds " + SummaryWriter.FILE_NAME
          + "; give --force to overwrite it, or another --out");
    }
    checkWritable(out, "--out " + out);
  }

  /**
   * The directory, or the nearest existing one above it, must be a writable directory; a missing one is made and
   * removed again, since only making it shows that it can be (root may "write" to /proc, a full disk refuses).
   */
  static void checkWritable(Path dir, String what) {
    Path p = dir.toAbsolutePath().normalize();
    while (p != null && !Files.exists(p)) p = p.getParent();
    if (p == null) throw new BadInputException(what + ": no existing directory above it");
    if (!Files.isDirectory(p)) throw new BadInputException(what + ": " + p + " is not a directory");
    if (!Files.isWritable(p)) throw new BadInputException(what + ": " + p + " is not writable");
    Path missing = dir.toAbsolutePath().normalize();
    if (missing.equals(p)) return;
    try {
      Files.createDirectories(missing);
    } catch (IOException e) {
      throw new BadInputException(what + ": cannot create the directory (" + e + ")");
    } finally {
      for (Path d = missing; d != null && !d.equals(p); d = d.getParent()) RunGuard.removeIfEmpty(d);
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
  String commandLine() {
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
    lines.addAll(SettingNotes.lines(s));
    lines.add("parameters   value and where it comes from (tlogsim params " + s.kind().name() + " explains each)");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"seed", String.valueOf(s.seed()), s.seedOrigin()});
    for (ParamSpec spec : s.kind().params()) {
      String unit = spec.unit().isEmpty() ? "" : " " + spec.unit();
      rows.add(new String[] {spec.key(), Text.plain(s.params().asMap().get(spec.key())) + unit,
          s.origins().get(spec.key())});
    }
    lines.addAll(aligned(rows));
    lines.addAll(Text.lines("threads", String.valueOf(control.threads())));
    if (s.reference() != null) {
      lines.addAll(Text.paragraph("reference", "compared with " + s.reference().source()));
    } else if (s.droppedReference() != null) {
      lines.addAll(s.droppedReference().lines());
    }
    String dir = out != null ? out.toString() : runs.resolve("<runId>").toString();
    lines.addAll(Text.paragraph("output", "would write " + dir + "/" + SummaryWriter.FILE_NAME + ", "
        + LatencyLog.FILE_NAME + ", report.html and the time series as CSV"));
    return lines;
  }

  /** The widest value in the value column of --dry-run; a longer one (a script) has its origin on the next line. */
  private static final int DRY_RUN_VALUE_WIDTH = 16;

  /** "  sessions           1000          scenario, scenarios/gcm1.conf:5", every column aligned. */
  static List<String> aligned(List<String[]> rows) {
    int wk = 0, wv = 0;
    for (String[] r : rows) {
      wk = Math.max(wk, r[0].length());
      wv = Math.max(wv, Math.min(DRY_RUN_VALUE_WIDTH, r[1].length()));
    }
    List<String> out = new ArrayList<>();
    String fmt = "  %-" + wk + "s  %-" + wv + "s  %s";
    for (String[] r : rows) {
      String origin = r[2] == null ? "" : r[2];
      if (r[1].length() <= wv) {
        out.add(String.format(Locale.ROOT, fmt, r[0], r[1], origin).stripTrailing());
      } else { // a script: its origin in the row, the value wrapped below it
        out.add(String.format(Locale.ROOT, fmt, r[0], "(below)", origin).stripTrailing());
        StringBuilder line = new StringBuilder("    ");
        for (String word : r[1].split(" ")) {
          if (line.length() > 4 && line.length() + 1 + word.length() > 80) {
            out.add(line.toString());
            line = new StringBuilder("    ");
          }
          if (line.length() > 4) line.append(' ');
          line.append(word);
        }
        out.add(line.toString());
      }
    }
    return out;
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
    List<String> parts = new ArrayList<>(List.of(Text.whole(number(run.get("commitsPerWallSecond")))
            + " simulated commits/wall s", Text.whole(number(run.get("simulatedEventsPerWallSecond"))) + " events/wall s",
        String.format(Locale.ROOT, "%.4f messages/event", number(run.get("messagesPerEvent")))));
    if (run.get("jitWarmupRuns") instanceof Number k && k.intValue() > 0) {
      parts.add("after " + Text.plural(k.intValue(), "JIT warm-up run") + " in this JVM");
    }
    return String.join("\n", Text.lines("speed", parts.toArray(String[]::new)));
  }

  private static double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
