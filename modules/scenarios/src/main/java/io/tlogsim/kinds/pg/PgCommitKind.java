package io.tlogsim.kinds.pg;

import io.tlogsim.database.log.LogConfig;
import io.tlogsim.database.log.policy.PostgresCommit;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import io.tlogsim.database.session.Workload;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.commitpath.CommitPathKind;
import io.tlogsim.kinds.commitpath.CommitPathModel;
import io.tlogsim.kinds.commitpath.CommitPathRun;
import io.tlogsim.kinds.commitpath.HostParams;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.storage.DeviceSetup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's commit path with the inputs a user measures on their own machine (docs/commit-path.md): clients each
 * running a one-INSERT transaction in a loop (pgbench -f with one INSERT), on C cores; the WAL device's fsync latency
 * as pg_test_fsync reports it; the CPU and the round trip of one transaction as pgbench with synchronous_commit = off
 * shows them. The WAL is flushed one write at a time (WALWriteLock), by the first waiting committer for everyone
 * (after commit_delay when commit_siblings others are open), or every wal_writer_delay when commits do not wait.
 *
 * <p>With {@code sweep = true} the run is followed by the same load at 1, 2, 4, ... 64 clients with synchronous_commit
 * on and off, side by side in one table (summary.json {@code sweep[]}).
 */
public final class PgCommitKind implements ScenarioKind {
  public static final String NAME = "pg-commit";
  /** Client counts of the sweep. */
  static final int[] SWEEP = {1, 2, 4, 8, 16, 32, 64};

  @Override
  public String name() {
    return NAME;
  }

  /** The commit path's tables, and the sweep's. */
  @Override
  public List<String> tables() {
    return CommitPathKind.concat(CommitPathKind.TABLES, "sweep");
  }

  @Override
  public List<ParamSpec> params() {
    return java.util.stream.Stream.concat(List.of(
        ParamSpec.decimal("simulatedSeconds", 0.001, 86_400, "how long the clients run"),
        ParamSpec.integer("clients", 1, 10_000, "pgbench clients (-c), each a session running the INSERT loop"),
        ParamSpec.integer("cores", 1, 4_096, "cores of the database host"),
        ParamSpec.decimal("fsyncUs", 0.001, 1e7,
            "WAL device: time of one 8 kB write and flush, pg_test_fsync's usecs/op for your wal_sync_method (a"
                + " server on several cores: the mean of pg_test_fsync from each core alone, taskset -c CORE)"),
        ParamSpec.decimal("walDeviceMBps", 0.001, 1e6, "WAL device: transfer rate for writes larger than 8 kB"),
        ParamSpec.decimal("cpuPerTxnUs", 0, 1e7,
            "CPU of one transaction at saturation with synchronous_commit=off: (server + pgbench CPU seconds) /"
                + " transactions of pgbench -c 64 (on a host of its own: cores x 10^6 / TPS); host costs of waiting"
                + " come from calibrate-host (host = profile:NAME)"),
        ParamSpec.decimal("cpuPerTxnUsOneClient", 0, 1e7,
            "CPU of one transaction of one client with synchronous_commit=off, measured as cpuPerTxnUs but with"
                + " pgbench -c 1; a run of N clients takes a value between it (N = 1) and cpuPerTxnUs (N at or above"
                + " cpuPerTxnUsClients), linear in log2 N (0, the default: cpuPerTxnUs at every client count);"
                + " the judged model sets it, with sessionSleepCpuUs (calibrate-postgres measures both:"
                + " docs/commit-path-host-costs.md 10.2)"),
        ParamSpec.integer("cpuPerTxnUsClients", 2, 10_000,
            "the pgbench -c at which cpuPerTxnUs was measured (the saturation run)").withUnit("clients"),
        ParamSpec.decimal("roundTripUs", 0, 1e7,
            "client round trip of one transaction: 10^6 / TPS of pgbench -c 1 with synchronous_commit=off, minus"
                + " that run's own CPU per transaction, measured as above (never negative; near 0 on one core)"),
        ParamSpec.bool("synchronousCommit", "synchronous_commit on (true) or off"),
        ParamSpec.decimal("commitDelayUs", 0, 100_000, "commit_delay: the WALWriteLock holder sleeps this long before"
            + " it flushes, when commitSiblings others are in a transaction"),
        ParamSpec.integer("commitSiblings", 0, 1_000, "commit_siblings: other transactions open (with host costs:"
            + " sessions in a statement or a commit not yet done) for commit_delay to apply"),
        ParamSpec.decimal("walWriterDelayMs", 1, 10_000, "wal_writer_delay"),
        ParamSpec.integer("insertRecordBytes", 1, 65_536, "WAL record of the INSERT"),
        ParamSpec.integer("commitRecordBytes", 1, 65_536, "WAL commit record"),
        ParamSpec.integer("walPageBytes", 512, 65_536, "WAL page (XLOG_BLCKSZ)"),
        ParamSpec.integer("walPageHeaderBytes", 0, 4_096, "WAL page header"),
        ParamSpec.integer("walWriteMaxKB", 8, 1_048_576, "most WAL one write carries (wal_buffers)").withUnit("KB"),
        ParamSpec.bool("sweep", "also run 1, 2, 4, ... 64 clients with synchronous_commit on and off, in one table")).stream(),
        HostParams.SPECS.stream()).toList();
  }

