package io.tlogsim.kinds.gcm1;

import io.tlogsim.database.log.LogConfig;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.log.policy.GroupCommit;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.database.session.PoolStats;
import io.tlogsim.database.session.Workload;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.commitpath.CommitPathModel;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.Text;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.List;

/**
 * GCM-1, the group-commit throughput model of BENCH.md, as a preset of the general commit path
 * ({@link CommitPathModel}): N sessions in pools, one log manager with group commit (one write in flight), one
 * device. Parameters and their defaults: config/application.conf, tlogsim.kinds.gcm1.
 */
public final class Gcm1Kind implements ScenarioKind {
  public static final String NAME = "gcm1";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamSpec> params() {
    return List.of(
        ParamSpec.integer("sessions", 1, 10_000_000, "committer sessions"),
        ParamSpec.decimal("simulatedSeconds", 0.001, 86_400, "simulated time to cover"),
        ParamSpec.decimal("thinkMeanUs", 0.001, 1e9, "mean of a session's exponential think time"),
        ParamSpec.decimal("hopUs", 0.001, 1e6, "one-way delay between a session and the log manager"),
        ParamSpec.integer("recordBytes", 1, 1 << 24, "size of one commit record"),
        ParamSpec.integer("maxWriteBytes", 512, 1 << 24, "most bytes of records in one log write"),
        ParamSpec.integer("blockBytes", 1, 1 << 20, "a write is rounded up to whole blocks of this size"),
        ParamSpec.decimal("deviceLatencyUs", 0.001, 1e7, "fixed time of one device write"),
        ParamSpec.decimal("deviceMBps", 0.001, 1e6, "device transfer rate, MB/s (10^6 B/s)"),
        ParamSpec.integer("deviceLinkNs", 1, 1000, "delay of a write request from log manager to device"),
        ParamSpec.integer("sessionsPerPool", 0, 10_000_000, "sessions per pool actor (0: automatic)"),
        ParamSpec.choice("flushPolicy", List.of("group-commit"), "when the log manager writes"),
        ParamSpec.decimal("warmupSeconds", 0, 86_400,
            "simulated seconds at the start left out of the commit statistics"));
  }

  @Override
  public void validate(Params p) {
    if (p.getDouble("warmupSeconds") > 0 && p.getDouble("warmupSeconds") >= p.getDouble("simulatedSeconds")) {
      throw new BadInputException("warmupSeconds: must be less than simulatedSeconds ("
          + Text.plain(p.getDouble("simulatedSeconds")) + "), got " + Text.plain(p.getDouble("warmupSeconds")));
    }
    if (p.getInt("recordBytes") > p.getInt("maxWriteBytes")) {
      throw new BadInputException("recordBytes: must be at most maxWriteBytes (" + p.getInt("maxWriteBytes")
          + "), got " + p.getInt("recordBytes"));
    }
    if (p.getInt("maxWriteBytes") % p.getInt("blockBytes") != 0) {
      throw new BadInputException("maxWriteBytes: must be a whole number of blocks of blockBytes ("
          + p.getInt("blockBytes") + "), got " + p.getInt("maxWriteBytes"));
    }
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  /** Sessions per pool: as configured, or split over up to 4 pools of at least 50,000 sessions. */
  public static int sessionsPerPool(Params p) {
    return CommitPathModel.sessionsPerPool(spec(p));
  }

  /** The components and links of one GCM-1 run. */
  public record Model(Topology topology, List<SimComponent> components, int pools, int logManager, int device) {}

  /**
   * GCM-1 as a preset of the commit path: sessions that think and commit (a commit record alone, no CPU), a log
   * manager with group commit flushing at once, one write in flight, blocks of up to maxWriteBytes in pages of
   * blockBytes, an unbounded log buffer, and a device taking latency + bytes / rate.
   */
  public static CommitPathModel.Spec spec(Params p) {
    long hop = VirtualTime.micros(p.getDouble("hopUs"));
    int block = p.getInt("blockBytes");
    Script script = new Script(List.of(new Step(Step.Type.COMMIT_LOOP, "commit-loop", 0, 0, 1,
        p.getDouble("thinkMeanUs"), true, false, 0, false, Params.ordered("step", "commit-loop",
            "thinkMeanUs", p.getDouble("thinkMeanUs")))));
    LogConfig log = LogConfig.builder().pageBytes(block).maxBlockPages(p.getInt("maxWriteBytes") / block)
        .logBuffers(Integer.MAX_VALUE).maxOutstandingWrites(1).maxOutstandingBytes(Long.MAX_VALUE).flushClosesPage(true)
        .replyNanos(hop).deviceLinkNanos(p.getInt("deviceLinkNs")).build();
    DeviceSetup device = new DeviceSetup.Simple(VirtualTime.micros(p.getDouble("deviceLatencyUs")),
        p.getDouble("deviceMBps"), CommitPathModel.SIMPLE_CAPACITY);
    return new CommitPathModel.Spec(p.getInt("sessions"), p.getInt("sessionsPerPool"), script,
        Workload.commitsOnly(hop, p.getInt("recordBytes")), log, () -> new GroupCommit(0, 1), device, null, null)
        .withWarmup(VirtualTime.seconds(p.getDouble("warmupSeconds")));
  }

  public static Model build(Params p) {
    CommitPathModel.Model m = CommitPathModel.build(spec(p));
    return new Model(m.topology(), m.components(), m.pools(), m.logManager(), m.devices()[0]);
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    return PreparedRun.of(() -> build(p), Model::topology, Model::components,
        (m, out) -> Gcm1Report.of(scenarioName, p, control, m, out));
  }

  /** Commit stats of all pools of a finished run, merged. */
  public static CommitStats commits(Model m, RunOutcome out) {
    List<CommitStats> parts = new ArrayList<>();
    for (int k = 0; k < m.pools(); k++) parts.add(((PoolStats) out.results().get(k)).commits()); // pools come first
    return CommitStats.merge(parts);
  }

  public static LogStats log(Model m, RunOutcome out) {
    return (LogStats) out.results().get(m.logManager());
  }

  public static DeviceStats device(Model m, RunOutcome out) {
    return (DeviceStats) out.results().get(m.device());
  }
}
