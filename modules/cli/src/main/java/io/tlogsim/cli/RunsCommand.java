package io.tlogsim.cli;

import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunStore;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tlogsim runs}: the runs a journal holds, oldest first. Reads only. */
@Command(name = "runs", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "List the runs stored in the journal: id, scenario, kind, seed, status (running, completed, "
        + "interrupted, failed), start, simulated seconds, digest, --set overrides, description. A run whose process "
        + "died (kill -9) shows as interrupted. Subcommands delete, prune and compact give a journal's space back.",
    subcommands = {RunsDeleteCommand.class, RunsPruneCommand.class, RunsCompactCommand.class},
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_BAD_INPUT},
    footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA, Tlogsim.ENV_JDBC,
        Tlogsim.ENV_JDBC_USER})
final class RunsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StoreOptions store;

  @Option(names = "--json", description = "Print the runs as a JSON array (every field whole) and nothing else.")
  boolean json;

  @Override
  public Integer call() {
    LoggerFactory.getILoggerFactory();
    JournalSettings js = store.settings();
    PrintWriter out = spec.commandLine().getOut();
    List<RunStore.Listed> runs;
    try (Journal journal = Journal.openForReading(js)) {
      runs = journal.store().list();
      if (json) {
        out.println(RunsListing.json(runs));
      } else if (runs.isEmpty()) {
        out.println("no runs in the " + js.describe() + (journal.exists() ? "" : " (it does not exist yet)"));
      } else {
        RunsListing.table(runs).forEach(out::println);
      }
    }
    out.flush();
    long damaged = runs.stream().filter(l -> l.damage() != null).count();
    if (damaged > 0) { // listed as lost or damaged; said once more where a script looks
      PrintWriter err = spec.commandLine().getErr();
      err.println("tlogsim: " + damaged + " run(s) lost or damaged in the " + js.describe()
          + "; tlogsim journal verify names why");
      err.flush();
    }
    return Tlogsim.OK;
  }
}
