package io.tlogsim.kinds.placement;

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
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.Summary;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The same OLTP load with the log placed five ways (REFERENCE.md 4): log and data on one disk (the head seeks between
 * the log's sequential writes and the data's random ones), the log on a disk of its own, and the log on RAID 1, RAID 5
 * and RAID 10 (write penalties 2, 4, 2), the data on its own disk in all but the first. Commit throughput and latency
 * side by side in one table (summary.json {@code layouts[]}); the summary's other sections are the first layout's.
 */
public final class LogDrivePlacementKind implements ScenarioKind {
  public static final String NAME = "log-drive-placement";

  /** A placement: its name and the commit-path settings that make it. */
  record Layout(String name, String what, Map<String, Object> settings) {}

  /** Keys each layout sets itself: not parameters of this kind. */
  private static final Set<String> SET_BY_LAYOUT = Set.of("logDevice", "dataDevice", "dataOnLogDevice", "raidLevel",
      "raidMembers");
  /** Keys of commit-path this kind does not take: a crash is reported for one database at a time. */
  private static final Set<String> NOT_TAKEN = Set.of("crashAtSeconds", "crashRandomSeconds");

  @Override
  public String name() {
    return NAME;
  }

  /** The first placement's commit-path tables, and the placements side by side. */
  @Override
  public List<String> tables() {
    return CommitPathKind.concat(CommitPathKind.TABLES, "layouts");
  }

  @Override
  public List<ParamSpec> params() {
    List<ParamSpec> p = new ArrayList<>();
    for (ParamSpec s : CommitPathKind.paramSpecs()) {
      if (!SET_BY_LAYOUT.contains(s.key()) && !NOT_TAKEN.contains(s.key())) p.add(s);
    }
    p.add(ParamSpec.integer("raid1Members", 2, 2, "disks of the RAID 1 log"));
    p.add(ParamSpec.integer("raid5Members", 3, 64, "disks of the RAID 5 log"));
    p.add(ParamSpec.integer("raid10Members", 4, 64, "disks of the RAID 10 log (an even number)"));
    p.add(ParamSpec.choice("memberDevice", List.of("hdd", "ssd"), "model of every disk: the data's, the log's and"
        + " the RAID members'"));
    return p;
  }
  /** The commit path's flush policies' settings ({@link FlushPolicies}). */
  @Override
  public Map<String, Default> defaults() {
    return FlushPolicies.defaults();
  }


  List<Layout> layouts(Params p) {
    String disk = p.getString("memberDevice");
    return List.of(
        new Layout("shared", "log and data on one " + disk, Params.ordered("logDevice", disk, "dataOnLogDevice", true)),
        new Layout("own-disk", "the log on its own " + disk, Params.ordered("logDevice", disk, "dataOnLogDevice", false)),
        raid(1, p.getInt("raid1Members"), disk), raid(5, p.getInt("raid5Members"), disk),
        raid(10, p.getInt("raid10Members"), disk));
  }

  private static Layout raid(int level, int members, String disk) {
    return new Layout("raid" + level, "the log on RAID " + level + " of " + members + " " + disk + "s",
        Params.ordered("logDevice", "raid", "dataOnLogDevice", false, "raidLevel", level, "raidMembers", members));
  }

  /** The commit-path parameters of one layout: this kind's, plus what the layout sets. */
  static Params of(Params p, Layout l) {
    Map<String, Object> v = new LinkedHashMap<>(p.asMap());
    v.put("dataDevice", p.getString("memberDevice"));
    v.put("raidMemberDevice", p.getString("memberDevice"));
    v.putAll(l.settings());
    v.put("crashAtSeconds", 0.0); // no crash: see NOT_TAKEN
    v.put("crashRandomSeconds", 0.0);
    v.keySet().retainAll(CommitPathKind.paramSpecs().stream().map(ParamSpec::key).toList());
    return new Params(v);
  }

  @Override
  public void validate(Params p) {
    if (p.getInt("raid10Members") % 2 != 0) {
      throw io.tlogsim.scenario.BadInputException.about("raid10Members", "must be even, got "
          + p.getInt("raid10Members"));
    }
    if (p.getLong("tableRows") == 0) {
      throw io.tlogsim.scenario.BadInputException.about("tableRows", "must be > 0: the placements differ by"
          + " where the data file's writes go");
    }
    CommitPathKind commitPath = new CommitPathKind(NAME);
    for (Layout l : layouts(p)) commitPath.validate(of(p, l));
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  /** The five placements side by side in one run: five databases of their own, sharing only the clock. */
  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    List<Layout> layouts = layouts(p);
    List<String> names = new ArrayList<>();
    List<CommitPathModel.Spec> specs = new ArrayList<>();
    for (Layout l : layouts) {
      names.add(l.name());
      specs.add(CommitPathKind.spec(of(p, l)));
    }
    return CommitPathRun.prepare(names, specs, endTimeNanos(p), outcomes -> report(scenarioName, p, control, layouts,
        outcomes));
  }

  private ScenarioResult report(String scenarioName, Params p, RunControl control, List<Layout> layouts,
      List<CommitPathRun.Outcome> outcomes) {
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> table = new ArrayList<>();
    table.add(String.format(Locale.ROOT, "%-9s %9s %8s %8s %11s %12s  %s", "layout", "commits/s", "mean ms",
        "p99 ms", "WRITELOG ms", "log write ms", "log device"));
    for (int i = 0; i < layouts.size(); i++) {
      Layout l = layouts.get(i);
      CommitPathRun.Outcome o = outcomes.get(i);
      DeviceStats logDev = o.devices().get(0);
      double perSecond = o.commits().count() / o.elapsedSeconds();
      double writelogMs = o.log().writelogCount() == 0 ? 0 : o.log().writelogNanos() / 1e6 / o.log().writelogCount();
      double logWriteMs = logDev.meanLatencyUs() / 1e3;
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("layout", l.name());
      row.put("what", l.what());
      row.put("commitsPerSecond", round(perSecond));
      row.put("latencyUs", Summary.latency(o.commits()));
      row.put("writelogAvgMs", round(writelogMs));
      row.put("logDevice", logDev.model());
      row.put("logWriteLatencyUs", round(logDev.meanLatencyUs()));
      row.put("logWrites", o.log().writes());
      row.put("dataPageWrites", o.log().data() == null ? 0
          : o.log().data().lazyWrites() + o.log().data().checkpointWrites());
      rows.add(row);
      table.add(String.format(Locale.ROOT, "%-9s %9.0f %8.2f %8.2f %11.2f %12.2f  %s", l.name(), perSecond,
          o.commits().meanLatencyUs() / 1e3, o.commits().percentileUs(99) / 1e3, writelogMs, logWriteMs,
          logDev.model()));
    }
    ScenarioResult first = CommitPathRun.report(NAME, scenarioName, of(p, layouts.get(0)), control, outcomes.get(0));
    Map<String, Object> summary = new LinkedHashMap<>(first.summary());
    summary.put("layouts", rows);
    List<String> lines = new ArrayList<>(first.humanLines());
    lines.addAll(Text.paragraph("layouts", "the same load with the log placed five ways, side by side in this run"
        + " (the lines above are the first's):"));
    for (String t : table) lines.add("  " + t);
    Map<String, List<String>> tables = new LinkedHashMap<>(first.tables());
    tables.put("layouts", table);
    return ScenarioResult.Of.from(first).withSummary(summary, lines).withTables(tables);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
