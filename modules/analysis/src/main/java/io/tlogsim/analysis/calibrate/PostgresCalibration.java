package io.tlogsim.analysis.calibrate;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * pg-commit's inputs measured on a running PostgreSQL, as a user would measure them (docs/commit-path-host-costs.md,
 * section 7): pg_test_fsync on the WAL's disk (from each of the server's cores alone when it has several), and
 * pgbench -n with a one-row INSERT and synchronous_commit=off at each client count asked for, with the CPU the server's
 * processes and pgbench used (the server's from /proc when it runs on this machine; else CPU is inferred from
 * throughput, README's recipe, and the result says so); and, where that CPU is
 * measured, the CPU one sleep costs a backend (pg-commit's sessionSleepCpuUs): the same at the most clients with a
 * transaction of INSERT then {@code SELECT pg_sleep(0.001)} against INSERT then {@code SELECT pg_sleep(0)}
 * (docs/commit-path-host-costs.md 4.7).
 *
 * <p>It connects as psql and pgbench do, through libpq's variables (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD,
 * PGPASSFILE, PGOPTIONS...): every child process inherits this process's environment. It creates one table
 * ({@code tlogsim_calibrate_<pid>}) and drops it at the end.
 */
public final class PostgresCalibration {
  /**
   * What to measure: pgbench's -T per run, pg_test_fsync's -s, the client counts, where the WAL's disk is, the server's
   * cores (null: read here), whether to measure the CPU of a backend's sleep, and whether to run pg_test_fsync from
   * each of the server's cores alone (else once on all of them).
   */
  public record Settings(double pgbenchSeconds, int fsyncSeconds, List<Integer> clients, Path walDir, Integer cores,
      boolean sleep, boolean fsyncEachCore) {}

  /**
   * One pg_test_fsync run: the cores it ran on ({@code cpus}: one core, the server's set or this process's; "" when the
   * server is not visible here) and its usecs/op of the server's wal_sync_method for one 8kB write.
   */
  public record Fsync(String cpus, double us) {}

  /** One pgbench run: its clients, TPS, transactions, latency, and the CPU seconds (NaN: not measurable here). */
  public record Run(int clients, double tps, long transactions, double latencyMs, double serverCpuSeconds,
      double pgbenchCpuSeconds) {
    /** CPU per transaction of the server and pgbench, us (NaN when the server's CPU was not measured). */
    public double cpuPerTxnUs() {
      return (serverCpuSeconds + pgbenchCpuSeconds) / transactions * 1e6;
    }
  }

  /**
   * Everything measured; {@code sleepRuns}: at the most clients, the transaction with {@code pg_sleep(0)} then the one
   * with {@code pg_sleep(0.001)} (empty: not measured).
   */
  public record Result(String server, String version, String walSyncMethod, Path walDir, List<Fsync> fsyncs,
      int cores, String coresFrom, boolean cpuMeasured, List<Run> runs, List<Run> sleepRuns, List<String> notes) {
    public Result {
      if (fsyncs.isEmpty()) throw new IllegalArgumentException("no pg_test_fsync figure");
      fsyncs = List.copyOf(fsyncs);
    }

    /**
     * pg-commit's fsyncUs: the mean of {@link #fsyncs()}, one run on the server's cores or one from each of them alone
     * (a server flushes from every core it runs on: docs/commit-path-host-costs.md 10.2).
     */
    public double fsyncUs() {
      return fsyncs.stream().mapToDouble(Fsync::us).average().orElseThrow();
    }

    /** Whether {@link #fsyncUs()} is the mean over the server's cores, each measured alone. */
    public boolean fsyncEachCore() {
      return fsyncs.size() > 1;
    }

    Run at(int clients) {
      return runs.stream().filter(r -> r.clients() == clients).findFirst().orElseThrow();
    }

    Run saturated() {
      return runs.stream().max(Comparator.comparingInt(Run::clients)).orElseThrow();
    }

    Run one() {
      return runs.stream().min(Comparator.comparingInt(Run::clients)).orElseThrow();
    }

    /** CPU of one transaction at the most clients measured: measured CPU, else cores x 10^6 / TPS. */
    public double cpuPerTxnUs() {
      return cpuMeasured ? saturated().cpuPerTxnUs() : cores * 1e6 / saturated().tps();
    }

    /**
     * CPU of one transaction of one client (pg-commit's cpuPerTxnUsOneClient), measured; 0 (pg-commit: cpuPerTxnUs at
     * every client count) when the CPU was inferred, or one client was not among the counts measured, or was the only.
     */
    public double cpuPerTxnUsOneClient() {
      return cpuMeasured && one().clients() == 1 && saturated().clients() > 1 ? one().cpuPerTxnUs() : 0;
    }

    /** The clients of the run {@link #cpuPerTxnUs()} comes from (pg-commit's cpuPerTxnUsClients). */
    public int cpuPerTxnUsClients() {
      return saturated().clients();
    }

    /**
     * The CPU one sleep costs a backend (pg-commit's sessionSleepCpuUs): the CPU per transaction with one
     * {@code pg_sleep(0.001)} less that with {@code pg_sleep(0)}, never below 0; 0 when not measured (the server's CPU
     * not visible, or the sleep runs not asked for).
     */
    public double sessionSleepCpuUs() {
      if (!cpuMeasured || sleepRuns.size() != 2) return 0;
      return Math.max(0, sleepRuns.get(1).cpuPerTxnUs() - sleepRuns.get(0).cpuPerTxnUs());
    }

    /**
     * What one client's transaction spends off any core: 10^6 / TPS of the fewest clients less that run's CPU per
     * transaction (measured), else less {@link #cpuPerTxnUs()} (README's recipe: may be negative, then 0).
     */
    public double roundTripUs() {
      double cpu = cpuMeasured ? one().cpuPerTxnUs() : cpuPerTxnUs();
      return Math.max(0, 1e6 / one().tps() - cpu);
    }
  }

  private static final Pattern TPS = Pattern.compile("(?m)^tps = ([0-9.]+)");
  private static final Pattern TXNS = Pattern.compile("(?m)actually processed: ([0-9]+)");
  private static final Pattern LATENCY = Pattern.compile("(?m)^latency average = ([0-9.]+) ms");

  private final Settings settings;
  private final Consumer<String> progress;
  private final Path psql;
  private final Path pgbench;
  private final Path pgTestFsync;

  public PostgresCalibration(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
    this.psql = tool("psql");
    this.pgbench = tool("pgbench");
    this.pgTestFsync = tool("pg_test_fsync");
  }

  /** A PostgreSQL program: on PATH, else in the newest /usr/lib/postgresql/VERSION/bin (Debian's layout). */
  static Path tool(String name) {
    Path onPath = onPath(name);
    if (onPath != null) return onPath;
    Path lib = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> versions = Files.list(lib)) {
        Optional<Path> p = versions.map(v -> v.resolve("bin").resolve(name)).filter(Files::isExecutable)
            .max(Comparator.comparing(v -> version(v.getParent().getParent().getFileName().toString())));
        if (p.isPresent()) return p.get();
      } catch (IOException e) {
        // fall through
      }
    }
    throw new BadInputException(name + ": not found on PATH nor in /usr/lib/postgresql/*/bin; install PostgreSQL's"
        + " server package (Debian: postgresql-15) or put it on PATH");
  }

  /** An executable named {@code name} on PATH, or null. */
  private static Path onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) return null;
    for (String dir : path.split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, name);
      if (Files.isExecutable(p)) return p;
    }
    return null;
  }

  private static double version(String v) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  public Result run() throws IOException {
    List<String> notes = new ArrayList<>();
    String version = query("SHOW server_version");
    String method = query("SHOW wal_sync_method");
    String server = describeServer();
    progress.accept("PostgreSQL " + version + " at " + server + ", wal_sync_method " + method);

    // the server's processes, when they run here: the checkpointer's parent is the postmaster
    long postmaster = -1;
    String ckpt = query("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
    if (ckpt.matches("[0-9]+")) {
      Stat st = stat(Long.parseLong(ckpt));
      Stat pm = st == null ? null : stat(st.ppid());
      if (pm != null && (pm.comm().contains("postgres") || pm.comm().contains("postmaster"))) postmaster = st.ppid();
    }
    boolean local = postmaster > 0;
    // pg_stat_activity shows other processes' rows only to superusers and pg_read_all_stats: say which case this is
    String why = ckpt.isEmpty() ? "this user may not see the server's background processes in pg_stat_activity: GRANT"
        + " pg_read_all_stats, or connect as a superuser, if it runs here" : "another host or container";
    if (!local) notes.add("the server's processes are not visible here (" + why + "): CPU per transaction inferred"
        + " from throughput (README's recipe), cores from --cores");
    String serverCpus = local ? statusField(postmaster, "Cpus_allowed_list").strip() : null;
    int cores;
    String coresFrom;
    if (settings.cores() != null) {
      cores = settings.cores();
      coresFrom = "--cores";
    } else if (local) {
      cores = Pinning.parseList(serverCpus).size();
      coresFrom = "the postmaster's affinity (Cpus_allowed_list of " + postmaster + ")";
    } else {
      throw new BadInputException("--cores: the server's processes are not visible here (" + why + "); give its"
          + " cores");
    }

    // pg_test_fsync on the WAL's disk
    Path walDir = settings.walDir();
    if (walDir == null) {
      String dataDir = queryOrNull("SHOW data_directory");
      if (dataDir == null) {
        throw new BadInputException("--wal-dir: this user may not read data_directory; give a writable directory on"
            + " the WAL's disk");
      }
      walDir = Path.of(dataDir, "pg_wal");
    }
    if (!Files.isDirectory(walDir) || !Files.isWritable(walDir)) {
      throw new BadInputException("--wal-dir: " + walDir + " is not a writable directory here; give one on the WAL's"
          + " disk");
    }
    // pinned to the server's cores: the flush a backend waits for is issued from them, and a disk whose interrupt is
    // serviced on a core outside them completes each flush through a wake across cores. On several cores, from each
    // alone: the server's backends flush from all of them, while one pg_test_fsync on the set settles on the core whose
    // flushes complete cheapest (docs/commit-path-host-costs.md 10.2)
    List<FsyncRun> plan = fsyncRuns(settings.fsyncEachCore(), serverCpus,
        statusField(ProcessHandle.current().pid(), "Cpus_allowed_list").strip(), onPath("taskset"), notes);
    if (plan.size() > 1) {
      progress.accept(String.format(Locale.ROOT, "pg_test_fsync from each of %d cores alone, about %d s each"
          + " (--fsync-once: one run)", plan.size(), 16 * settings.fsyncSeconds()));
    }
    List<Fsync> fsyncs = new ArrayList<>();
    for (FsyncRun run : plan) {
      double us = fsyncUs(walDir, method, run.pin());
      fsyncs.add(new Fsync(run.cpus(), us));
      progress.accept(String.format(Locale.ROOT, "pg_test_fsync on %s%s: %s %.1f usecs/op (one 8kB write)", walDir,
          plan.size() > 1 ? " from core " + run.cpus() + " alone" : "", method, us));
    }

    // pgbench with synchronous_commit=off at each client count
    String table = "tlogsim_calibrate_" + ProcessHandle.current().pid();
    Path script = Files.createTempFile("tlogsim-insert", ".sql");
    List<Run> runs = new ArrayList<>();
    List<Run> sleepRuns = new ArrayList<>();
    try {
      Files.writeString(script, "INSERT INTO " + table + " VALUES (1);\n");
      query("CREATE TABLE " + table + " (x int)");
      for (int clients : settings.clients()) {
        query("TRUNCATE " + table);
        if (queryOrNull("CHECKPOINT") == null && runs.isEmpty()) {
          notes.add("CHECKPOINT not allowed for this user: runs start without one");
        }
        Run r = pgbench(script, clients, cores, local ? postmaster : -1);
        runs.add(r);
        progress.accept(String.format(Locale.ROOT, "pgbench -c %d, synchronous_commit=off: %.0f TPS, %,d"
            + " transactions%s", clients, r.tps(), r.transactions(), local ? String.format(Locale.ROOT,
            ", CPU %.1f us per transaction", r.cpuPerTxnUs()) : ""));
      }
      if (settings.sleep() && local) {
        // one sleep of a backend, in the engine: pg_sleep(0.001) waits once in WaitLatch (one epoll_wait with a
        // timer), so the CPU per transaction differs from pg_sleep(0)'s by one sleep, its resume and the refill of the
        // backend's caches after the others ran (docs/commit-path-host-costs.md 4.7); at the most clients, as
        // cpuPerTxnUs
        int most = settings.clients().stream().max(Integer::compare).orElseThrow();
        for (String z : List.of("0", "0.001")) {
          query("TRUNCATE " + table);
          queryOrNull("CHECKPOINT");
          Files.writeString(script, "INSERT INTO " + table + " VALUES (1);\nSELECT pg_sleep(" + z + ");\n");
          Run r = pgbench(script, most, cores, postmaster);
          sleepRuns.add(r);
          progress.accept(String.format(Locale.ROOT, "pgbench -c %d, INSERT then pg_sleep(%s), synchronous_commit=off:"
              + " %.0f TPS, CPU %.1f us per transaction", most, z, r.tps(), r.cpuPerTxnUs()));
        }
        double d = sleepRuns.get(1).cpuPerTxnUs() - sleepRuns.get(0).cpuPerTxnUs();
        if (d < 0) {
          notes.add(String.format(Locale.ROOT, "the transaction with pg_sleep(0.001) took %.1f us less CPU than with"
              + " pg_sleep(0): sessionSleepCpuUs = 0 (a host that slowed during one of them? measure again, or with a"
              + " longer --seconds)", -d));
        }
      } else if (settings.sleep()) {
        notes.add("sessionSleepCpuUs not measured: it needs the server's CPU, not visible here");
      }
    } finally {
      queryOrNull("DROP TABLE IF EXISTS " + table);
      Files.deleteIfExists(script);
    }
    return new Result(server, version, method, walDir, fsyncs, cores, coresFrom, local, List.copyOf(runs),
        List.copyOf(sleepRuns), List.copyOf(notes));
  }

  private static String describeServer() {
    Map<String, String> env = System.getenv();
    List<String> parts = new ArrayList<>();
    for (String k : List.of("PGHOST", "PGPORT", "PGUSER", "PGDATABASE")) {
      if (env.get(k) != null && !env.get(k).isBlank()) parts.add(k + "=" + env.get(k));
    }
    return parts.isEmpty() ? "libpq's defaults" : String.join(" ", parts);
  }

  /** Runs {@code sql} through psql; its one-line output. Bad input (one line) when psql fails. */
  String query(String sql) throws IOException {
    Out o = exec(List.of(psql.toString(), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql), Map.of(), 60);
    if (o.code != 0) {
      throw new BadInputException("PGHOST/PGPORT/PGUSER/PGDATABASE: psql -c \"" + sql + "\" failed: "
          + firstLine(o.text));
    }
    return o.text.strip();
  }

  private String queryOrNull(String sql) throws IOException {
    Out o = exec(List.of(psql.toString(), "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql), Map.of(), 600);
    return o.code == 0 ? o.text.strip() : null;
  }

  /**
   * What runs pg_test_fsync on the server's cores ({@code serverCpus}, its Cpus_allowed_list) when this process's
   * ({@code ownCpus}) differ: {@code taskset -c serverCpus}, or nothing (same cores, or no taskset: a note says so).
   */
  static List<String> pinToServer(String serverCpus, String ownCpus, Path taskset, List<String> notes) {
    if (Pinning.parseList(serverCpus).equals(Pinning.parseList(ownCpus))) return List.of();
    if (taskset == null) {
      notes.add("pg_test_fsync ran on this process's cores (" + ownCpus + "), not the server's (" + serverCpus
          + "): taskset (util-linux) not found");
      return List.of();
    }
    notes.add("pg_test_fsync ran on the server's cores (taskset -c " + serverCpus + ")");
    return List.of(taskset.toString(), "-c", serverCpus);
  }

  /** One pg_test_fsync run to make: the cores it runs on ("": unknown) and what runs it there (taskset -c, or nothing). */
  record FsyncRun(String cpus, List<String> pin) {}

  /**
   * Where pg_test_fsync runs: from each of the server's cores alone when {@code eachCore}, it has several, and taskset
   * can pin to them from here (cores outside this process's {@code ownCpus}, its cpuset, are left out and named);
   * otherwise once, on the server's cores ({@link #pinToServer}). {@code serverCpus}: the postmaster's
   * Cpus_allowed_list, null when the server's processes are not visible here. Why each core: a server flushes from
   * every core it runs on (docs/commit-path-host-costs.md 10.2).
   */
  static List<FsyncRun> fsyncRuns(boolean eachCore, String serverCpus, String ownCpus, Path taskset,
      List<String> notes) {
    if (serverCpus == null) {
      if (eachCore) notes.add("pg_test_fsync ran once, on this process's cores: the server's are not visible here");
      return List.of(new FsyncRun("", List.of()));
    }
    List<Integer> server = Pinning.parseList(serverCpus);
    List<Integer> own = Pinning.parseList(ownCpus);
    List<Integer> usable = server.stream().filter(own::contains).toList();
    if (eachCore && server.size() > 1 && taskset != null && usable.size() > 1) {
      if (usable.size() < server.size()) {
        notes.add("pg_test_fsync ran from " + usable.size() + " of the server's " + server.size() + " cores: this"
            + " process may not run on " + server.stream().filter(c -> !own.contains(c)).map(String::valueOf)
                .collect(Collectors.joining(",")) + " (its Cpus_allowed_list is " + ownCpus + ")");
      }
      return usable.stream().map(c -> new FsyncRun(Integer.toString(c), List.of(taskset.toString(), "-c",
          Integer.toString(c)))).toList();
    }
    int before = notes.size();
    List<String> pin = pinToServer(serverCpus, ownCpus, taskset, notes);
    if (eachCore && server.size() > 1 && (taskset != null || notes.size() == before)) { // else pinToServer said why
      notes.add("pg_test_fsync ran once on the server's cores, not from each alone: " + (taskset == null
          ? "taskset (util-linux) not found" : "this process may run on " + (usable.isEmpty() ? "none" : "only one")
              + " of them (its Cpus_allowed_list is " + ownCpus + ")"));
    }
    return List.of(new FsyncRun(pin.isEmpty() ? ownCpus : serverCpus, pin));
  }

  /** pg_test_fsync's usecs/op of {@code method}, run after {@code pin} (taskset -c CPUS, or nothing). */
  private double fsyncUs(Path walDir, String method, List<String> pin) throws IOException {
    Path file = walDir.resolve("tlogsim-pg_test_fsync.tmp");
    try {
      List<String> cmd = new ArrayList<>(pin);
      cmd.addAll(List.of(pgTestFsync.toString(), "-f", file.toString(), "-s",
          Integer.toString(settings.fsyncSeconds())));
      Out o = exec(cmd, Map.of(), 60L * settings.fsyncSeconds() + 60);
      if (o.code != 0) throw new IOException("pg_test_fsync failed: " + firstLine(o.text));
      return parseFsync(o.text, method);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** usecs/op of {@code method} in pg_test_fsync's "Compare file sync methods using one 8kB write". */
  static double parseFsync(String text, String method) throws IOException {
    boolean in = false;
    for (String line : text.split("\n")) {
      if (line.contains("using one 8kB write")) {
        in = true;
        continue;
      }
      if (in && line.contains("using two 8kB writes")) break;
      String[] w = line.trim().split("\\s+");
      if (in && w.length >= 4 && w[0].equals(method) && w[w.length - 1].equals("usecs/op")) {
        return Double.parseDouble(w[w.length - 2]);
      }
    }
    throw new IOException("pg_test_fsync printed no " + method + " figure for one 8kB write");
  }

  private Run pgbench(Path script, int clients, int cores, long postmaster) throws IOException {
    int threads = Math.max(1, Math.min(clients, cores));
    String options = System.getenv("PGOPTIONS");
    Map<String, String> env = Map.of("PGOPTIONS", (options == null ? "" : options + " ") + "-c synchronous_commit=off");
    long before = postmaster > 0 ? serverTicks(postmaster) : 0;
    int children = postmaster > 0 ? children(postmaster).size() : 0;
    List<String> cmd = List.of(pgbench.toString(), "-n", "-f", script.toString(), "-c", Integer.toString(clients),
        "-j", Integer.toString(threads), "-T", String.format(Locale.ROOT, "%.0f", Math.max(1, settings.pgbenchSeconds())));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    // pgbench's own CPU: its process's, read while it runs (Java has no getrusage of its children)
    double[] cpu = {0};
    Thread poll = new Thread(() -> {
      while (p.isAlive()) {
        p.info().totalCpuDuration().ifPresent(d -> cpu[0] = d.toNanos() / 1e9);
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "tlogsim-pgbench-cpu");
    poll.setDaemon(true);
    poll.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(Math.round(settings.pgbenchSeconds()) + 600, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("pgbench -c " + clients + " did not finish");
      }
      poll.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    if (p.exitValue() != 0) throw new IOException("pgbench -c " + clients + " failed: " + firstLine(text));
    double server = Double.NaN;
    if (postmaster > 0) {
      settle(postmaster, children);
      server = (serverTicks(postmaster) - before) / (double) ticksPerSecond();
    }
    return new Run(clients, number(TPS, text, "tps"), (long) number(TXNS, text, "transactions"),
        number(LATENCY, text, "latency average"), server, cpu[0]);
  }

  private static double number(Pattern p, String text, String what) throws IOException {
    Matcher m = p.matcher(text);
    if (!m.find()) throw new IOException("pgbench printed no " + what + ": " + firstLine(text));
    return Double.parseDouble(m.group(1));
  }

  /** The backends of a finished pgbench exit on their own: wait until the postmaster has its children of before. */
  private static void settle(long postmaster, int children) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (children(postmaster).size() > children && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static List<Long> children(long pid) {
    return ProcessHandle.of(pid).map(h -> h.children().map(ProcessHandle::pid).toList()).orElse(List.of());
  }

  /**
   * CPU ticks the server has used: the postmaster's and its live children's own (utime + stime), and what the exited
   * ones (earlier backends, reaped by the postmaster) left in its cutime + cstime.
   */
  static long serverTicks(long postmaster) {
    Stat pm = stat(postmaster);
    if (pm == null) return 0;
    long t = pm.utime() + pm.stime() + pm.cutime() + pm.cstime();
    for (long c : children(postmaster)) {
      Stat g = stat(c);
      if (g != null) t += g.utime() + g.stime();
    }
    return t;
  }

  /** What /proc/PID/stat says of a process (proc(5): comm 2, ppid 4, utime 14, stime 15, cutime 16, cstime 17). */
  record Stat(String comm, long ppid, long utime, long stime, long cutime, long cstime) {}

  /** The process's /proc/PID/stat, or null when it is gone or not visible. */
  static Stat stat(long pid) {
    try {
      String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      int close = s.lastIndexOf(')');
      String comm = s.substring(s.indexOf('(') + 1, close);
      String[] f = s.substring(close + 2).trim().split("\\s+"); // f[k] is field k + 3
      return new Stat(comm, Long.parseLong(f[1]), Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
          Long.parseLong(f[14]));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static String statusField(long pid, String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith(field + ":")) return line.substring(field.length() + 1).strip();
    }
    throw new IOException("/proc/" + pid + "/status has no " + field);
  }

  private static long ticksPerSecond() {
    return 100; // USER_HZ: what /proc reports in on Linux whatever the kernel's HZ (proc(5))
  }

  private record Out(int code, String text) {}

  private static Out exec(List<String> cmd, Map<String, String> env, long timeoutSeconds) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putAll(new HashMap<>(env));
    Process p = pb.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(cmd.get(0) + " did not finish within " + timeoutSeconds + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    return new Out(p.exitValue(), text);
  }

  private static String firstLine(String text) {
    String t = text.strip();
    int nl = t.indexOf('\n');
    return (nl < 0 ? t : t.substring(0, nl)).strip();
  }
}
