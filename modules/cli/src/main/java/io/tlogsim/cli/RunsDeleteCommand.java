package io.tlogsim.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tlogsim runs delete <run-id>...}: the runs' rows out of the journal, then the space back (H2). */
@Command(name = "delete", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Delete runs from the journal (all or none: an unknown or running one is refused), then compact an "
        + "H2 journal when no other process has it open, which gives the space back. The runs' directories "
        + "(summary.json, report) are kept.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_BAD_INPUT},
    footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA, Tlogsim.ENV_JDBC,
        Tlogsim.ENV_JDBC_USER})
final class RunsDeleteCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "<run-id>", description = "Runs to delete (see 'tlogsim runs').")
  List<String> runIds;

  @Option(names = "--no-compact", description = "Leave the H2 file as it is (its free space is reused by later runs).")
  boolean noCompact;

  @Mixin
  StoreOptions store;

  @Override
  public Integer call() {
    LoggerFactory.getILoggerFactory();
    for (String id : runIds) {
      if (id.isBlank()) throw new io.tlogsim.scenario.BadInputException("a run id must not be empty");
    }
    return RunsDeletion.delete(store.settings(), runs -> runIds.stream().distinct().toList(), false, !noCompact,
        spec.commandLine().getOut());
  }
}
