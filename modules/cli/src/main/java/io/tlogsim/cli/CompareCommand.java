package io.tlogsim.cli;

import io.tlogsim.analysis.SummaryComparison;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStatus;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tlogsim compare <run-id> <run-id>}: two stored runs' summaries side by side, with the differences. */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Print two stored runs' summaries side by side: every figure by its summary.json path, and B - A "
        + "where they differ.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_BAD_INPUT},
    footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA, Tlogsim.ENV_JDBC,
        Tlogsim.ENV_JDBC_USER})
final class CompareCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<run-id>", description = "Run A (see 'tlogsim runs').")
  String a;

  @Parameters(index = "1", paramLabel = "<run-id>", description = "Run B.")
  String b;

  @Mixin
  StoreOptions store;

  @Override
  public Integer call() {
    LoggerFactory.getILoggerFactory();
    JournalSettings js = store.settings();
    PrintWriter out = spec.commandLine().getOut();
    try (Journal journal = Journal.openForReading(js)) {
      Map<String, Object> sa = summary(journal, a);
      Map<String, Object> sb = summary(journal, b);
      SummaryComparison.lines(a, sa, b, sb).forEach(out::println);
    }
    out.flush();
    return Tlogsim.OK;
  }

  private static Map<String, Object> summary(Journal journal, String runId) {
    RunState s = journal.store().state(runId);
    if (s.effectiveStatus() != RunStatus.COMPLETED || s.summary() == null) {
      throw new BadInputException("run " + runId + " is " + s.effectiveStatus().label() + ": it has no summary to "
          + "compare");
    }
    return s.summary();
  }
}
