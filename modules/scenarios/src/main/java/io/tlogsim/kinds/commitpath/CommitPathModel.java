package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.data.DataConfig;
import io.tlogsim.database.data.DataFiles;
import io.tlogsim.database.log.LogConfig;
import io.tlogsim.database.log.LogManager;
import io.tlogsim.database.log.LogProtocol;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.database.log.policy.SessionMode;
import io.tlogsim.database.logspace.LinearLogSpace;
import io.tlogsim.database.logspace.LogSpace;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.BackupProtocol;
import io.tlogsim.database.readers.Msdb;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readers.RecoveryProtocol;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import io.tlogsim.database.session.PoolStats;
import io.tlogsim.database.session.SessionPool;
import io.tlogsim.database.session.Workload;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.storage.DeviceProtocol;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.StorageAssembly;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The commit path of one database as components: session pools running a script, the database's log manager (with
 * its data file), the log device and, if apart, the data device. Every scenario kind of the commit path (GCM-1
 * included) builds its run here.
 */
public final class CommitPathModel {
  private CommitPathModel() {}

  /**
   * Fewest sessions per pool the automatic split aims for. A window's work is bounded by what one log write
   * acknowledges (about 300 commits in GCM-1), not by the number of sessions, and every pool pays its window's fixed
   * cost (its Advance, report, outbox and a run in the log manager's queue): split over many pools, the same commits
   * cost more (GCM-1 on 2 threads, docs/performance.md, "Pools": N = 100,000 fastest in 1 pool, then 2 to 8 about
   * even, 16 the slowest; N = 1,000,000 fastest in 2 or 4, 16 the slowest). 50,000 still gives a run of 100,000
   * sessions two pools to spread over a cluster's nodes.
   */
  public static final int AUTO_MIN_POOL_SESSIONS = 50_000;
  /** Most pools an automatic split makes (more only add window costs on 2 cores; sessionsPerPool sets more). */
  public static final int AUTO_MAX_POOLS = 4;
  /** File ids as sys.dm_io_virtual_file_stats numbers them: the data file 1, the log file 2. */
  public static final int DATA_FILE_ID = 1;
  public static final int LOG_FILE_ID = 2;
  /** Capacity of a simple device (it only bounds where requests may land). */
  public static final long SIMPLE_CAPACITY = 1L << 40;
  /** The devices' roles, as the log space's files name them: the log's first device, the data file's own, ... */
  public static final String LOG_DEVICE = "log-device";
  public static final String DATA_DEVICE = "data-device";
  public static final String BACKUP_DEVICE = "backup-device";

  /** The log's {@code k}-th device (1: {@link #LOG_DEVICE}; 2: log-device-2, ...). */
  public static String logDevice(int k) {
    return k == 1 ? LOG_DEVICE : LOG_DEVICE + "-" + k;
  }

  /** Where the data file starts on a device it shares with the log (the log starts at 0). */
  public static final long DATA_OFFSET_ON_LOG_DEVICE = 64L << 30;

