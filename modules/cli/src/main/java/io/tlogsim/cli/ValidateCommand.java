package io.tlogsim.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Reference;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioLoader;
import java.io.PrintWriter;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim validate}: runs every built-in scenario with published figures (no journal) and prints, per figure,
 * the published and the simulated value, the error, the tolerance and the figure's basis (calibrated: a constant was
 * fitted to it; predicted: nothing was), then the counts. Exit 0 when every figure is within its tolerance.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Run every built-in scenario that has published figures (no journal, in parallel up to the cores)"
        + " and print one row per figure: scenario, summary path, published, simulated, error, tolerance, basis"
        + " (calibrated: a constant was fitted to this figure, so its agreement is no validation; predicted: nothing"
        + " was) and the constants fitted to it; then the counts. Progress goes to stderr.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {"0:every figure within its tolerance",
        "1:a figure outside its tolerance, or a scenario failed", Tlogsim.EXIT_BAD_INPUT},
    footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_DEBUG})
final class ValidateCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--only", arity = "1..*", paramLabel = "SCENARIO",
      description = "Only these built-in scenarios (each must have published figures).")
  List<String> only;

  @Option(names = "--json", description = "Print the rows on stdout as a JSON array (fields scenario, path, published,"
      + " simulated, error, tolerance, toleranceKind, basis, fitted, within) and nothing else there.")
  boolean json;

  @Option(names = "--markdown", description = "Print the table as Markdown with the date: docs/validation.md is"
      + " this output (./tlogsim validate --markdown > docs/validation.md).")
  boolean markdown;

  @Option(names = "--quiet", description = "No progress; print only the figures outside their tolerance and the counts.")
  boolean quiet;

  @Option(names = "--parallel", paramLabel = "N", description = "Scenarios at once (default: the cores).")
  Integer parallel;

  /** One scenario's rows, or why it has none (its run failed). */
  record Outcome(String scenario, List<Reference.Row> rows, String failure, double wallSeconds) {}

  @Override
  public Integer call() throws Exception {
    if (json && markdown) throw new BadInputException("--json and --markdown: give one of them");
    int cores = Runtime.getRuntime().availableProcessors();
    if (parallel != null && (parallel < 1 || parallel > 256)) {
      throw new BadInputException("--parallel: must be an integer from 1 to 256, got " + parallel);
    }
    ScenarioLoader loader = ScenarioKinds.loader();
    List<Scenario> scenarios = scenarios(loader, only);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    long start = System.nanoTime();
    List<Outcome> outcomes = runAll(scenarios, parallel != null ? parallel : cores, quiet ? null : err);
    double wall = (System.nanoTime() - start) / 1e9;
    List<Reference.Row> rows = new ArrayList<>();
    for (Outcome o : outcomes) rows.addAll(o.rows());
    long failed = outcomes.stream().filter(o -> o.failure() != null).count();
    for (Outcome o : outcomes) {
      if (o.failure() != null) err.println("validate     " + o.scenario() + " failed: " + o.failure());
    }
    if (json) {
      out.println(json(rows));
    } else if (markdown) {
      markdown(rows, out);
    } else {
      List<Reference.Row> shown = quiet ? rows.stream().filter(r -> !r.within()).toList() : rows;
      if (!shown.isEmpty()) RunsListing.Columns.align(table(shown, false)).forEach(out::println);
      out.println(counts(rows, outcomes.size()));
      if (!quiet) out.printf(Locale.ROOT, "wall         %.0f s, %d at once%n", wall, Math.min(scenarios.size(),
          parallel != null ? parallel : cores));
    }
    out.flush();
    err.flush();
    return exitCode(outcomes);
  }

  /** 0 when every scenario ran and every figure is within its tolerance, else 1. */
  static int exitCode(List<Outcome> outcomes) {
    boolean allWithin = outcomes.stream().allMatch(o -> o.failure() == null && o.rows().stream()
        .allMatch(Reference.Row::within));
    return allWithin ? Tlogsim.OK : Tlogsim.FAILED;
  }

  /** The built-in scenarios with published figures (or those --only names, each of which must have them). */
  static List<Scenario> scenarios(ScenarioLoader loader, List<String> only) {
    List<Scenario> out = new ArrayList<>();
    if (only == null || only.isEmpty()) {
      for (String name : loader.builtins().keySet()) {
        Scenario s = loader.load(name, Map.of());
        if (s.reference() != null) out.add(s);
      }
      return out;
    }
    List<String> withFigures = new ArrayList<>();
    for (String name : loader.builtins().keySet()) {
      if (loader.load(name, Map.of()).reference() != null) withFigures.add(name);
    }
    for (String name : only) {
      if (!withFigures.contains(name)) {
        throw new BadInputException("--only " + name + ": not a built-in scenario with published figures; allowed: "
            + String.join(", ", withFigures));
      }
      if (out.stream().noneMatch(s -> s.name().equals(name))) out.add(loader.load(name, Map.of()));
    }
    return out;
  }

  /** Runs each scenario (one thread each, no journal), {@code at} at once, in name order of the results. */
  static List<Outcome> runAll(List<Scenario> scenarios, int at, PrintWriter progress) throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(at, scenarios.size())), r -> {
      Thread t = new Thread(r, "validate");
      t.setDaemon(true);
      return t;
    });
    AtomicInteger done = new AtomicInteger();
    long start = System.nanoTime();
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (Scenario s : scenarios) {
        futures.add(pool.submit(() -> {
          long t0 = System.nanoTime();
          Outcome o;
          try {
            Map<String, Object> summary = s.run(new RunControl(s.seed(), 1, null)).summary();
            o = new Outcome(s.name(), s.reference().rows(s.name(), summary), null, (System.nanoTime() - t0) / 1e9);
          } catch (RuntimeException | OutOfMemoryError e) {
            o = new Outcome(s.name(), s.reference().rows(s.name(), Map.of()), String.valueOf(e.getMessage()),
                (System.nanoTime() - t0) / 1e9);
          }
          if (progress != null) {
            synchronized (progress) {
              progress.printf(Locale.ROOT, "progress     %d/%d scenarios: %s in %.1f s (%.0f s elapsed)%n",
                  done.incrementAndGet(), scenarios.size(), s.name(), o.wallSeconds(),
                  (System.nanoTime() - start) / 1e9);
              progress.flush();
            }
          }
          return o;
        }));
      }
      List<Outcome> out = new ArrayList<>();
      for (Future<Outcome> f : futures) {
        try {
          out.add(f.get());
        } catch (ExecutionException e) {
          throw new IllegalStateException(e.getCause());
        }
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  static List<String[]> table(List<Reference.Row> rows, boolean markdown) {
    List<String[]> t = new ArrayList<>();
    t.add(new String[] {"SCENARIO", "PATH", "PUBLISHED", "SIMULATED", "ERROR", "TOLERANCE", "BASIS", "FITTED"});
    for (Reference.Row r : rows) {
      String fitted = String.join(", ", r.fitted());
      t.add(new String[] {r.scenario(), markdown ? "`" + r.path() + "`" : r.path(), num(r.published()),
          r.simulated() == null ? "missing" : num(r.simulated()), error(r) + (r.within() ? "" : " (outside)"),
          tolerance(r.tolerance(), r.absolute()), r.basis(), fitted.isEmpty() ? "-" : fitted});
    }
    return t;
  }

  static String counts(List<Reference.Row> rows, int scenarios) {
    long predicted = rows.stream().filter(r -> Reference.PREDICTED.equals(r.basis())).count();
    long calibrated = rows.size() - predicted;
    long within = rows.stream().filter(Reference.Row::within).count();
    long predictedWithin = rows.stream().filter(r -> Reference.PREDICTED.equals(r.basis()) && r.within()).count();
    return String.format(Locale.ROOT, "figures      %d over %d scenarios: %d predicted (%d within tolerance), %d"
        + " calibrated (%d within); within tolerance %d of %d", rows.size(), scenarios, predicted, predictedWithin,
        calibrated, within - predictedWithin, within, rows.size());
  }

  static String json(List<Reference.Row> rows) throws Exception {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Reference.Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("scenario", r.scenario());
      m.put("path", r.path());
      m.put("published", r.published());
      m.put("simulated", r.simulated());
      m.put("error", r.error() == null || r.error().isNaN() ? null : r.error());
      m.put("tolerance", r.tolerance());
      m.put("toleranceKind", r.absolute() ? "absolute" : "relative");
      m.put("basis", r.basis());
      m.put("fitted", r.fitted());
      m.put("within", r.within());
      out.add(m);
    }
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(out);
  }

  private void markdown(List<Reference.Row> rows, PrintWriter out) {
    long scenarios = rows.stream().map(Reference.Row::scenario).distinct().count();
    out.println("# Validation: published figures beside the simulated ones");
    out.println();
    wrap(out, "Generated by `./tlogsim validate --markdown > docs/validation.md` on "
        + LocalDate.now(ZoneOffset.UTC) + " (" + new Tlogsim.Version().getVersion()[0] + "); do not edit by hand:"
        + " docs/developing.md says when to regenerate it.");
    out.println();
    wrap(out, "Every built-in scenario with a `reference` was run with its seed. **basis** says what a figure's"
        + " agreement means: `predicted`, nothing was fitted to it (the model's prediction, a validation);"
        + " `calibrated`, a constant (**fitted**) was chosen so that this figure comes out, so its agreement only"
        + " shows the calibration still holds. **error** is (simulated - published) / published, or the difference"
        + " in the figure's unit where the tolerance is absolute (\"abs\"). How to add a published figure of your"
        + " own to a scenario file: docs/reference.md.");
    out.println();
    wrap(out, counts(rows, (int) scenarios).replaceFirst("^figures +", "Figures: ") + ".");
    out.println();
    List<String[]> t = table(rows, true);
    for (int i = 0; i < t.size(); i++) {
      String row = "| " + String.join(" | ", t.get(i)) + " |";
      out.println(i == 0 ? row.toLowerCase(Locale.ROOT) : row);
      if (i == 0) out.println("|" + "---|".repeat(t.get(0).length));
    }
  }

  /** A paragraph in lines of at most 116 characters, as the docs are written. */
  private static void wrap(PrintWriter out, String text) {
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > 116) {
        out.println(line);
        line.setLength(0);
      }
      if (line.length() > 0) line.append(' ');
      line.append(word);
    }
    if (line.length() > 0) out.println(line);
  }

  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.format(Locale.ROOT, "%,d", (long) v);
    return (Math.abs(v) >= 1000 ? String.format(Locale.ROOT, "%,.1f", v) : String.format(Locale.ROOT, "%.3f", v))
        .replaceFirst("(\\.\\d*?)0+$", "$1").replaceFirst("\\.$", "");
  }

  static String error(Reference.Row r) {
    if (r.error() == null) return "-";
    if (r.error().isNaN()) return "n/a";
    return r.absolute() ? String.format(Locale.ROOT, "%+.2f", r.error())
        : String.format(Locale.ROOT, "%+.1f%%", r.error() * 100);
  }

  static String tolerance(double t, boolean absolute) {
    return absolute ? String.format(Locale.ROOT, "%s abs", num(t)) : String.format(Locale.ROOT, "%s%%", num(t * 100));
  }
}
