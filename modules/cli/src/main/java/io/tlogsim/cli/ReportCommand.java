package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.RunStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code tlogsim report <run-id>}: writes a stored run's report.html and CSV series again from the journal (as replay
 * does, without touching summary.json), into the run's directory or {@code --out}. The journal is only read.
 */
@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Write a stored run's report.html and its time series (CSV) again, from the journal.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JDBC,
        Tlogsim.ENV_JDBC_USER})
final class ReportCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<run-id>", description = "A run of the journal (see 'tlogsim runs').")
  String runId;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where report.html and the CSV files go (default: <data>/runs/<run-id>); they are replaced.")
  String out;

  @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
  boolean quiet;

  @Mixin
  StoreOptions store;

  @Override
  public Integer call() throws IOException {
    LoggerFactory.getILoggerFactory();
    if (out != null && out.isBlank()) throw new BadInputException("--out: must not be empty; give a directory");
    PrintWriter stdout = spec.commandLine().getOut();
    try (Journal journal = Journal.openForReading(store.settings())) {
      RunStore.StoredRun run = ReplayCommand.completed(journal, runId, "report");
      Path dir = out != null ? Path.of(out) : store.dataDir().resolve("runs").resolve(runId);
      if (Files.exists(dir) && !Files.isDirectory(dir)) {
        throw new BadInputException("--out " + dir + ": exists and is not a directory");
      }
      Runner.checkWritable(dir, "--out " + dir);
      ReplayCommand.Rebuilt rebuilt = ReplayCommand.rebuild(run);
      Files.createDirectories(dir);
      List<Path> files = ReportFiles.write(dir, runId, rebuilt.summary(), rebuilt.result(),
          ReportFiles.intervalFacts(run.facts()), rebuilt.topology(), ReportFiles.checkpointSeconds(journal, runId));
      if (!quiet) {
        Text.paragraph("report", ReportFiles.names(files) + " in " + dir.toAbsolutePath().normalize())
            .forEach(stdout::println);
      }
    }
    stdout.flush();
    return Tlogsim.OK;
  }
}
