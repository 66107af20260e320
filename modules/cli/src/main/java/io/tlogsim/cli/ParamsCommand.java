package io.tlogsim.cli;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioLoader;
import io.tlogsim.scenario.ScenarioLoader.ParamDefault;
import io.tlogsim.scenario.Text;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim params <kind>}: every parameter of a scenario kind, its type, range or allowed values, default (from
 * application.conf, with the source its comment cites), unit and meaning.
 */
@Command(name = "params", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "List every parameter of a scenario kind: type, range, default, unit, meaning and source.")
final class ParamsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "<kind>", description = "A scenario kind (gcm1).",
      completionCandidates = Kinds.class)
  String kind;

  /** The kinds, for shell completion. */
  static final class Kinds implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return ScenarioKinds.loader().kindNames().iterator();
    }
  }

  @Override
  public Integer call() {
    ScenarioLoader loader = ScenarioKinds.loader();
    if (kind == null) {
      throw new BadInputException("params: give a kind; kinds: " + String.join(", ", loader.kindNames()));
    }
    ScenarioKind k = loader.kind(kind);
    List<ParamDefault> params = loader.defaults(k);
    PrintWriter out = spec.commandLine().getOut();
    out.println("kind " + k.name() + ": " + Text.plural(params.size(), "parameter")
        + "; set one with --set key=value or in a scenario file");
    for (ParamDefault p : params) {
      ParamSpec s = p.spec();
      out.println();
      String unit = s.unit().isEmpty() ? "" : " " + s.unit();
      String value = p.value() == null ? "(no default)" : Text.plain(p.value()) + unit;
      out.println(s.key() + " = " + value);
      Text.lines("  type", s.type().word + ", " + s.rangeText() + unit).forEach(out::println);
      Text.paragraph("  meaning", s.description()).forEach(out::println);
      if (p.value() != null) {
        String source = p.comment().isEmpty() ? p.origin() : p.comment() + " (" + p.origin() + ")";
        Text.paragraph("  default", source).forEach(out::println);
      }
    }
    out.flush();
    return Tlogsim.OK;
  }
}
