package io.tlogsim.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.analysis.LatencyLog;
import io.tlogsim.analysis.SummaryComparison;
import io.tlogsim.analysis.SummaryWriter;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunSpec;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.journal.RunStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim replay <run-id>}: rebuilds a finished run's summary.json, latency.hlog, report.html and CSV series
 * from the journal alone, without simulating: the run's scenario, the kernel's outcome and the interval facts are read
 * back (Persistence Query) and the files are built by the same code that built them live. The journal is only read.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = {"Rebuild a stored run's summary.json, latency.hlog, report.html and CSV series from the journal, "
        + "without simulating again.", "With --at T: print the database's state at simulated time T (DBCC LOGINFO, "
        + "SQLPERF(LOGSPACE), log_reuse_wait, open transactions, waits, devices, sessions), from the run's last "
        + "checkpoint at or before T simulated on to T; nothing is written."},
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JDBC,
        Tlogsim.ENV_JDBC_USER})
final class ReplayCommand implements Callable<Integer> {
  private static final JsonMapper JSON = new JsonMapper();

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<run-id>", description = "A run of the journal (see 'tlogsim runs').")
  String runId;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where the files go (default: <data>/runs/<run-id>).")
  String out;

  @Option(names = "--force", description = "Overwrite a summary.json already there.")
  boolean force;

  @Option(names = "--json", description = "Print summary.json on stdout (the human summary goes to stderr unless "
      + "--quiet).")
  boolean json;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors (and, with --json, the JSON).")
  boolean quiet;

  @Mixin
  StoreOptions store;

  /** --from A --to B: the window's summary, report and series only (see {@link WindowReplay}). */
  @Mixin
  SimWindow window;

  @Mixin
  ReplayAt.Options atOptions; // --at T, --show: the state at an instant (ReplayAt)

  @Override
  public Integer call() throws IOException {
    LoggerFactory.getILoggerFactory();
    if (out != null && out.isBlank()) throw new BadInputException("--out: must not be empty; give a directory");
    JournalSettings js = store.settings();
    if (atOptions.at != null && window.given()) {
      throw new BadInputException("--at T and --from A --to B: give one (the state at an instant, or a window's figures)");
    }
    if (atOptions.at != null) return ReplayAt.call(atOptions, runId, json, quiet, out, js, spec.commandLine().getOut());
    if (!atOptions.show.isEmpty()) throw new BadInputException("--show: only with --at T (the state at an instant)");
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter human = quiet ? null : json ? err : stdout;
    try (Journal journal = Journal.openForReading(js)) {
      RunStore.StoredRun run = completed(journal, runId, "replay");
      if (window.given()) {
        SimWindow.Nanos w = window.check(journal.store().state(runId).simulatedNanosReached(), runId);
        Path dir = out != null ? Path.of(out) : store.dataDir().resolve("runs").resolve(WindowReplay.dirName(runId, w));
        WindowReplay.write(run, w, dir, force, json ? stdout : null, human);
        stdout.flush();
        err.flush();
        return Tlogsim.OK;
      }
      Path dir = out != null ? Path.of(out) : store.dataDir().resolve("runs").resolve(runId);
      Runner.checkOut(dir, force);

      Rebuilt rebuilt = rebuild(run);
      ScenarioResult result = rebuilt.result();
      Map<String, Object> summary = rebuilt.summary();

      Files.createDirectories(dir);
      Path summaryFile = SummaryWriter.write(dir, runId, summary);
      Path latencyFile = result.histograms().isEmpty() ? null
          : LatencyLog.write(dir, runId, rebuilt.scenario().endTimeNanos() / 1e9, result.histograms());
      List<Path> reportFiles = ReportFiles.write(dir, runId, summary, result,
          ReportFiles.intervalFacts(run.facts()), rebuilt.topology(), ReportFiles.checkpointSeconds(journal, runId));
      if (json) stdout.print(SummaryWriter.toJson(runId, summary));
      String drift = run.summary() == null ? null : drift(asRead(runId, run.summary()), asRead(runId, summary));
      if (drift != null) {
        err.println("tlogsim: note: the rebuilt summary differs from the one the run wrote at " + drift
            + " (written by another version of tlogsim?)");
      }
      if (human != null) {
        result.humanLines().forEach(human::println);
        Text.paragraph("replayed", "from the " + js.kind().option() + " journal, without simulating")
            .forEach(human::println);
        if (latencyFile != null) human.println("histogram    " + latencyFile.getFileName() + " beside summary.json");
        Text.paragraph("report", ReportFiles.names(reportFiles) + " beside summary.json").forEach(human::println);
        human.println("summary      " + summaryFile.toAbsolutePath().normalize());
      }
    }
    stdout.flush();
    err.flush();
    return Tlogsim.OK;
  }