  @Override
  public void validate(Params p) {
    int page = p.getInt("walPageBytes");
    if (page % 512 != 0) throw BadInputException.about("walPageBytes", "must be a multiple of 512, got " + page);
    if (p.getInt("walPageHeaderBytes") >= page) {
      throw BadInputException.about("walPageHeaderBytes", "must be less than walPageBytes (" + page + ")");
    }
    if (p.getInt("walWriteMaxKB") * 1024L % page != 0) {
      throw BadInputException.about("walWriteMaxKB", "must be a whole number of WAL pages of " + page + " B");
    }
    long capacity = p.getInt("walWriteMaxKB") * 1024L / page * (page - p.getInt("walPageHeaderBytes"));
    for (String key : List.of("insertRecordBytes", "commitRecordBytes")) {
      if (p.getInt(key) > capacity) {
        throw BadInputException.about(key, "must fit in one WAL write (" + capacity + " B), got " + p.getInt(key));
      }
    }
    double eightKb = 8192 / (p.getDouble("walDeviceMBps") * 1e6) * 1e6;
    if (eightKb >= p.getDouble("fsyncUs")) {
      throw BadInputException.about("walDeviceMBps", String.format(Locale.ROOT, "moves 8 kB in %.1f us, not less than"
          + " fsyncUs (%s): a flush of 8 kB cannot take less than its transfer", eightKb, p.getDouble("fsyncUs")));
    }
  }

