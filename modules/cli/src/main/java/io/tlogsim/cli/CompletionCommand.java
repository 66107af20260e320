package io.tlogsim.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tlogsim completion}: the bash (and zsh) completion script, generated from the command line's own model. */
@Command(name = "completion", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = {"Print the bash/zsh completion script for tlogsim.",
        "Use: source <(./tlogsim completion), or save it to /etc/bash_completion.d/tlogsim."})
final class CompletionCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine root = spec.commandLine();
    while (root.getParent() != null) root = root.getParent();
    spec.commandLine().getOut().print(AutoComplete.bash(root.getCommandName(), root));
    spec.commandLine().getOut().flush();
    return Tlogsim.OK;
  }
}
