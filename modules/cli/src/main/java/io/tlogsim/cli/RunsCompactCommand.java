package io.tlogsim.cli;

import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunDeletion;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tlogsim runs compact}: an H2 journal's free space back to the file system, offline. */
@Command(name = "compact", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Compact the H2 journal (H2's SHUTDOWN COMPACT: every live page copied into a new file), which "
        + "gives back the space of deleted runs; refused while another process has the journal open.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_BAD_INPUT},
    footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA})
final class RunsCompactCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StoreOptions store;

  @Override
  public Integer call() {
    LoggerFactory.getILoggerFactory();
    JournalSettings js = store.settings();
    RunDeletion.Compacted c = RunDeletion.compact(js);
    PrintWriter out = spec.commandLine().getOut();
    out.println("journal " + RunsDeletion.mb(c.before()) + " -> " + RunsDeletion.mb(c.after()) + " (" + js.h2File()
        + ")");
    out.flush();
    return Tlogsim.OK;
  }
}