  /**
   * Everything one run needs.
   *
   * @param sessionsPerPool 0: one pool when the host has cores to share (they are shared within a pool), else split
   *     over up to 4 pools of at least 50,000 sessions
   * @param policy makes the database's flush policy (a policy has state, so each run gets its own)
   * @param dataDevice the data file's own device; null: the data file shares the log device
   * @param data the data file; null: none
   * @param logSpace makes the database's log space from the names of its devices (by the index the log manager uses:
   *     "log-device", then "data-device" if apart, then "log-device-2", ...); null: one linear log file
   * @param logDevices devices for log files (1: the log device alone; more: "log-device-2", ... of the same model)
   * @param crashNanos a power loss at this time (0: none)
   * @param readers the log's readers: a backup agent for BACKUP LOG steps, a recovery manager for the crash; null:
   *     none
   */
  public record Spec(int sessions, int sessionsPerPool, Script script, Workload workload, LogConfig log,
      Supplier<FlushPolicy> policy, DeviceSetup logDevice, DeviceSetup dataDevice, DataConfig data,
      Function<List<String>, LogSpace> logSpace, int logDevices, long crashNanos, LogReaders readers) {

    public Spec(int sessions, int sessionsPerPool, Script script, Workload workload, LogConfig log,
        Supplier<FlushPolicy> policy, DeviceSetup logDevice, DeviceSetup dataDevice, DataConfig data) {
      this(sessions, sessionsPerPool, script, workload, log, policy, logDevice, dataDevice, data, null, 1, 0, null);
    }

    public Spec(int sessions, int sessionsPerPool, Script script, Workload workload, LogConfig log,
        Supplier<FlushPolicy> policy, DeviceSetup logDevice, DeviceSetup dataDevice, DataConfig data,
        Function<List<String>, LogSpace> logSpace, int logDevices) {
      this(sessions, sessionsPerPool, script, workload, log, policy, logDevice, dataDevice, data, logSpace,
          logDevices, 0, null);
    }

    /** The same with a warm-up of {@code nanos} left out of the commit statistics (the workload's). */
    public Spec withWarmup(long nanos) {
      return new Spec(sessions, sessionsPerPool, script, workload.withWarmup(nanos), log, policy, logDevice,
          dataDevice, data, logSpace, logDevices, crashNanos, readers);
    }

    /** The same with a power loss at {@code nanos} (0: none). */
    public Spec withCrashAt(long nanos) {
      return new Spec(sessions, sessionsPerPool, script, workload, log, policy, logDevice, dataDevice, data, logSpace,
          logDevices, nanos, readers);
    }

    /** The same with another data file (null: none). */
    public Spec withData(DataConfig d) {
      return new Spec(sessions, sessionsPerPool, script, workload, log, policy, logDevice, dataDevice, d, logSpace,
          logDevices, crashNanos, readers);
    }

    /** The same with this log space over {@code devices} log devices (log-space kind). */
    public Spec withLogSpace(Function<List<String>, LogSpace> space, int devices) {
      return new Spec(sessions, sessionsPerPool, script, workload, log, policy, logDevice, dataDevice, data, space,
          devices, crashNanos, readers);
    }

    /** The same with readers of the log (a log space that has VLFs: log-space kind). */
    public Spec withReaders(LogReaders r) {
      return new Spec(sessions, sessionsPerPool, script, workload, log, policy, logDevice, dataDevice, data, logSpace,
          logDevices, crashNanos, r);
    }
  }

  /**
   * The read path's readers of this log (REFERENCE.md 3): a backup agent and the device it writes backup sets to (null:
   * no BACKUP LOG), and a recovery manager that reads the log after the crash (null: no crash).
   */
  public record LogReaders(BackupAgent.Config agent, DeviceSetup backupDevice, RecoveryManager.Config recovery,
      Msdb.Config msdb, Replication replication) {

    public LogReaders(BackupAgent.Config agent, DeviceSetup backupDevice, RecoveryManager.Config recovery) {
      this(agent, backupDevice, recovery, null, null);
    }
  }

  /** Transactional replication's log reader: its reads and processing rate, how often it reads (REFERENCE.md 3). */
  public record Replication(int readBytes, int readsInFlight, int headerBytes, double processMBps, long intervalNanos) {}

  /**
   * One database of a run and where to find its components: its pools, its log manager, every device it built (a
   * RAID's members after their controller, the log device first). A run holds one, or several side by side (the
   * placements of log-drive-placement, the client counts of pg-commit's sweep): independent groups of components in
   * one topology, sharing nothing but the clock.
   *
   * @param name the group's name ("" when alone; else the prefix of its components' names)
   */
  public record Model(Topology topology, List<SimComponent> components, String name, int[] poolIds,
      int sessionsPerPool, int logManager, int[] devices, Spec spec, int backupAgent, int recoveryManager, int msdb,
      int replicationReader) {

    public int pools() {
      return poolIds.length;
    }
  }

  /** Sessions per pool: as configured, else one pool for a host with cores, else up to 4 pools of >= 50,000. */
  public static int sessionsPerPool(Spec s) {
    int n = s.sessions();
    if (s.sessionsPerPool() > 0) return s.workload().cores() > 0 ? n : Math.min(s.sessionsPerPool(), n);
    if (s.workload().cores() > 0) return n;
    int pools = Math.max(1, Math.min(AUTO_MAX_POOLS, n / AUTO_MIN_POOL_SESSIONS)); // each at least the minimum
    return (n + pools - 1) / pools;
  }

  /** One database alone in its run. */
  public static Model build(Spec s) {
    return build(List.of(""), List.of(s)).get(0);
  }

