package io.tlogsim.kinds.logspace;

import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.commitpath.CommitPathKind;
import io.tlogsim.kinds.commitpath.CommitPathModel;
import io.tlogsim.kinds.commitpath.CommitPathRun;
import io.tlogsim.kinds.commitpath.FlushPolicies;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.ScriptParser;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * REFERENCE.md 1's VLF examples under the three rules of log growth (before 2014, 2014, 2022 and Azure SQL), each
 * example and rule a database of its own in one run: the log created, then grown by a script as the example says,
 * every growth zero-initialized on the log's device unless the rule exempts it. One table: VLFs, size, and how long
 * the growths took (zeroing).
 */
public final class VlfRulesKind implements ScenarioKind {
  public static final String NAME = "vlf-rules";

  /** An example of REFERENCE.md 1: the log's initial size, the growth and how many growths. */
  record Example(String key, String what, double sizeMB, double growthMB, int growths) {}

  static final List<String> RULES = List.of("pre-2014", "2014", "2022");

  @Override
  public String name() {
    return NAME;
  }

  /** The first database's log-space tables, and the rules side by side. */
  @Override
  public List<String> tables() {
    return CommitPathKind.concat(LogSpaceKind.TABLES, "vlfrules");
  }

  @Override
  public List<ParamSpec> params() {
    List<ParamSpec> p = new ArrayList<>();
    for (ParamSpec s : LogSpaceKind.PARAMS) {
      if (!List.of("sqlServerVersion", "logSizeMB", "logGrowthMB", "script").contains(s.key())) p.add(s);
    }
    p.add(ParamSpec.integer("fragmentedGrowths", 1, 100_000, "fragmented example: growths of fragmentedGrowthMB"));
    p.add(ParamSpec.decimal("fragmentedMB", 0.5, 1e6, "fragmented example: initial size and growth").withUnit("MB"));
    p.add(ParamSpec.integer("presizedGrowths", 1, 100_000, "pre-sized example: growths of presizedMB"));
    p.add(ParamSpec.decimal("presizedMB", 0.5, 1e7, "pre-sized example: initial size and growth").withUnit("MB"));
    p.add(ParamSpec.decimal("smallGrowthsInitialMB", 0.5, 1e7, "16 MB example: initial size").withUnit("MB"));
    p.add(ParamSpec.decimal("smallGrowthsMB", 0.5, 1e7, "16 MB example: growth").withUnit("MB"));
    p.add(ParamSpec.decimal("smallGrowthsToMB", 1, 1e8, "16 MB example: grown until this size").withUnit("MB"));
    return p;
  }
  /** The commit path's flush policies' settings ({@link FlushPolicies}). */
  @Override
  public Map<String, Default> defaults() {
    return FlushPolicies.defaults();
  }


  List<Example> examples(Params p) {
    double small = p.getDouble("smallGrowthsMB");
    int smallGrowths = (int) Math.ceil((p.getDouble("smallGrowthsToMB") - p.getDouble("smallGrowthsInitialMB")) / small);
    return List.of(
        new Example("fragmented", "2 MB grown 4,096 x 2 MB", p.getDouble("fragmentedMB"), p.getDouble("fragmentedMB"),
            p.getInt("fragmentedGrowths")),
        new Example("presized", "2 GB grown 3 x 2 GB", p.getDouble("presizedMB"), p.getDouble("presizedMB"),
            p.getInt("presizedGrowths")),
        new Example("smallGrowths", "64 MB grown by 16 MB to 10 GB", p.getDouble("smallGrowthsInitialMB"), small,
            Math.max(1, smallGrowths)));
  }

  private static String ruleKey(String rule) {
    return rule.equals("pre-2014") ? "pre2014" : "sql" + rule;
  }

  /** The log-space parameters of one database: this kind's, the example's sizes and rule, a script of growths. */
  static Params of(Params p, Example e, String rule) {
    Map<String, Object> v = new LinkedHashMap<>(p.asMap());
    v.put("sqlServerVersion", rule);
    v.put("logSizeMB", e.sizeMB());
    v.put("logGrowthMB", e.growthMB());
    v.put("script", ScriptParser.parse("script", ConfigValueFactory.fromAnyRef("[{ step = grow-log, mb = "
        + e.growthMB() + ", times = " + e.growths() + ", name = grow }, { step = sqlperf, name = grown }]"), NAME));
    v.keySet().retainAll(LogSpaceKind.PARAMS.stream().map(ParamSpec::key).toList());
    return new Params(v);
  }

