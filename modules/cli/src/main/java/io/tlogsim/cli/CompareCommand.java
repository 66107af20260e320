package io.tlogsim.cli;

import io.tlogsim.analysis.SummaryComparison;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
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

/**
 * {@code tlogsim compare <run-id> <run-id>}: two stored runs' summaries side by side, with the differences. A branch
 * and its parent (or two branches of one parent at one T) are compared from T on, over [T, end), from their interval
 * facts as {@code replay --from} reads them (up to T both are the parent's run); {@code --from A [--to B]} picks another
 * window (not before T), {@code --whole} the two whole runs' summaries.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Print two stored runs' summaries side by side: every figure by its summary.json path, and B - A "
        + "where they differ (within 100 columns; --only picks sections, --json prints every value whole). A branch "
        + "and its parent are compared from where it left it, [T, end): --from A --to B for another window (not "
        + "before T), --whole for the two whole runs.",
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

  /** --from A --to B: the window compared (for a branch and its parent, [T, end) when not given). */
  @Mixin
  SimWindow window;

  @Option(names = "--whole", description = "Compare the two whole runs' summaries (a branch's include its parent's "
      + "figures up to T), not the window from T on.")
  boolean whole;

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
      SimWindow.Nanos w = window(journal);
      if (w != null) {
        sa = WindowReplay.of(ReplayCommand.completed(journal, a, "compare"), w).summary();
        sb = WindowReplay.of(ReplayCommand.completed(journal, b, "compare"), w).summary();
      }
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
          Map<String, Object> j = new java.util.LinkedHashMap<>(SummaryComparison.json(a, b, rows));
          if (w != null) {
            Map<String, Object> window = new java.util.LinkedHashMap<>(); // its keys in this order on every JVM
            window.put("fromSeconds", w.fromSeconds());
            window.put("toSeconds", w.toSeconds());
            j.put("window", window);
          }
          out.println(JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build()
              .writeValueAsString(j));
        } catch (JsonProcessingException e) {
          throw new UncheckedIOException(e);
        }
      } else {
        if (w != null) {
          Text.paragraph("window", "[" + Text.plain(w.fromSeconds()) + ", " + Text.plain(
              w.toSeconds()) + ") simulated s of both (" + (window.given() ? "--from" : "from where the branch left"
              + " its parent") + "; --whole for the two whole runs)").forEach(out::println);
        }
        SummaryComparison.lines(a, b, rows).forEach(out::println);
      }
    }
    out.flush();
    return Tlogsim.OK;
  }

  /**
   * The window compared, or null for the whole summaries: for a branch and its parent (either order) or two branches
   * of one parent at one T, [T, end) or --from/--to (not before T); for other runs --from/--to when given. Bad input
   * when one is a branch and the other neither its parent nor a branch of it at the same T, and --whole is not given.
   */
  private SimWindow.Nanos window(Journal journal) {
    if (whole && window.given()) {
      throw new BadInputException("--whole and --from/--to: give one (the whole runs, or a window of both)");
    }
    if (whole) return null;
    RunState ra = journal.store().state(a), rb = journal.store().state(b);
    Branch ba = Branch.of(ra), bb = Branch.of(rb);
    Long at = null;
    if (bb != null && bb.parent().equals(a)) {
      at = bb.atNanos();
    } else if (ba != null && ba.parent().equals(b)) {
      at = ba.atNanos();
    } else if (ba != null && bb != null && ba.parent().equals(bb.parent()) && ba.atNanos() == bb.atNanos()) {
      at = ba.atNanos();
    } else if (bb != null || ba != null) {
      Branch one = bb != null ? bb : ba;
      String branch = bb != null ? b : a, other = bb != null ? a : b;
      throw new BadInputException("run " + branch + " is a branch of " + one.parent() + " at " + Text.plain(
          one.atNanos() / 1e9) + " s, not of " + other + ": compare " + one.parent() + " " + branch
          + ", or give --whole for the two whole runs");
    }
    long end = Math.min(ra.simulatedNanosReached(), rb.simulatedNanosReached());
    if (at == null) return window.given() ? window.check(end, ra.simulatedNanosReached() <= rb.simulatedNanosReached()
        ? a : b) : null;
    if (!window.given()) return new SimWindow.Nanos(at, end);
    SimWindow.Nanos w = window.check(end, ra.simulatedNanosReached() <= rb.simulatedNanosReached() ? a : b);
    if (w.fromNanos() < at) {
      throw new BadInputException("--from " + Text.plain(w.fromSeconds()) + ": before " + Text.plain(at / 1e9)
          + " s, where the branch left its parent (up to there both are the parent's run): give --from "
          + Text.plain(at / 1e9) + " or later, or --whole");
    }
    return w;
  }

  /** Where a run left its parent (provenance.branch), or null for a run that is not a branch. */
  private record Branch(String parent, long atNanos) {
    static Branch of(RunState s) {
      if (!(s.spec().provenance().get("branch") instanceof Map<?, ?> m)) return null;
      return new Branch(String.valueOf(m.get("branchOf")), Math.round(((Number) m.get("branchAt")).doubleValue() * 1e9));
    }
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