  /**
   * Several databases side by side in one run, each its own group of components named "NAME/..." (independent: no
   * link between groups), in the order given.
   */
  public static List<Model> build(List<String> names, List<Spec> specs) {
    StorageAssembly a = new StorageAssembly();
    List<Part> parts = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) parts.add(add(a, names.get(i), specs.get(i)));
    Topology topo = a.topology();
    List<SimComponent> comps = a.models();
    List<Model> out = new ArrayList<>();
    for (Part p : parts) {
      out.add(new Model(topo, comps, p.name(), p.poolIds(), p.perPool(), p.logManager(), p.devices(), p.spec(),
          p.backupAgent(), p.recoveryManager(), p.msdb(), p.replication()));
    }
    return out;
  }

  private record Part(String name, int[] poolIds, int perPool, int logManager, int[] devices, Spec spec,
      int backupAgent, int recoveryManager, int msdb, int replication) {}

  /** Adds one database's components and links to the assembly. */
  private static Part add(StorageAssembly a, String name, Spec s) {
    String prefix = name.isEmpty() ? "" : name + "/";
    int n = s.sessions();
    int perPool = sessionsPerPool(s);
    int pools = (n + perPool - 1) / perPool;
    long hop = s.workload().hopNanos();
    boolean separateData = s.data() != null && s.dataDevice() != null;

    int[] poolIds = new int[pools];
    for (int k = 0; k < pools; k++) {
      poolIds[k] = a.component(prefix + "pool-" + k, List.of(LogProtocol.REPLIES), List.of(LogProtocol.REQUESTS));
    }
    boolean read = s.readers() != null; // the log manager talks to readers of its log
    boolean backs = read && s.readers().agent() != null;
    boolean recovers = read && s.readers().recovery() != null
        && (s.crashNanos() > 0 || s.script().has(Step.Type.CRASH) || restoresWithRecovery(s.script())
            || s.logSpace() != null); // a managed log may fill: a statement's rollback after 9002 is an undo
    boolean history = backs && s.readers().msdb() != null;
    boolean replicates = read && s.readers().replication() != null;
    int lm = read
        ? a.component(prefix + "log-manager", List.of(LogProtocol.REQUESTS, DeviceProtocol.COMPLETIONS,
            BackupProtocol.REPLIES, RecoveryProtocol.REPLIES, ReplicationLogReader.REPLIES), List.of(LogProtocol.REPLIES,
            DeviceProtocol.REQUESTS, BackupProtocol.REQUESTS, RecoveryProtocol.REQUESTS, ReplicationLogReader.REQUESTS))
        : a.component(prefix + "log-manager", List.of(LogProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
            List.of(LogProtocol.REPLIES, DeviceProtocol.REQUESTS));
    int agent = backs ? a.component(prefix + "backup-agent", List.of(BackupProtocol.REQUESTS,
        DeviceProtocol.COMPLETIONS, Msdb.REPLIES), List.of(BackupProtocol.REPLIES, DeviceProtocol.REQUESTS,
        Msdb.REQUESTS)) : -1;
    int msdb = history ? a.component(prefix + "msdb", List.of(Msdb.REQUESTS, DeviceProtocol.COMPLETIONS),
        List.of(Msdb.REPLIES, DeviceProtocol.REQUESTS)) : -1;
    int replication = replicates ? a.component(prefix + "log-reader", List.of(ReplicationLogReader.REQUESTS,
        DeviceProtocol.COMPLETIONS), List.of(ReplicationLogReader.REPLIES, DeviceProtocol.REQUESTS)) : -1;
    int recovery = recovers ? a.component(prefix + "recovery-manager", List.of(RecoveryProtocol.REQUESTS,
        DeviceProtocol.COMPLETIONS), List.of(RecoveryProtocol.REPLIES, DeviceProtocol.REQUESTS)) : -1;
    // The log manager's devices by role, in the order its device links (and every reader's) are indexed: the log's
    // first device, the data file's own device, the log's further devices. Each is named by its role.
    int devicesBefore = a.devices().size();
    List<Role> roles = new ArrayList<>(List.of(new Role(LOG_DEVICE, a.device(prefix + LOG_DEVICE, s.logDevice()))));
    if (separateData) roles.add(new Role(DATA_DEVICE, a.device(prefix + DATA_DEVICE, s.dataDevice())));
    for (int k = 2; k <= s.logDevices(); k++) {
      roles.add(new Role(logDevice(k), a.device(prefix + logDevice(k), s.logDevice())));
    }
    StorageAssembly.Placed backupDev = backs ? a.device(prefix + BACKUP_DEVICE, s.readers().backupDevice()) : null;
    // the summary's devices: the roles', the backup device, then the members of any (the assembly lists them first)
    List<Integer> ids = new ArrayList<>();
    for (Role r : roles) ids.add(r.device().id());
    if (backupDev != null) ids.add(backupDev.id());
    for (StorageAssembly.Placed d : a.devices().subList(devicesBefore, a.devices().size())) {
      if (!ids.contains(d.id())) ids.add(d.id());
    }
    int[] devices = ids.stream().mapToInt(Integer::intValue).toArray();
    List<String> deviceNames = roles.stream().map(Role::name).toList();
    int[] toLog = new int[pools];
    int[] toPool = new int[pools];
    for (int k = 0; k < pools; k++) {
      toLog[k] = a.link(poolIds[k], lm, LogProtocol.SESSIONS_PORT, hop);
      toPool[k] = a.link(lm, poolIds[k], LogProtocol.REPLIES_PORT, s.log().replyNanos());
    }
    int[] deviceLinks = connect(a, lm, roles, LogProtocol.DEVICE_PORT, s.log().deviceLinkNanos());

    FlushPolicy policy = s.policy().get();
    boolean[] waits = new boolean[3];
    for (int m : new int[] {SessionMode.DEFAULT, SessionMode.DURABLE, SessionMode.LAZY}) waits[m] = policy.waits(m);
    // with host costs the committers' flush lock (PostgreSQL's WALWriteLock) is the pool's: one pool (cores > 0)
    FlushPolicy.FlushLock flushLock = SessionPool.chargesHostCosts(s.workload()) ? policy.flushLock() : null;
    if (flushLock != null) {
      if (pools != 1) throw new IllegalStateException("a flush lock in the sessions needs one pool, got " + pools);
      policy.lockInSessions();
    }
    for (int k = 0; k < pools; k++) {
      int first = k * perPool;
      a.setModel(poolIds[k], new SessionPool(first, Math.min(perPool, n - first), s.script(), s.workload(), toLog[k],
          waits, s.workload().warmupNanos()).withCrashAt(s.crashNanos()).withHostCosts(policy.flusher())
          .withWalWriteLock(flushLock));
    }
    DataFiles data = null;
    if (s.data() != null) {
      DataConfig placed = separateData ? s.data().placedOn(deviceNames.indexOf(DATA_DEVICE), 0)
          : s.data().placedOn(deviceNames.indexOf(LOG_DEVICE), DATA_OFFSET_ON_LOG_DEVICE);
      data = new DataFiles(placed, LogManager.DATA_TAGS);
    }
    LogSpace space = s.logSpace() == null ? new LinearLogSpace(LOG_FILE_ID, "log", 0, 0)
        : s.logSpace().apply(deviceNames);
    // a FLUSH may be answered at once (the log already hardened): a FLUSH_LOG step's, or the lock holder's
    boolean immediate = s.script().has(Step.Type.FLUSH_LOG) || flushLock != null;
    LogManager logManager = new LogManager(s.log(), policy, space, data, deviceLinks, toPool, perPool, n, immediate)
        .withCrashAt(s.crashNanos());
    if (SessionPool.chargesHostCosts(s.workload())) logManager.withAckDetails(); // the pools charge the CPU of waiting
    if (sendsLazyCommits(s.script(), waits)) logManager.withLazyCommits(); // answered when appended
    if (sendsStatements(s.script())) logManager.withStatementReplies(); // each statement returns when appended
    // the readers reach the log manager's devices by the same roles (its pieces name devices by that index)
    long link = s.log().deviceLinkNanos();
    if (backs) { // ... and the agent writes to its own
      int[] agentToDevices = connect(a, agent, roles, BackupProtocol.DEVICE_PORT, link);
      int agentToBackup = a.connect(agent, backupDev, BackupProtocol.DEVICE_PORT, link);
      int agentToLm = a.link(agent, lm, LogProtocol.BACKUP_PORT, link);
      logManager.withBackupAgent(a.link(lm, agent, BackupProtocol.REQUESTS_PORT, link));
      BackupAgent backupAgent = new BackupAgent(s.readers().agent(), agentToDevices, agentToBackup, agentToLm, link);
      if (history) { // msdb's files lie on the data device (the log's when the data shares it)
        StorageAssembly.Placed msdbDevice = roles.get(separateData ? deviceNames.indexOf(DATA_DEVICE) : 0).device();
        int msdbToDevice = a.connect(msdb, msdbDevice, Msdb.DEVICE_PORT, link);
        int msdbToAgent = a.link(msdb, agent, 2, link);
        backupAgent.withMsdb(a.link(agent, msdb, Msdb.REQUESTS_PORT, link));
        a.setModel(msdb, new Msdb(s.readers().msdb(), msdbToDevice, msdbToAgent, link));
      }
      a.setModel(agent, backupAgent);
    }
    if (replicates) {
      Replication r = s.readers().replication();
      int[] toDevices = connect(a, replication, roles, ReplicationLogReader.DEVICE_PORT, link);
      int toLm = a.link(replication, lm, LogProtocol.REPLICATION_PORT, link);
      logManager.withReplicationReader(a.link(lm, replication, ReplicationLogReader.REQUESTS_PORT, link),
          r.intervalNanos());
      a.setModel(replication, new ReplicationLogReader(r.readBytes(), r.readsInFlight(), r.headerBytes(),
          r.processMBps(), toDevices, toLm, link));
    }
    if (recovers) {
      int[] toDevices = connect(a, recovery, roles, RecoveryProtocol.DEVICE_PORT, link);
      int toLm = a.link(recovery, lm, LogProtocol.RECOVERY_PORT, link);
      logManager.withRecoveryManager(a.link(lm, recovery, RecoveryProtocol.REQUESTS_PORT, link));
      a.setModel(recovery, new RecoveryManager(s.readers().recovery(), toDevices, toLm, link));
    }
    a.setModel(lm, logManager);
    return new Part(name, poolIds, perPool, lm, devices, s, agent, recovery, msdb, replication);
  }

  /** A device of the database and the role it plays for its log manager (its name within the database). */
  private record Role(String name, StorageAssembly.Placed device) {}

  /**
   * A session of this script may commit without waiting for its flush: a mode it runs in (the default, or one a
   * set-log or delayed-durability step sets) that the flush policy does not make wait.
   */
  private static boolean sendsLazyCommits(io.tlogsim.database.script.Script script, boolean[] waits) {
    if (!waits[SessionMode.DEFAULT]) return true;
    for (Step st : script.steps()) {
      if ((st.type() == Step.Type.SET_LOG || st.type() == Step.Type.DELAYED_DURABILITY) && !waits[st.mode()]) {
        return true;
      }
    }
    return false;
  }

  /** A session of this script runs statements (each waits until its records are appended, LogProtocol.LOGGED). */
  private static boolean sendsStatements(io.tlogsim.database.script.Script script) {
    for (Step st : script.steps()) {
      switch (st.type()) {
        case INSERT, UPDATE, DELETE, LARGE_UPDATE, LARGE_INSERT -> {
          return true;
        }
        default -> { }
      }
    }
    return false;
  }

  /** A restore step WITH RECOVERY: the database recovers the restored log (REFERENCE.md 3), timed by a recovery manager. */
  private static boolean restoresWithRecovery(io.tlogsim.database.script.Script script) {
    for (Step st : script.steps()) {
      if ((st.type() == Step.Type.RESTORE_DATABASE || st.type() == Step.Type.RESTORE_LOG)
          && st.mode() == Step.WITH_RECOVERY) {
        return true;
      }
    }
    return false;
  }

  /** Links {@code from} to every role's device, in the roles' order (the index its requests name them by). */
  private static int[] connect(StorageAssembly a, int from, List<Role> roles, int completionsPort, long linkNanos) {
    int[] links = new int[roles.size()];
    for (int k = 0; k < links.length; k++) links[k] = a.connect(from, roles.get(k).device(), completionsPort, linkNanos);
    return links;
  }

  /** The sessions' stats of a finished run, all pools merged. */
  public static PoolStats sessions(Model m, RunOutcome out) {
    List<PoolStats> parts = new ArrayList<>();
    for (int id : m.poolIds()) parts.add((PoolStats) out.results().get(id));
    return PoolStats.merge(parts);
  }

  public static LogStats log(Model m, RunOutcome out) {
    return (LogStats) out.results().get(m.logManager());
  }

  public static List<DeviceStats> devices(Model m, RunOutcome out) {
    List<DeviceStats> d = new ArrayList<>();
    for (int id : m.devices()) d.add((DeviceStats) out.results().get(id));
    return d;
  }
}
