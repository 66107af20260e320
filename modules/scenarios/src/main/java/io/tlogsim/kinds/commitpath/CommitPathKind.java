package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.data.DataConfig;
import io.tlogsim.database.data.DataFileGrowth;
import io.tlogsim.database.log.LogConfig;
import io.tlogsim.database.script.Step;
import io.tlogsim.database.session.Workload;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.DeviceParams;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.Text;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.StorageTables;
import java.util.List;
import java.util.Map;

/**
 * The commit path of one database: sessions running a script on a host's cores, a log manager with a flush policy,
 * a log device, and optionally a data file with its lazy writer and checkpoints. The same parameters serve several
 * kinds that differ only in their defaults (config/application.conf, tlogsim.kinds.NAME): {@code commit-path}
 * (SQL Server-like defaults, REFERENCE.md 2) and {@code informix} (REFERENCE.md 5.1).
 */
public final class CommitPathKind implements ScenarioKind {
  /** The kinds of the commit path: the same parameters, the defaults of their engines (application.conf). */
  public static final List<String> NAMES = List.of("commit-path", "informix");

  private final String name;

  public CommitPathKind() {
    this(NAMES.get(0));
  }

  public CommitPathKind(String name) {
    this.name = name;
  }

  @Override
  public List<ScenarioKind> variants() {
    return NAMES.stream().map(n -> (ScenarioKind) new CommitPathKind(n)).toList();
  }

  @Override
  public String name() {
    return name;
  }