  /** A stored run rebuilt without simulating: its scenario, topology, result and summary (provenance included). */
  record Rebuilt(Scenario scenario, io.tlogsim.kernel.Topology topology, ScenarioResult result,
      Map<String, Object> summary) {}

  /**
   * The same code as the live run: the scenario as it was resolved, its result from the kernel's outcome, the
   * provenance the run wrote.
   */
  static Rebuilt rebuild(RunStore.StoredRun run) {
    RunSpec rs = run.spec();
    Scenario scenario = rs.scenario(ScenarioKinds.all());
    RunControl control = new RunControl(rs.seed(), rs.threads(), null);
    io.tlogsim.scenario.PreparedRun prepared = scenario.prepare(control);
    ScenarioResult result = scenario.complete(prepared.result(run.outcome().toRunOutcome()));
    Map<String, Object> summary = new LinkedHashMap<>(result.summary());
    if (run.summary() != null && run.summary().containsKey("journal")) { // as the live run wrote it (since it does)
      summary.put("journal", FactsTable.journalFigures(rs.trace(), run.factsKept()));
    }
    if (rs.provenance().get("branch") instanceof Map<?, ?> branch) { // as the live branch wrote it (Runner)
      Map<String, Object> runSection = new LinkedHashMap<>();
      if (summary.get("run") instanceof Map<?, ?> r) r.forEach((k, v) -> runSection.put(String.valueOf(k), v));
      branch.forEach((k, v) -> runSection.put(String.valueOf(k), v));
      summary.put("run", runSection);
    }
    summary.put("provenance", provenance(run));
    return new Rebuilt(scenario, prepared.topology(), result, summary);
  }

  /** The provenance the run wrote (a resumed run's says so); the one it started with when none was stored. */
  static Object provenance(RunStore.StoredRun run) {
    Object written = run.summary() == null ? null : run.summary().get("provenance");
    return written != null ? written : run.spec().provenance();
  }

  /** The run {@code runId} of the journal, refused (exit 2) unless it completed: only then has it results to use. */
  static RunStore.StoredRun completed(Journal journal, String runId, String toDo) {
    // the interval facts only: a full trace's other facts (millions) are counted as they stream by, not kept
    RunStore.StoredRun run = journal.store().load(runId, f -> f.fact() instanceof io.tlogsim.kernel.IntervalFact);
    if (run.status() != RunStatus.COMPLETED) {
      throw new BadInputException("run " + runId + " is " + run.status().label() + ": it has no results to " + toDo
          + (run.status() == RunStatus.INTERRUPTED ? " (tlogsim run --resume " + runId + " finishes it)" : ""));
    }
    return run;
  }

  /**
   * A summary as summary.json reads back: both sides of {@link #drift} compare as JSON (a number the run kept as an int
   * and the journal gave back as a long is the same number).
   */
  private static Map<String, Object> asRead(String runId, Map<String, Object> summary) throws IOException {
    return JSON.readValue(SummaryWriter.toJson(runId, summary), new TypeReference<LinkedHashMap<String, Object>>() {});
  }

  /** The first paths where the rebuilt summary differs from the stored one, or null when they agree. */
  private static String drift(Map<String, Object> stored, Map<String, Object> rebuilt) {
    List<String> paths = SummaryComparison.rows(stored, rebuilt).stream().filter(SummaryComparison.Row::differs)
        .map(SummaryComparison.Row::path).toList();
    if (paths.isEmpty()) return null;
    return String.join(", ", paths.subList(0, Math.min(3, paths.size()))) + (paths.size() > 3 ? ", ..." : "");
  }
}