  @Override
  public void validate(Params p) {
    LogSpaceKind ls = new LogSpaceKind();
    for (Example e : examples(p)) for (String r : RULES) ls.validate(of(p, e, r));
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    List<String> names = new ArrayList<>();
    List<CommitPathModel.Spec> specs = new ArrayList<>();
    List<Example> examples = examples(p);
    for (Example e : examples) {
      for (String r : RULES) {
        names.add(e.key() + "-" + r);
        specs.add(LogSpaceKind.spec(of(p, e, r), e.key() + "-" + r));
      }
    }
    return CommitPathRun.prepare(names, specs, endTimeNanos(p), outcomes -> report(scenarioName, p, control,
        examples, outcomes));
  }

  private ScenarioResult report(String scenarioName, Params p, RunControl control, List<Example> examples,
      List<CommitPathRun.Outcome> outcomes) {
    Map<String, Object> vlfs = new LinkedHashMap<>();
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> table = new ArrayList<>();
    table.add(String.format(Locale.ROOT, "%-13s %-30s %7s %7s %7s  %s", "example", "growths", "pre2014", "2014", "2022",
        "zeroing s (pre2014 / 2014 / 2022)"));
    int k = 0;
    for (Example e : examples) {
      Map<String, Object> byRule = new LinkedHashMap<>();
      long[] counts = new long[RULES.size()];
      double[] zeroing = new double[RULES.size()];
      for (int r = 0; r < RULES.size(); r++) {
        CommitPathRun.Outcome o = outcomes.get(k++);
        ManagedLogSpace.Report rep = (ManagedLogSpace.Report) o.log().logSpace();
        counts[r] = rep.vlfs();
        zeroing[r] = o.phases().isEmpty() ? 0 : o.phases().get(0).seconds();
        byRule.put(ruleKey(RULES.get(r)), rep.vlfs());
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("example", e.key());
        row.put("rule", RULES.get(r));
        row.put("vlfs", rep.vlfs());
        row.put("sizeMB", rep.sizeBytes() / (double) (1 << 20));
        row.put("growths", rep.growths());
        row.put("zeroedBytes", rep.zeroedBytes());
        row.put("growSeconds", Math.round(zeroing[r] * 1000) / 1000.0);
        rows.add(row);
      }
      vlfs.put(e.key(), byRule);
      table.add(String.format(Locale.ROOT, "%-13s %-30s %7d %7d %7d  %.1f / %.1f / %.1f", e.key(), e.what(), counts[0],
          counts[1], counts[2], zeroing[0], zeroing[1], zeroing[2]));
    }
    ScenarioResult first = CommitPathRun.report(NAME, scenarioName, of(p, examples.get(0), RULES.get(0)), control,
        outcomes.get(0));
    Map<String, Object> summary = new LinkedHashMap<>(first.summary());
    summary.put("vlfs", vlfs);
    summary.put("rules", rows);
    List<String> lines = new ArrayList<>(Text.lines("scenario", scenarioName + " (" + NAME + ")",
        "seed " + control.seed(), examples.size() * RULES.size() + " databases side by side"));
    lines.addAll(Text.paragraph("VLF rules", "REFERENCE.md 1's examples, each under the three rules (VLFs after the"
        + " growths; the growths' time is zeroing on the log's device, none for 2022's growths of 64 MB or less):"));
    for (String t : table) lines.add("  " + t);
    lines.addAll(Text.paragraph("published", "16,388 (fragmented, pre-2014), 64 (pre-sized, pre-2014), over 2,500"
        + " (16 MB growths to 10 GB, pre-2014)"));
    Map<String, List<String>> tables = new LinkedHashMap<>(first.tables());
    tables.put("vlfrules", table);
    return ScenarioResult.Of.from(first).withSummary(summary, lines).withTables(tables);
  }
}