  static final List<ParamSpec> OWN = concat(List.of(
      // the run and the sessions
      ParamSpec.decimal("simulatedSeconds", 0.001, 86_400,
          "simulated time to cover at most (the run ends sooner when every session has finished its script)"),
      ParamSpec.decimal("warmupSeconds", 0, 86_400,
          "simulated seconds at the start left out of the commit statistics"),
      ParamSpec.integer("sessions", 1, 1_000_000, "sessions, each running the script"),
      ParamSpec.integer("sessionsPerPool", 0, 1_000_000,
          "sessions per pool actor (0: automatic; a host with cores keeps them in one pool, which shares the cores)"),
      ParamSpec.script("script", "what each session does, step by step (see docs/commit-path.md, Scripts)"),
      ParamSpec.decimal("hopUs", 0.001, 1e6, "delay of a session's request to the log manager and of its reply"),
      ParamSpec.decimal("arrivalRate", 0, 1e9, "a fixed arrival rate, transactions per second over all sessions (as "
          + "pgbench -R): each session starts its transactions as a Poisson process at its share of it, in place of "
          + "its script's think times; late starts are the schedule lag (0: the script's think times)").withUnit("/s"),
      // the host
      ParamSpec.integer("cores", 0, 4096, "cores of the host, shared by the sessions (0: as many as needed)"),
      ParamSpec.decimal("cpuStatementUs", 0, 1e7, "CPU of one statement, besides its rows"),
      ParamSpec.decimal("cpuInsertRowUs", 0, 1e7, "CPU per inserted row"),
      ParamSpec.decimal("cpuUpdateRowUs", 0, 1e7, "CPU per updated row"),
      ParamSpec.decimal("cpuDeleteRowUs", 0, 1e7, "CPU per deleted row"),
      ParamSpec.decimal("cpuCommitUs", 0, 1e7, "CPU of a commit"),
      // the row-size model: log record sizes
      ParamSpec.integer("recordHeaderBytes", 0, 65_536, "header of every row's log record"),
      ParamSpec.integer("rowBytes", 1, 1_048_576, "a row: an insert or delete logs it whole"),
      ParamSpec.integer("updatedBytes", 0, 1_048_576,
          "bytes an update changes: its record logs them twice (before and after image), a compensation once"),
      ParamSpec.integer("beginRecordBytes", 0, 65_536, "the record that begins a transaction (0: none logged)"),
      ParamSpec.integer("commitRecordBytes", 1, 65_536, "a commit record"),
      ParamSpec.integer("checkpointRecordBytes", 1, 1_048_576, "the log records of a checkpoint"),
      ParamSpec.integer("chunkRows", 1, 1_000_000,
          "a large statement sends its records in chunks of this many (event batching, not a model constant)"),
      // the log
      ParamSpec.integer("logPageBytes", 512, 65_536, "unit of log writes (a multiple of 512)"),
      ParamSpec.integer("logPageHeaderBytes", 0, 4_096, "bytes of each log page that hold no records"),
      ParamSpec.integer("logBlockBytes", 512, 16_777_216,
          "largest log block, one write (a multiple of logPageBytes)"),
      ParamSpec.integer("logBuffers", 2, 1_000_000, "log blocks in memory at once (filling, waiting, in flight)"),
      ParamSpec.integer("maxOutstandingWrites", 1, 1_000_000, "most log writes in flight"),
      ParamSpec.integer("maxOutstandingKB", 1, 16_777_216, "most log KB in flight").withUnit("KB"),
      ParamSpec.bool("flushClosesPage", "a flush closes its last page; the next records start on a new page"),
      ParamSpec.bool("flushOnClose", "a session's connection close flushes the log"),
      ParamSpec.choice("flushPolicy", FlushPolicies.NAMES, "when the log is flushed and which commits wait for it")),
      // each flush policy's settings (FlushPolicies)
      FlushPolicies.specs(), List.of(
      // the devices (their settings: the storage models' keys below, shared by both devices)
      ParamSpec.choice("logDevice", DeviceParams.MODELS, "the log's device model"),
      ParamSpec.integer("deviceLinkNs", 1, 1_000_000, "delay of a request from the log manager to a device"),
      // the data file
      ParamSpec.longValue("tableRows", 0, 1_000_000_000_000L, "rows of the table the script touches (0: no data file)"),
      ParamSpec.integer("rowsPerPage", 1, 100_000, "rows per data page"),
      ParamSpec.integer("dataPageBytes", 512, 65_536, "a data page"),
      ParamSpec.bool("dataOnLogDevice", "the data file shares the log's device"),
      ParamSpec.choice("dataDevice", DeviceParams.MODELS, "the data file's device model (when apart)"),
      ParamSpec.decimal("lazyWriterIntervalMs", 0, 1e6, "how often the lazy writer wakes (0: no lazy writer)"),
      ParamSpec.integer("lazyWriterThresholdPages", 0, 1_000_000_000, "it writes while more pages than this are dirty"),
      ParamSpec.integer("lazyWriterPagesPerRun", 0, 1_000_000, "most pages it writes per wake-up"),
      ParamSpec.decimal("checkpointIntervalS", 0, 1e6, "automatic checkpoints this often (0: only the script's)"),
      ParamSpec.integer("dataMaxOutstandingWrites", 1, 100_000, "most data-page writes in flight"),
      ParamSpec.decimal("dataFileMB", 0, 16_777_216,
          "the data file at the start (0: just the table, never grows); rows grow it by a step's growBytes")
          .withUnit("MB"),
      ParamSpec.decimal("dataGrowthMB", 0.0625, 16_777_216, "the data file's growth increment").withUnit("MB"),
      ParamSpec.bool("instantFileInitialization",
          "data-file growths are not zeroed (log growths always are, REFERENCE.md 1)"),
      ParamSpec.decimal("dataGrowthHoldMs", 0, 1e7,
          "what a data-file growth holds the file for besides zeroing it (every request waits)").withUnit("ms"),
      ParamSpec.decimal("crashAtSeconds", 0, 86_400,
          "a power loss at this simulated time (0: none): the run reports the commits lost and what recovery finds"),
      ParamSpec.decimal("crashRandomSeconds", 0, 86_400,
          "a power loss at a time drawn from the seed, uniformly below this (0: none)")));

  /** SQL Server's data page header: the rest of a page holds rows (8,096 of 8,192 B). */
  static final int DATA_PAGE_HEADER_BYTES = 96;

  /** Largest data file the model tracks page by page. */
  static final long MAX_DATA_PAGES = 1L << 27;

  /** The kind's own keys, then every device setting of the storage models (DeviceParams, without its "device"). */
  static final List<ParamSpec> PARAMS =
      concat(OWN, HostParams.SPECS, DeviceParams.specs(StorageTables.premium(), false));

