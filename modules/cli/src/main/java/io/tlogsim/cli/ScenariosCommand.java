package io.tlogsim.cli;

import io.tlogsim.kinds.ScenarioKinds;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tlogsim scenarios}: one line per built-in scenario, its name, kind and description. */
@Command(name = "scenarios", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "List the built-in scenarios with their kinds (tlogsim params KIND lists a kind's parameters) and "
        + "one-line descriptions.")
final class ScenariosCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    Map<String, String> builtins = ScenarioKinds.loader().builtins();
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"SCENARIO", "KIND", "DESCRIPTION"});
    builtins.forEach((name, description) -> rows.add(new String[] {name,
        ScenarioKinds.loader().load(name, Map.of()).kind().name(), description}));
    PrintWriter out = spec.commandLine().getOut();
    RunsListing.Columns.align(rows).forEach(out::println);
    out.flush();
    return Tlogsim.OK;
  }
}
