package io.tlogsim.engine.gcm1;

import io.tlogsim.engine.log.LogManager;
import io.tlogsim.engine.log.LogProtocol;
import io.tlogsim.engine.log.LogStats;
import io.tlogsim.engine.scenario.BadInputException;
import io.tlogsim.engine.scenario.ParamSpec;
import io.tlogsim.engine.scenario.PreparedRun;
import io.tlogsim.engine.scenario.Params;
import io.tlogsim.engine.scenario.RunControl;
import io.tlogsim.engine.scenario.ScenarioKind;
import io.tlogsim.engine.scenario.ScenarioResult;
import io.tlogsim.engine.session.CommitStats;
import io.tlogsim.engine.session.SessionPool;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.SimpleDevice;
import java.util.ArrayList;
import java.util.List;

/**
 * GCM-1, the group-commit throughput model of BENCH.md: N sessions in pools, one log manager with group commit
 * (one write in flight), one device. Parameters and their defaults: config/application.conf, tlogsim.kinds.gcm1.
 */
public final class Gcm1Kind implements ScenarioKind {
  public static final String NAME = "gcm1";
  /** Most pools the automatic split makes: enough for every thread of a large machine to have work. */
  static final int AUTO_MAX_POOLS = 16;
  /** Fewest sessions per pool the automatic split aims for: smaller pools cost more messages than they save. */
  static final int AUTO_MIN_POOL_SESSIONS = 500;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamSpec> params() {
    return List.of(
        ParamSpec.integer("sessions", 1, 10_000_000, "committer sessions"),
        ParamSpec.decimal("simulatedSeconds", 0, 86_400, "simulated time to cover"),
        ParamSpec.decimal("thinkMeanUs", 0.001, 1e9, "mean of a session's exponential think time"),
        ParamSpec.decimal("hopUs", 0.001, 1e6, "one-way delay between a session and the log manager"),
        ParamSpec.integer("recordBytes", 1, 1 << 24, "size of one commit record"),
        ParamSpec.integer("maxWriteBytes", 512, 1 << 24, "most bytes of records in one log write"),
        ParamSpec.integer("blockBytes", 1, 1 << 20, "a write is rounded up to whole blocks of this size"),
        ParamSpec.decimal("deviceLatencyUs", 0.001, 1e7, "fixed time of one device write"),
        ParamSpec.decimal("deviceMBps", 0.001, 1e6, "device transfer rate, MB/s (10^6 B/s)"),
        ParamSpec.integer("deviceLinkNs", 1, 1000, "delay of a write request from log manager to device"),
        ParamSpec.integer("sessionsPerPool", 0, 10_000_000, "sessions per pool actor (0: automatic)"),
        ParamSpec.choice("flushPolicy", List.of("group-commit"), "when the log manager writes"));
  }

  @Override
  public void validate(Params p) {
    if (p.getInt("recordBytes") > p.getInt("maxWriteBytes")) {
      throw new BadInputException("recordBytes: must be at most maxWriteBytes (" + p.getInt("maxWriteBytes")
          + "), got " + p.getInt("recordBytes"));
    }
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  /** Sessions per pool: as configured, or split over up to 16 pools of at least 500 sessions. */
  public static int sessionsPerPool(Params p) {
    int n = p.getInt("sessions");
    int configured = p.getInt("sessionsPerPool");
    if (configured > 0) return Math.min(configured, n);
    int pools = Math.max(1, Math.min(AUTO_MAX_POOLS, (n + AUTO_MIN_POOL_SESSIONS - 1) / AUTO_MIN_POOL_SESSIONS));
    return (n + pools - 1) / pools;
  }

  /** The components and links of one GCM-1 run. */
  public record Model(Topology topology, List<SimComponent> components, int pools, int logManager, int device) {}

  public static Model build(Params p) {
    int n = p.getInt("sessions");
    int perPool = sessionsPerPool(p);
    int pools = (n + perPool - 1) / perPool;
    long hop = VirtualTime.micros(p.getDouble("hopUs"));
    long deviceBase = VirtualTime.micros(p.getDouble("deviceLatencyUs"));
    long deviceLink = p.getInt("deviceLinkNs");

    Topology.Builder tb = Topology.builder();
    int[] poolIds = new int[pools];
    for (int k = 0; k < pools; k++) poolIds[k] = tb.component("pool-" + k, LogProtocol.ACKS, LogProtocol.COMMITS);
    int lm = tb.component("log-manager", List.of(LogProtocol.COMMITS, DeviceProtocol.COMPLETIONS),
        List.of(LogProtocol.ACKS, DeviceProtocol.REQUESTS));
    int dev = tb.component("log-device", DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS);
    int[] toLog = new int[pools];
    int[] toPool = new int[pools];
    for (int k = 0; k < pools; k++) {
      toLog[k] = tb.link(poolIds[k], lm, LogProtocol.COMMITS_PORT, hop);
      toPool[k] = tb.link(lm, poolIds[k], LogProtocol.ACKS_PORT, hop);
    }
    int toDevice = tb.link(lm, dev, DeviceProtocol.REQUESTS_PORT, deviceLink);
    tb.link(dev, lm, LogProtocol.DEVICE_PORT, deviceBase);
    Topology topo = tb.build();

    List<SimComponent> comps = new ArrayList<>();
    double think = p.getDouble("thinkMeanUs") * VirtualTime.NS_PER_US;
    for (int k = 0; k < pools; k++) {
      int first = k * perPool;
      comps.add(new SessionPool(first, Math.min(perPool, n - first), think, hop, p.getInt("recordBytes"), toLog[k]));
    }
    comps.add(new LogManager(p.getInt("maxWriteBytes"), p.getInt("blockBytes"), hop, deviceLink, toDevice, toPool,
        perPool));
    comps.add(new SimpleDevice("log-device", deviceBase, p.getDouble("deviceMBps")));
    return new Model(topo, comps, pools, lm, dev);
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    Model m = build(p);
    return new PreparedRun() {
      private boolean first = true;

      @Override
      public Topology topology() {
        return m.topology();
      }

      @Override
      public List<SimComponent> models() {
        List<SimComponent> ms = first ? m.components() : build(p).components();
        first = false;
        return ms;
      }

      @Override
      public ScenarioResult result(RunOutcome out) {
        return Gcm1Result.of(scenarioName, p, control, m, out);
      }
    };
  }

  /** Commit stats of all pools of a finished run, merged. */
  public static CommitStats commits(Model m, RunOutcome out) {
    List<CommitStats> parts = new ArrayList<>();
    for (int k = 0; k < m.pools(); k++) parts.add((CommitStats) out.results().get(k));
    return CommitStats.merge(parts);
  }

  public static LogStats log(Model m, RunOutcome out) {
    return (LogStats) out.results().get(m.logManager());
  }

  public static DeviceStats device(Model m, RunOutcome out) {
    return (DeviceStats) out.results().get(m.device());
  }
}
