package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.journal.RunStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tlogsim runs prune --keep N | --older-than D}: old runs out of the journal, running ones kept. */
@Command(name = "prune", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Delete all but the newest N runs (--keep N), or the runs started more than D ago (--older-than D:"
        + " 30m, 12h, 7d, 2w); a running run is never deleted. Then compact an H2 journal, as delete does.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_BAD_INPUT},
    footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA, Tlogsim.ENV_JDBC,
        Tlogsim.ENV_JDBC_USER})
final class RunsPruneCommand implements Callable<Integer> {
  private static final Pattern AGE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(s|m|min|h|d|w)");

  @Spec
  CommandSpec spec;

  @Option(names = "--keep", paramLabel = "N", description = "Keep the newest N runs (by start), delete the others.")
  Integer keep;

  @Option(names = "--older-than", paramLabel = "D", description = "Delete runs started more than D ago: 30m, 12h, "
      + "7d, 2w.")
  String olderThan;

  @Option(names = "--dry-run", description = "Print the runs that would be deleted; delete nothing.")
  boolean dryRun;

  @Option(names = "--no-compact", description = "Leave the H2 file as it is (its free space is reused by later runs).")
  boolean noCompact;

  @Mixin
  StoreOptions store;

  @Override
  public Integer call() {
    LoggerFactory.getILoggerFactory();
    if ((keep == null) == (olderThan == null)) {
      throw new BadInputException("runs prune: give one of --keep N or --older-than D (30m, 12h, 7d, 2w)");
    }
    if (keep != null && keep < 0) throw new BadInputException("--keep: must be an integer >= 0, got " + keep);
    Duration age = olderThan == null ? null : age(olderThan);
    Instant now = Instant.now();
    return RunsDeletion.delete(store.settings(), runs -> {
      List<String> out = new ArrayList<>();
      List<RunStore.Listed> stopped = runs.stream()
          .filter(l -> l.state() == null || l.state().effectiveStatus() != RunStatus.RUNNING).toList();
      if (keep != null) {
        // runs are listed oldest first; unreadable ones (no start known) count as the oldest
        List<RunStore.Listed> byAge = new ArrayList<>(stopped.stream().filter(l -> l.state() == null).toList());
        byAge.addAll(stopped.stream().filter(l -> l.state() != null).toList());
        for (int i = 0; i < byAge.size() - keep; i++) out.add(byAge.get(i).runId());
      } else {
        for (RunStore.Listed l : stopped) {
          if (l.state() != null && Instant.ofEpochMilli(l.state().first().startedAtMillis()).isBefore(now.minus(age))) {
            out.add(l.runId());
          }
        }
      }
      return out;
    }, dryRun, !noCompact, spec.commandLine().getOut());
  }

  static Duration age(String text) {
    Matcher m = AGE.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new BadInputException("--older-than: '" + text + "' is not an age; allowed: a number with s, m, h, d or w"
          + " (30m, 12h, 7d, 2w)");
    }
    double n = Double.parseDouble(m.group(1));
    long unit = switch (m.group(2)) {
      case "s" -> 1;
      case "m", "min" -> 60;
      case "h" -> 3600;
      case "d" -> 86_400;
      default -> 7 * 86_400;
    };
    return Duration.ofMillis(Math.round(n * unit * 1000));
  }
}
