package io.tlogsim.cli;

import io.tlogsim.analysis.SummaryComparison;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStatus;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
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

/** {@code tlogsim compare <run-id> <run-id>}: two stored runs' summaries side by side, with the differences. */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Print two stored runs' summaries side by side: every figure by its summary.json path, and B - A "
        + "where they differ (within 100 columns; --only picks sections, --json prints every value whole).",
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

  @Option(names = "--only", split = ",", paramLabel = "SECTION", description = "Only these sections or path prefixes "
      + "of summary.json, e.g. --only commits,log or --only commits.latencyUs,devices.")
  List<String> only = new ArrayList<>();

  @Option(names = "--json", description = "Print the comparison as JSON (path, a, b, difference, percent per figure).")
  boolean json;

  @Override
  public Integer call() {
    LoggerFactory.getILoggerFactory();
    JournalSettings js = store.settings();
    PrintWriter out = spec.commandLine().getOut();
    try (Journal journal = Journal.openForReading(js)) {
      Map<String, Object> sa = summary(journal, a);
      Map<String, Object> sb = summary(journal, b);
      List<SummaryComparison.Row> all = SummaryComparison.rows(sa, sb);
      List<SummaryComparison.Row> rows = SummaryComparison.only(all, only);
      for (String p : only) {
        if (p.isBlank() || SummaryComparison.only(all, List.of(p)).isEmpty()) {
          throw new BadInputException("--only: no figure of these summaries lies under '" + p + "'; sections: "
              + String.join(", ", SummaryComparison.sections(all)));
        }
      }
      if (json) {
        try {
          out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
              .writeValueAsString(SummaryComparison.json(a, b, rows)));
        } catch (JsonProcessingException e) {
          throw new UncheckedIOException(e);
        }
      } else {
        SummaryComparison.lines(a, b, rows).forEach(out::println);
      }
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