  @SafeVarargs
  private static List<ParamSpec> concat(List<ParamSpec>... lists) {
    List<ParamSpec> out = new java.util.ArrayList<>();
    for (List<ParamSpec> l : lists) out.addAll(l);
    return List.copyOf(out);
  }

  @Override
  public List<ParamSpec> params() {
    return PARAMS;
  }

  /** The flush policies' settings: their defaults are declared with them ({@link FlushPolicies}). */
  @Override
  public Map<String, Default> defaults() {
    return FlushPolicies.defaults();
  }

  /** Informix's onstat -l, wait statistics, per-file I/O (sys.dm_io_virtual_file_stats): {@link CommitPathRun}'s. */
  public static final List<String> TABLES = List.of("onstat", "waits", "filestats");

  @Override
  public List<String> tables() {
    return TABLES;
  }

  /** The list with {@code more} after it. */
  public static List<String> concat(List<String> list, String... more) {
    List<String> out = new java.util.ArrayList<>(list);
    out.addAll(List.of(more));
    return List.copyOf(out);
  }

  /** Every parameter of the commit path (kinds built on it add their own). */
  public static List<ParamSpec> paramSpecs() {
    return PARAMS;
  }

  @Override
  public void validate(Params p) {
    if (p.getDouble("warmupSeconds") > 0 && p.getDouble("warmupSeconds") >= p.getDouble("simulatedSeconds")) {
      throw BadInputException.about("warmupSeconds", "must be less than simulatedSeconds ("
          + Text.plain(p.getDouble("simulatedSeconds")) + "), got " + Text.plain(p.getDouble("warmupSeconds")));
    }
    DeviceParams.setup(p.getString("logDevice"), p, StorageTables.premium()); // refused settings name their key
    HostParams.validate(p);
    if (p.getLong("tableRows") > 0 && !p.getBoolean("dataOnLogDevice")) {
      DeviceParams.setup(p.getString("dataDevice"), p, StorageTables.premium());
    }
    int page = p.getInt("logPageBytes");
    if (page % 512 != 0) throw BadInputException.about("logPageBytes", "must be a multiple of 512, got " + page);
    if (p.getInt("logPageHeaderBytes") >= page) {
      throw BadInputException.about("logPageHeaderBytes", "must be less than logPageBytes (" + page + "), got "
          + p.getInt("logPageHeaderBytes"));
    }
    int block = p.getInt("logBlockBytes");
    if (block % page != 0 || block < page) {
      throw BadInputException.about("logBlockBytes", "must be a whole number of log pages of " + page + " B, got "
          + block);
    }
    long capacity = (long) (block / page) * (page - p.getInt("logPageHeaderBytes"));
    for (String key : List.of("commitRecordBytes", "beginRecordBytes", "checkpointRecordBytes")) {
      if (p.getInt(key) > capacity) {
        throw BadInputException.about(key, "must fit in a log block (" + capacity + " B of records), got "
            + p.getInt(key));
      }
    }
    long largest = Math.max(p.getInt("recordHeaderBytes") + (long) p.getInt("rowBytes"),
        p.getInt("recordHeaderBytes") + 2L * p.getInt("updatedBytes"));
    if (largest > capacity) {
      throw BadInputException.about("rowBytes", "the largest row record (" + largest
          + " B) must fit in a log block (" + capacity + " B of records)");
    }
    if ((long) p.getInt("maxOutstandingKB") * 1024 < page) {
      throw BadInputException.about("maxOutstandingKB", "must hold at least one log page of " + page + " B");
    }
    for (Step st : p.getScript("script").steps()) {
      if (st.type().isLogAdmin() && !name.equals("log-space")) {
        throw BadInputException.about("script", "step '" + st.name() + "' (" + st.type().word + ") needs kind"
            + " log-space (the log in files of VLFs)");
      }
      if (name.equals("log-space")) { // SQL Server's database: backups, restores, crashes, files
        if (st.type() == Step.Type.LARGE_UPDATE || st.type().isReadPath()) continue;
      }
      if (st.type().isReadPath()) {
        throw BadInputException.about("script", "step '" + st.type().word + "' is a command of SQL Server's database:"
            + " use kind = log-space (or its presets read-path, stairway, manyfiles); this kind runs sessions'"
            + " statements, checkpoint and flush-log");
      }
      if (st.type() == Step.Type.LARGE_UPDATE && (st.commitEvery() != 1 || st.mode() != Step.COMMIT)) {
        throw BadInputException.about("script", "step '" + st.name() + "': statements and commit = false are the"
            + " read path's (kind = read-path); here a large-update is one statement that commits or rolls back");
      }
      boolean timed = st.seconds() > 0 && (st.type().isRowLoop() || st.type() == Step.Type.COMMIT_LOOP);
      double cpu = p.getDouble("cpuStatementUs") + Math.min(p.getDouble("cpuInsertRowUs"),
          Math.min(p.getDouble("cpuUpdateRowUs"), p.getDouble("cpuDeleteRowUs")));
      if (timed && st.type() != Step.Type.COMMIT_LOOP && st.thinkUs() == 0 && cpu == 0) {
        throw BadInputException.about("script", "step '" + st.name() + "' runs for " + st.seconds() + " s but its"
            + " statements take no time (thinkUs = 0 and no CPU per statement): give it thinkUs or rows");
      }
    }
    double crashAt = p.getDouble("crashAtSeconds");
    if (crashAt > 0 && crashAt >= p.getDouble("simulatedSeconds")) {
      throw BadInputException.about("crashAtSeconds", "must be less than simulatedSeconds ("
          + Text.plain(p.getDouble("simulatedSeconds")) + "), got " + Text.plain(crashAt));
    }
    double crashBelow = p.getDouble("crashRandomSeconds");
    if (crashBelow > p.getDouble("simulatedSeconds")) {
      throw BadInputException.about("crashRandomSeconds", "must be at most simulatedSeconds ("
          + Text.plain(p.getDouble("simulatedSeconds")) + "), got " + Text.plain(crashBelow));
    }
    if (crashAt > 0 && crashBelow > 0) {
      throw BadInputException.about("crashRandomSeconds", "conflicts with crashAtSeconds = " + Text.plain(crashAt)
          + ": give one of them");
    }
    long pages = (p.getLong("tableRows") + p.getInt("rowsPerPage") - 1) / p.getInt("rowsPerPage");
    if (pages > MAX_DATA_PAGES) {
      throw BadInputException.about("tableRows", "at most " + MAX_DATA_PAGES * p.getInt("rowsPerPage")
          + " rows with rowsPerPage = " + p.getInt("rowsPerPage") + " (" + MAX_DATA_PAGES + " pages), got "
          + p.getLong("tableRows"));
    }
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("simulatedSeconds"));
  }

  /** The run's components, from the parameters. */
  public static CommitPathModel.Spec spec(Params p) {
    int header = p.getInt("recordHeaderBytes");
    int updated = p.getInt("updatedBytes");
    long tableRows = p.getLong("tableRows");
    // the row-size model: an insert or delete logs the row, an update its changed bytes twice (before and after)
    Workload w = Workload.builder().cores(p.getInt("cores")).hopNanos(us(p, "hopUs"))
        .cpuStatementNanos(us(p, "cpuStatementUs")).cpuInsertRowNanos(us(p, "cpuInsertRowUs"))
        .cpuUpdateRowNanos(us(p, "cpuUpdateRowUs")).cpuDeleteRowNanos(us(p, "cpuDeleteRowUs"))
        .cpuCommitNanos(us(p, "cpuCommitUs"))
        .insertRecordBytes(header + p.getInt("rowBytes")).updateRecordBytes(header + 2 * updated)
        .deleteRecordBytes(header + p.getInt("rowBytes")).commitRecordBytes(p.getInt("commitRecordBytes"))
        .compensationRecordBytes(header + updated)
        .tableRows(tableRows).chunkRows(p.getInt("chunkRows"))
        .warmupNanos(VirtualTime.seconds(p.getDouble("warmupSeconds"))).host(HostParams.of(p)).build();
    double rate = p.asMap().get("arrivalRate") instanceof Number r ? r.doubleValue() : 0;
    if (rate > 0) w = w.withArrivalGap(p.getInt("sessions") / rate * 1e9); // each session's share of the rate
    int page = p.getInt("logPageBytes");
    LogConfig log = LogConfig.builder().pageBytes(page).pageHeaderBytes(p.getInt("logPageHeaderBytes"))
        .maxBlockPages(p.getInt("logBlockBytes") / page).logBuffers(p.getInt("logBuffers"))
        .maxOutstandingWrites(p.getInt("maxOutstandingWrites"))
        .maxOutstandingBytes(p.getInt("maxOutstandingKB") * 1024L)
        .flushClosesPage(p.getBoolean("flushClosesPage")).beginRecordBytes(p.getInt("beginRecordBytes"))
        .checkpointRecordBytes(p.getInt("checkpointRecordBytes")).flushOnClose(p.getBoolean("flushOnClose"))
        .flushAfterWrite(flushesAfterWrite(p.getString("logDevice")))
        .replyNanos(us(p, "hopUs")).deviceLinkNanos(p.getInt("deviceLinkNs")).build();
    DeviceSetup logDevice = DeviceParams.setup(p.getString("logDevice"), p, StorageTables.premium());
    DataConfig data = null;
    DeviceSetup dataDevice = null;
    if (tableRows > 0) {
      int rpp = p.getInt("rowsPerPage");
      data = DataConfig.builder().fileId(CommitPathModel.DATA_FILE_ID).name("data").pageBytes(p.getInt("dataPageBytes"))
          .pages((int) ((tableRows + rpp - 1) / rpp)).rowsPerPage(rpp)
          .lazyWriterIntervalNanos(VirtualTime.micros(p.getDouble("lazyWriterIntervalMs") * 1000))
          .lazyWriterThresholdPages(p.getInt("lazyWriterThresholdPages"))
          .lazyWriterPagesPerRun(p.getInt("lazyWriterPagesPerRun"))
          .checkpointIntervalNanos(VirtualTime.seconds(p.getDouble("checkpointIntervalS")))
          .maxOutstandingWrites(p.getInt("dataMaxOutstandingWrites"))
          .growth(p.getDouble("dataFileMB") == 0 ? null : new DataFileGrowth.Config(mib(p.getDouble("dataFileMB")),
              mib(p.getDouble("dataGrowthMB")), p.getBoolean("instantFileInitialization"), p.getInt("dataPageBytes"),
              p.getInt("dataPageBytes") - DATA_PAGE_HEADER_BYTES,
              VirtualTime.micros(p.getDouble("dataGrowthHoldMs") * 1000)))
          .build();
      if (!p.getBoolean("dataOnLogDevice")) {
        dataDevice = DeviceParams.setup(p.getString("dataDevice"), p, StorageTables.premium());
      }
    }
    return new CommitPathModel.Spec(p.getInt("sessions"), p.getInt("sessionsPerPool"), p.getScript("script"), w, log,
        FlushPolicies.of(p), logDevice, dataDevice, data);
  }

  /** Whether a log write on this device model needs a flush (fsync) to be durable. */
  static boolean flushesAfterWrite(String model) {
    return DeviceParams.volatileWriteCache(model);
  }

  private static long mib(double mb) {
    return Math.round(mb * (1 << 20));
  }

  private static long us(Params p, String key) {
    return VirtualTime.micros(p.getDouble(key));
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params p, RunControl control) {
    return CommitPathRun.prepare(name, scenarioName, p, control, spec(p).withCrashAt(crashNanos(p, control.seed())),
        endTimeNanos(p));
  }

  /** Namespace of the crash time among the run's seeds. */
  static final long CRASH_SEED_SPACE = 0xc4a5_0000_0000_0000L;

  /** When the server loses power: crashAtSeconds, or a time drawn from the seed below crashRandomSeconds (0: never). */
  public static long crashNanos(Params p, long seed) {
    if (p.getDouble("crashAtSeconds") > 0) return VirtualTime.seconds(p.getDouble("crashAtSeconds"));
    long below = VirtualTime.seconds(p.getDouble("crashRandomSeconds"));
    if (below <= 1) return 0;
    return 1 + (long) (new Rng(Rng.seedFor(seed, CRASH_SEED_SPACE)).nextDouble() * (below - 1));
  }
}