  /**
   * The clients start transactions for simulatedSeconds; the run goes on until the last one finished (its commit
   * acknowledged), at most half as long again plus a second.
   */
  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds") * 1.5 + 1);
  }

  /**
   * The CPU of one transaction with {@code clients} clients: cpuPerTxnUs, or with cpuPerTxnUsOneClient measured, the
   * value between the two measured counts (1 and cpuPerTxnUsClients), linear in log2 of the clients (assumption: the
   * caches and locks N backends share cost more as N doubles; docs/commit-path-host-costs.md 7). With a single figure,
   * one client's modelled transaction would carry the saturation's CPU, and pg-commit would not give back the
   * one-client synchronous_commit=off TPS that roundTripUs was measured from.
   */
  static double cpuPerTxnUs(Params p, int clients) {
    double saturated = p.getDouble("cpuPerTxnUs");
    double one = p.getDouble("cpuPerTxnUsOneClient");
    int measuredAt = p.getInt("cpuPerTxnUsClients");
    if (one <= 0 || clients >= measuredAt) return saturated;
    double at = Math.log(clients) / Math.log(measuredAt); // 0 at one client, 1 where cpuPerTxnUs was measured
    return one + (saturated - one) * at;
  }

  /** The model of {@code clients} clients with synchronous_commit as given. */
  static CommitPathModel.Spec spec(Params p, int clients, boolean synchronousCommit) {
    double seconds = p.getDouble("simulatedSeconds");
    Script script = new Script(List.of(new Step(Step.Type.INSERT, "insert", 0, seconds, 1, p.getDouble("roundTripUs"),
        false, false, 0, false, Params.ordered("step", "insert", "seconds", seconds, "thinkUs", p.getDouble("roundTripUs")))));
    long hop = VirtualTime.micros(0.1); // a backend hands its WAL to shared buffers in-process (assumption: ~0.1 us)
    int insert = p.getInt("insertRecordBytes");
    Workload w = Workload.builder().cores(p.getInt("cores")).hopNanos(hop)
        .cpuInsertRowNanos(VirtualTime.micros(cpuPerTxnUs(p, clients))) // a transaction's CPU, on its one row
        .insertRecordBytes(insert).updateRecordBytes(insert).deleteRecordBytes(insert)
        .commitRecordBytes(p.getInt("commitRecordBytes")).compensationRecordBytes(insert).chunkRows(1000)
        .host(HostParams.of(p)).build();
    int page = p.getInt("walPageBytes");
    // One WAL write at a time (WALWriteLock); a flush's next write rewrites the partial page; no begin record.
    LogConfig log = LogConfig.builder().pageBytes(page).pageHeaderBytes(p.getInt("walPageHeaderBytes"))
        .maxBlockPages(p.getInt("walWriteMaxKB") * 1024 / page).logBuffers(Integer.MAX_VALUE).maxOutstandingWrites(1)
        .maxOutstandingBytes(Long.MAX_VALUE).replyNanos(hop).deviceLinkNanos(VirtualTime.micros(1)).build();
    // pg_test_fsync times an 8 kB write and its flush: the device's fixed part is what is left after 8 kB of transfer
    double mbps = p.getDouble("walDeviceMBps");
    // (it holds the write and fdatasync system calls' CPU too: with host costs the flusher's core pays that CPU
    // within the flush, docs/commit-path-host-costs.md 4.3, so the device keeps the whole of it)
    long fixed = Math.round(p.getDouble("fsyncUs") * 1e3 - 8192 / (mbps * 1e6) * 1e9);
    DeviceSetup device = new DeviceSetup.Simple(fixed, mbps, CommitPathModel.SIMPLE_CAPACITY);
    long delay = VirtualTime.micros(p.getDouble("commitDelayUs"));
    int siblings = p.getInt("commitSiblings");
    long walWriter = VirtualTime.micros(p.getDouble("walWriterDelayMs") * 1000);
    return new CommitPathModel.Spec(clients, 0, script, w, log,
        () -> new PostgresCommit(synchronousCommit, delay, siblings, walWriter), device, null, null);
  }

  /**
   * The run; with {@code sweep}, the same load at 1 to 64 clients with synchronous_commit on and off beside it, each a
   * database of its own in the same run (independent components, run in parallel by the kernel).
   */
  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    List<String> names = new ArrayList<>(List.of(""));
    List<CommitPathModel.Spec> specs = new ArrayList<>(List.of(spec(p, p.getInt("clients"),
        p.getBoolean("synchronousCommit"))));
    if (p.getBoolean("sweep")) {
      for (int clients : SWEEP) {
        for (boolean sync : new boolean[] {true, false}) {
          names.add("c" + clients + (sync ? "-on" : "-off"));
          specs.add(spec(p, clients, sync));
        }
      }
    }
    return CommitPathRun.prepare(names, specs, endTimeNanos(p), outcomes -> report(scenarioName, p, control,
        outcomes));
  }

  private ScenarioResult report(String scenarioName, Params p, RunControl control, List<CommitPathRun.Outcome> o) {
    ScenarioResult main = CommitPathRun.report(NAME, scenarioName, p, control, o.get(0));
    if (o.size() == 1) return main;
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> table = new ArrayList<>();
    table.add("clients | synchronous_commit=on: TPS  commit wait ms  commits/flush | off: TPS  CPU busy");
    for (int k = 0; k < SWEEP.length; k++) {
      int clients = SWEEP[k];
      CommitPathRun.Outcome on = o.get(1 + 2 * k), off = o.get(2 + 2 * k);
      rows.add(row(clients, true, on));
      rows.add(row(clients, false, off));
      table.add(String.format(Locale.ROOT, "%7d | %26.0f %15.3f %14.2f | %8.0f %8.0f%%", clients,
          on.commits().count() / on.elapsedSeconds(), on.commits().meanLatencyUs() / 1e3,
          on.log().writes() == 0 ? 0 : on.commits().count() / (double) on.log().writes(),
          off.commits().count() / off.elapsedSeconds(),
          100 * off.sessions().cpuBusyNanos() / (off.elapsedSeconds() * 1e9 * p.getInt("cores"))));
    }
    Map<String, Object> summary = new LinkedHashMap<>(main.summary());
    summary.put("sweep", rows);
    List<String> lines = new ArrayList<>(main.humanLines());
    lines.add("sweep        the same load at 1 to 64 clients (in the same run):");
    for (String t : table) lines.add("  " + t);
    Map<String, List<String>> tables = new LinkedHashMap<>(main.tables());
    tables.put("sweep", table);
    return ScenarioResult.Of.from(main).withSummary(summary, lines).withTables(tables);
  }

  private static Map<String, Object> row(int clients, boolean sync, CommitPathRun.Outcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("clients", clients);
    m.put("synchronousCommit", sync);
    m.put("tps", round(o.commits().count() / o.elapsedSeconds()));
    m.put("latencyUs", Params.ordered("mean", round(o.commits().meanLatencyUs()), "p99",
        round(o.commits().percentileUs(99))));
    m.put("walWrites", o.log().writes());
    m.put("commitsPerWalWrite", o.log().writes() == 0 ? 0 : round(o.commits().count() / (double) o.log().writes()));
    m.put("cpuWaitMs", round(o.sessions().cpuWaitNanos() / 1e6));
    return m;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
