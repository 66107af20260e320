package io.tlogsim.cli;

import io.tlogsim.scenario.Text;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.JournalUnreadable;
import io.tlogsim.journal.Ledger;
import io.tlogsim.journal.RunStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code tlogsim journal verify}: whether the journal still holds every run and record that was written to it. */
@Command(name = "journal", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Look after the journal.", subcommands = {JournalCommand.Verify.class})
final class JournalCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing subcommand; subcommands: verify");
  }

  @Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
      description = "Check every run in the journal: its events against the end record it wrote (their count and "
          + "the checksum of their bytes) and, for an H2 journal, against the ledger beside it (which names every run "
          + "started). Prints each run as ok, lost, damaged or unreadable. Reads only.",
      exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {"0:every run is whole",
          "1:a run is lost, damaged or unreadable (each named)", Tlogsim.EXIT_BAD_INPUT},
      footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA, Tlogsim.ENV_JDBC,
          Tlogsim.ENV_JDBC_USER})
  static final class Verify implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions store;

    @Override
    public Integer call() {
      LoggerFactory.getILoggerFactory();
      JournalSettings js = store.settings();
      PrintWriter out = spec.commandLine().getOut();
      int bad = 0;
      int runs;
      try (Journal journal = Journal.openForReading(js)) {
        List<RunStore.Listed> listed = journal.store().list(true);
        runs = listed.size();
        for (RunStore.Listed l : listed) {
          boolean whole = l.damage() == null && l.state() != null;
          if (!whole) bad++;
          out.println(String.format(java.util.Locale.ROOT, "%-11s %s", whole ? "ok" : l.status(),
              l.runId() + ": " + (l.damage() != null ? l.damage().why() : l.state() == null ? l.unreadable()
                  : l.status() + ", " + Text.plural(l.state().sequenceNr(), "event"))));
        }
        out.println(bad == 0 ? "verified    the " + js.describe() + ": " + Text.plural(runs, "run") + ", each whole"
            : "verified    the " + js.describe() + ": " + bad + " of " + Text.plural(runs, "run")
                + " lost, damaged or unreadable");
      } catch (JournalUnreadable e) {
        for (Ledger.Entry l : e.lost()) out.println(String.format(java.util.Locale.ROOT, "%-11s %s", "lost",
            l.runId() + ": the journal cannot be opened"));
        out.flush();
        throw e;
      }
      out.flush();
      return bad == 0 ? Tlogsim.OK : Tlogsim.FAILED;
    }
  }
}
