package io.tlogsim.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunSpec;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStore;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.kernel.Topology;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.RunControl;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim facts <run-id>}: a stored run's facts as a table (CSV or JSON Lines), streamed from the journal (see
 * {@link FactsTable}), for analysis outside tlogsim. The journal is only read.
 */
@Command(name = "facts", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = {"Print a stored run's facts as a table, one row per fact, for pandas, DuckDB or a spreadsheet: "
        + "CSV with a header, or JSON Lines (one object per line). Columns: window, timeNs, timeSeconds, "
        + "componentId, component, type, then the fact's own fields (--schema lists them with their types).",
        "A run journaled with --trace full has every fact (each log write hardened: LogHardened, each checkpoint, "
            + "...); the default trace (summary) keeps the per-interval facts (CommitInterval, LogInterval, "
            + "DeviceInterval, ...). The summary's journal.facts (in summary.json) says how many rows the whole run "
            + "gives.",
        "Examples:",
        "  tlogsim facts <run-id> --format csv --out facts.csv",
        "  tlogsim facts <run-id> --type LogHardened --from 1 --to 2 --format jsonl"},
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JDBC, Tlogsim.ENV_JDBC_USER})
final class FactsCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "<run-id>",
      description = "A run of the journal (see 'tlogsim runs'); not needed with --schema.")
  String runId;

  @Option(names = "--type", split = ",", paramLabel = "TYPE", description = "Only facts of these types (repeatable "
      + "or comma-separated; --schema with no --type lists every type).")
  List<String> types = new ArrayList<>();

  @Mixin
  SimWindow window;

  @Option(names = "--format", paramLabel = "csv|jsonl", defaultValue = "csv",
      description = "csv (default: a header row, then a row per fact) or jsonl (an object per line).")
  String format;

  @Option(names = "--schema", description = "Print the columns (name, type, the fact types that have it, what it "
      + "is) as JSON instead of the facts.")
  boolean schema;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the table to FILE instead of stdout.")
  String out;

  @Mixin
  StoreOptions store;

  @Override
  public Integer call() throws IOException {
    LoggerFactory.getILoggerFactory();
    if (!format.equals("csv") && !format.equals("jsonl")) {
      throw new BadInputException("--format " + format + ": unknown format; allowed: csv, jsonl");
    }
    if (out != null && out.isBlank()) throw new BadInputException("--out: must not be empty; give a file");
    Map<String, Class<?>> chosen = chosen(types);
    PrintWriter stdout = spec.commandLine().getOut();
    if (schema) { // needs no run
      stdout.println(schemaJson(chosen, format));
      stdout.flush();
      return Tlogsim.OK;
    }
    if (runId == null) throw new BadInputException("facts: give a run id (tlogsim runs lists the stored runs)");
    JournalSettings js = store.settings();
    try (Journal journal = Journal.openForReading(js)) {
      RunStore runs = journal.store();
      RunState state = runs.state(runId); // unknown run: bad input
      SimWindow.Nanos w = window.given() ? window.check(state.simulatedNanosReached(), runId) : null;
      IntFunction<String> names = componentNames(state.spec());
      Path file = out == null ? null : Path.of(out);
      if (file != null && file.getParent() != null) Files.createDirectories(file.getParent());
      try (Writer sink = file == null ? new BufferedWriter(unclosed(stdout), 1 << 16)
          : new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8), 1 << 16);
          FactsTable.Rows rows = format.equals("csv") ? new FactsTable.Csv(chosen, names, sink)
              : new FactsTable.JsonLines(chosen, names, sink)) {
        boolean all = types.isEmpty();
        java.util.Set<Class<?>> wanted = new java.util.HashSet<>(chosen.values());
        runs.facts(runId, f -> {
          if (!all && !wanted.contains(f.fact().getClass())) return;
          if (w != null && !w.contains(f.time())) return;
          rows.row(f);
        });
      }
    }
    stdout.flush();
    return Tlogsim.OK;
  }

  /** stdout, flushed but left open when the table's writer closes (the command line prints after it). */
  private static Writer unclosed(Writer w) {
    return new java.io.FilterWriter(w) {
      @Override
      public void close() throws IOException {
        flush();
      }
    };
  }

  /** The types --type names (every fact type without it); bad input naming the allowed ones. */
  static Map<String, Class<?>> chosen(List<String> names) {
    Map<String, Class<?>> all = FactsTable.factTypes();
    if (names.isEmpty()) return all;
    Map<String, Class<?>> out = new LinkedHashMap<>();
    for (String n : names) {
      String t = n.strip();
      Class<?> c = all.get(t);
      if (c == null) {
        throw new BadInputException("--type " + t + ": unknown fact type; allowed: " + String.join(", ", all.keySet()));
      }
      out.put(t, c);
    }
    return out;
  }

  /** Component names by id, from the run's topology as its scenario builds it ("component-N" past its end). */
  static IntFunction<String> componentNames(RunSpec rs) {
    Topology topology = topology(rs);
    List<String> names = new ArrayList<>();
    for (int id = 0; id < topology.components(); id++) names.add(topology.name(id));
    return id -> id >= 0 && id < names.size() ? names.get(id) : "component-" + id;
  }

  /** The run's topology, as its scenario builds it. */
  static Topology topology(RunSpec rs) {
    return rs.scenario(ScenarioKinds.all()).prepare(new RunControl(rs.seed(), rs.threads(), null)).topology();
  }

  private static String schemaJson(Map<String, Class<?>> chosen, String format) throws IOException {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("format", format);
    doc.put("types", List.copyOf(chosen.keySet()));
    List<Map<String, Object>> cols = new ArrayList<>();
    for (FactsTable.Column c : FactsTable.columns(chosen)) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", c.name());
      m.put("type", c.type());
      if (!c.factTypes().isEmpty()) m.put("factTypes", c.factTypes());
      if (!c.description().isEmpty()) m.put("description", c.description());
      cols.add(m);
    }
    doc.put("columns", cols);
    return JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(doc);
  }
}
