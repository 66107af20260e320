package io.tlogsim.cli;

import io.tlogsim.kinds.ScenarioKinds;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tlogsim scenarios}: one line per built-in scenario, its name and description. */
@Command(name = "scenarios", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "List the built-in scenarios with one-line descriptions.")
final class ScenariosCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> builtins = ScenarioKinds.loader().builtins();
    int width = builtins.keySet().stream().mapToInt(String::length).max().orElse(0);
    PrintWriter out = spec.commandLine().getOut();
    builtins.forEach((name, description) -> out.println(String.format("%-" + Math.max(width, 1) + "s  %s", name, description).stripTrailing()));
    out.flush();
    return Tlogsim.OK;
  }
}
