package io.tlogsim.analysis.advise;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.database.logspace.VlfRule;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.SummaryPaths;
import io.tlogsim.scenario.Text;
import io.tlogsim.storage.ManagedInstanceBand;
import io.tlogsim.storage.PremiumCatalog;
import io.tlogsim.storage.StorageTables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code tlogsim advise}: which flush policy reaches a commit rate within a loss bound, found by simulated runs of the
 * commit path (the built-in oltp-commits load: sessions inserting one row per transaction with a think time), and how
 * to size the log for it. For each candidate policy (on each managed-instance file band when the device is
 * {@code premium}) the search finds the fewest sessions whose simulated rate reaches the target with a margin; a
 * policy is eligible when its runs exposed no more than the loss bound (commits acknowledged before they were
 * hardened, at worst, in ms of the run's commits); the advice is the eligible one with the lowest p99 latency. The
 * log's size, growth, VLFs, backup cadence and cloud file band follow from its log rate (or the given growth) with
 * the rules of tlogsim.advisor in application.conf.
 */
public final class Advisor {
  /** What the user asks. {@code logGrowthGiBPerHour} <= 0: take it from the simulated log rate. */
  public record Request(double targetCommitsPerSecond, double maxLossMs, String device, double logGrowthGiBPerHour,
      String sqlServerVersion, long seed, String load, int vCores) {
    /** On the built-in load, {@link #BASE}, with the instance's vCores of tlogsim.advisor. */
    public Request(double targetCommitsPerSecond, double maxLossMs, String device, double logGrowthGiBPerHour,
        String sqlServerVersion, long seed) {
      this(targetCommitsPerSecond, maxLossMs, device, logGrowthGiBPerHour, sqlServerVersion, seed, BASE,
          defaultVCores());
    }

    public Request(double targetCommitsPerSecond, double maxLossMs, String device, double logGrowthGiBPerHour,
        String sqlServerVersion, long seed, String load) {
      this(targetCommitsPerSecond, maxLossMs, device, logGrowthGiBPerHour, sqlServerVersion, seed, load,
          defaultVCores());
    }

    public Request {
      if (load == null || load.isBlank()) {
        throw new BadInputException("--load: must name a commit-path or log-space scenario (built-in or a .conf file),"
            + " got '" + load + "'");
      }
      if (!(targetCommitsPerSecond > 0 && targetCommitsPerSecond <= 10_000_000)) {
        throw new BadInputException("--target-commits-per-second: must be a number above 0 and at most 10,000,000,"
            + " got " + Text.plain(targetCommitsPerSecond));
      }
      if (vCores < 0 || vCores > 1024) {
        throw new BadInputException("--vcores: must be an integer from 0 (no log-rate cap) to 1024, got " + vCores);
      }
      if (!(maxLossMs >= 0 && maxLossMs <= 3_600_000)) {
        throw new BadInputException("--max-loss-ms: must be from 0 (fully durable) to 3,600,000, got "
            + Text.plain(maxLossMs));
      }
      if (!(logGrowthGiBPerHour >= 0 && logGrowthGiBPerHour <= 1_000_000)) {
        throw new BadInputException("--log-growth-per-hour: must be from 0 to 1,000,000 GiB, got "
            + Text.plain(logGrowthGiBPerHour));
      }
      try {
        VlfRule.of(sqlServerVersion);
      } catch (IllegalArgumentException e) {
        throw new BadInputException("--sql-server-version: must be one of pre-2014, 2014, 2022, got '"
            + sqlServerVersion + "'");
      }
    }
  }

  /** A flush policy as the advisor tries it: its name and the commit-path settings it stands for. */
  public record Policy(String name, Map<String, String> settings) {}

  /** The candidates, most durable first (docs/experiments.md). */
  public static final List<Policy> POLICIES = List.of(
      new Policy("per-commit", Map.of("flushPolicy", "per-commit")),
      new Policy("group-commit-200us", Map.of("flushPolicy", "group-commit", "groupCommitDelayUs", "200")),
      new Policy("group-commit-1ms", Map.of("flushPolicy", "group-commit", "groupCommitDelayUs", "1000")),
      new Policy("delayed-durability", Map.of("flushPolicy", "delayed-durability", "delayedDurability", "FORCED")),
      new Policy("buffered", Map.of("flushPolicy", "buffered")));

  /** One simulated run: its settings and what it measured. */
  public record Run(String load, Map<String, String> settings, long seed, double commitsPerSecond, double p50Us,
      double p99Us, long maxExposed, double logWritesPerSecond, double logMBps, double logBytesPerSecond,
      String digest) {
    public int sessions() {
      return Integer.parseInt(settings.get("sessions"));
    }

    /** The worst exposure in ms of this run's commits: a crash then loses about this much acknowledged work. */
    public double lossMs() {
      return maxExposed == 0 ? 0 : commitsPerSecond > 0 ? maxExposed / commitsPerSecond * 1000 : Double.POSITIVE_INFINITY;
    }

    public String scenarioLine() {
      StringBuilder b = new StringBuilder("tlogsim run " + load);
      settings.forEach((k, v) -> b.append(" --set ").append(k).append('=').append(v));
      return b.append(" --seed ").append(seed).toString();
    }
  }

  /** A policy's outcome: the run that reached the target (null if none), every run tried, and why it fails. */
  public record Option(Policy policy, String deviceLabel, Run reached, Run best, List<Run> runs, boolean eligible,
      String verdict) {}

  /** The log's sizing for the advised policy. */
  public record Sizing(double growthGiBPerHour, String growthSource, int backupMinutes, double backupGiB,
      double backupSeconds, boolean backupWithinBound, double logGiB, long growthMiB,
      int vlfsAtCreation, int vlfsPerGrowth, boolean growthZeroed, String cloudBand, double cloudFileGiB,
      double cloudIopsNeeded, double cloudMiBpsNeeded) {}

  public record Advice(Request request, List<Option> options, Option chosen, Sizing sizing) {}

  static final String BASE = "oltp-commits";
  private static final int MAX_SESSIONS = 16_384;

  private final Request req;
  private final Config conf;
  private final Consumer<String> progress;
  private final int parallel;

  public Advisor(Request req, int parallel, Consumer<String> progress) {
    this.req = req;
    this.conf = ConfigFactory.load().getConfig("tlogsim.advisor");
    this.progress = progress;
    this.parallel = parallel;
    // the load must be a commit-path or log-space scenario (sessions, flush policy, log device, warm-up) and the device one it
    // takes (a model name or profile:NAME): refused here, before any run
    Map<String, String> probe = new LinkedHashMap<>(Map.of("sessions", "1"));
    probe.putAll(POLICIES.get(1).settings());
    probe.put("warmupSeconds", conf.getString("warmupSeconds"));
    try {
      scenario(probe);
    } catch (BadInputException e) {
      if (e.getMessage().startsWith("logDevice:")) throw e;
      throw new BadInputException("--load " + req.load() + ": " + e.getMessage()
          + " (the load must be a commit-path or log-space scenario: sessions, flushPolicy, logDevice, warmupSeconds)");
    }
  }

  /** The managed instance's vCores the log-rate cap assumes unless --vcores says (tlogsim.advisor.vCores). */
  public static int defaultVCores() {
    return ConfigFactory.load().getInt("tlogsim.advisor.vCores");
  }

  /**
   * The log records one commit of the load writes, in bytes: measured by a short run of it (a few sessions, per
   * commit, on the device asked for), for a target given as a log rate (MB/s) rather than a commit rate.
   */
  public static double recordBytesPerCommit(String load, String device, long seed) {
    Map<String, String> set = new LinkedHashMap<>(Map.of("sessions", "4", "flushPolicy", "per-commit",
        "logDevice", device, "warmupSeconds", "0"));
    set.put("simulatedSeconds", ConfigFactory.load().getString("tlogsim.advisor.simulatedSeconds"));
    Scenario s = ScenarioKinds.loader().load(load, set).withSeed(seed, "advise");
    Map<String, Object> sum = s.run(new RunControl(s.seed(), 1, null)).summary();
    double commits = SummaryPaths.number(sum, "commits.count");
    double bytes = SummaryPaths.number(sum, "log.recordBytes");
    if (!(commits > 0) || !(bytes > 0)) {
      throw new BadInputException("--target-mb-per-second: the load " + load + " commits nothing in a short run, so "
          + "its log per commit is unknown; give --target-commits-per-second");
    }
    return bytes / commits;
  }

  double margin() {
    return conf.getDouble("targetMargin");
  }

  /** The rate a log backup reads at and the time it should take at most (tlogsim.advisor). */
  public double logBackupMBps() {
    return conf.getDouble("logBackupMBps");
  }

  public double maxLogBackupSeconds() {
    return conf.getDouble("maxLogBackupSeconds");
  }

  public Advice advise() {
    List<Map<String, String>> devices = deviceCandidates();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel), r -> {
      Thread t = new Thread(r, "advise");
      t.setDaemon(true);
      return t;
    });
    List<Option> options = new ArrayList<>();
    try {
      List<Future<Option>> fs = new ArrayList<>();
      for (Policy p : POLICIES) fs.add(pool.submit(() -> optionFor(p, devices)));
      for (Future<Option> f : fs) options.add(f.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) throw re;
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
    Option chosen = null;
    for (Option o : options) {
      if (o.eligible() && (chosen == null || o.reached().p99Us() < chosen.reached().p99Us())) chosen = o;
    }
    Sizing sizing = chosen == null ? null : sizing(chosen.reached());
    return new Advice(req, options, chosen, sizing);
  }

  /** premium: a candidate per managed-instance band (the file at the band's top), smallest first; else the device. */
  private List<Map<String, String>> deviceCandidates() {
    List<Map<String, String>> out = new ArrayList<>();
    if (req.device().equals("premium")) {
      // each band's smallest file (its limits are the band's, whatever the size in it): the size the advice names
      long lower = 0;
      for (ManagedInstanceBand b : StorageTables.premium().bands()) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("logDevice", "premium");
        d.put("premiumTier", "auto");
        d.put("premiumFileSizeGiB", String.valueOf(lower + 1));
        d.put("premiumLogRateVCores", String.valueOf(req.vCores()));
        out.add(d);
        lower = b.maxGiB();
      }
    } else {
      out.add(Map.of("logDevice", req.device()));
    }
    return out;
  }

  private Option optionFor(Policy p, List<Map<String, String>> devices) {
    List<Run> all = new ArrayList<>();
    Run best = null;
    String bestDevice = "";
    for (Map<String, String> dev : devices) {
      Map<String, String> base = new LinkedHashMap<>(p.settings());
      base.putAll(dev);
      List<Run> runs = new ArrayList<>();
      Run reached = search(base, runs);
      all.addAll(runs);
      String label = deviceLabel(dev);
      for (Run r : runs) {
        if (best == null || r.commitsPerSecond() > best.commitsPerSecond()) {
          best = r;
          bestDevice = label;
        }
      }
      if (reached != null) {
        // the loss at the operating point, with the same margin as the rate (another seed may expose a little more)
        double loss = reached.lossMs();
        boolean eligible = req.maxLossMs() == 0 ? reached.maxExposed() == 0
            : loss * (1 + margin()) <= req.maxLossMs();
        String verdict = eligible ? "meets both" : String.format(Locale.ROOT,
            "exposes %s ms of commits (bound %s ms)", fmt(loss), fmt(req.maxLossMs()));
        return new Option(p, label, reached, best, all, eligible, verdict);
      }
    }
    return new Option(p, bestDevice, null, best, all, false, String.format(Locale.ROOT,
        "reaches at most %,.0f commits/s (%d sessions)", best.commitsPerSecond(), best.sessions()));
  }

  private static String deviceLabel(Map<String, String> dev) {
    String d = dev.get("logDevice");
    return d.equals("premium") ? "premium file " + dev.get("premiumFileSizeGiB") + " GiB" : d;
  }

  /** The managed-instance file the run used (premium), or null. */
  private static Double runFileGiB(Run r) {
    String g = r.settings().get("premiumFileSizeGiB");
    return g == null ? null : Double.parseDouble(g);
  }

  /**
   * The fewest sessions whose rate reaches the target x (1 + margin): doubling from 1 until it does (or the rate stops
   * growing: the policy saturates), then halving the interval to within 5% of the sessions.
   */
  private Run search(Map<String, String> base, List<Run> runs) {
    double want = req.targetCommitsPerSecond() * (1 + margin());
    int lo = 0;
    Run hiRun = null;
    Run prev = null;
    for (int n = 1; n <= MAX_SESSIONS; n *= 2) {
      Run r = run(base, n, runs);
      if (r.commitsPerSecond() >= want) {
        hiRun = r;
        break;
      }
      if (prev != null && r.commitsPerSecond() < prev.commitsPerSecond() * 1.02) return null; // saturated
      prev = r;
      lo = n;
    }
    if (hiRun == null) return null;
    int hi = hiRun.sessions();
    while (hi - lo > Math.max(1, hi / 20)) {
      int mid = (lo + hi) >>> 1;
      Run r = run(base, mid, runs);
      if (r.commitsPerSecond() >= want) {
        hi = mid;
        hiRun = r;
      } else {
        lo = mid;
      }
    }
    return hiRun;
  }

  private Run run(Map<String, String> base, int sessions, List<Run> runs) {
    Map<String, String> set = new LinkedHashMap<>();
    set.put("sessions", String.valueOf(sessions));
    set.putAll(base);
    set.put("simulatedSeconds", conf.getString("simulatedSeconds"));
    set.put("warmupSeconds", conf.getString("warmupSeconds"));
    Scenario s = scenario(set);
    Map<String, Object> sum = s.run(new RunControl(s.seed(), 1, null)).summary();
    double seconds = SummaryPaths.number(sum, "simulatedSeconds");
    Run r = new Run(req.load(), set, s.seed(), SummaryPaths.number(sum, "commits.perSecond"),
        SummaryPaths.number(sum, "commits.latencyUs.p50"), SummaryPaths.number(sum, "commits.latencyUs.p99"),
        (long) SummaryPaths.number(sum, "commits.maxAcknowledgedNotHardened"),
        SummaryPaths.number(sum, "devices.log-device.writes") / seconds,
        SummaryPaths.number(sum, "devices.log-device.mbPerSec"), SummaryPaths.number(sum, "log.bytes") / seconds,
        String.valueOf(sum.get("digest")));
    runs.add(r);
    progress.accept(String.format(Locale.ROOT, "%-20s %-24s %6d sessions: %,12.0f commits/s, p99 %s us",
        set.get("flushPolicy") + (set.containsKey("groupCommitDelayUs") ? " " + set.get("groupCommitDelayUs") + " us" : ""),
        deviceLabel(set), sessions, r.commitsPerSecond(), fmt(r.p99Us())));
    return r;
  }

  private Scenario scenario(Map<String, String> set) {
    Map<String, String> o = new LinkedHashMap<>(set);
    o.putIfAbsent("logDevice", req.device());
    return ScenarioKinds.loader().load(req.load(), o).withSeed(req.seed(), "advise");
  }

  /** The load the runs put on the log: its scenario's name and description. */
  public String loadDescription() {
    Scenario s = ScenarioKinds.loader().load(req.load(), Map.of()); // its own words, before the advisor's --set
    return s.name() + (s.description().isEmpty() ? "" : ": " + s.description());
  }

  /** The log's size, growth and VLFs, backup cadence and cloud file for the advised run. */
  Sizing sizing(Run r) {
    double perHour;
    String source;
    if (req.logGrowthGiBPerHour() > 0) {
      perHour = req.logGrowthGiBPerHour();
      source = "given";
    } else {
      // the run's log bytes per second, scaled to the target rate
      perHour = r.logBytesPerSecond() * (req.targetCommitsPerSecond() / r.commitsPerSecond()) * 3600 / GIB;
      source = "simulated";
    }
    Sizing sz = sizing(perHour, source, r.logWritesPerSecond() * req.targetCommitsPerSecond() / r.commitsPerSecond(),
        r.logMBps() * 1e6 / MIB * req.targetCommitsPerSecond() / r.commitsPerSecond());
    Double ran = runFileGiB(r);
    if (ran == null) return sz;
    // the file the simulated run reached the target on: the advice names it (a larger log needs a larger file)
    String band = null;
    double file = Math.max(ran, Math.ceil(sz.logGiB()));
    for (ManagedInstanceBand b : StorageTables.premium().bands()) {
      if (file <= b.maxGiB()) {
        band = b.name();
        break;
      }
    }
    return new Sizing(sz.growthGiBPerHour(), sz.growthSource(), sz.backupMinutes(), sz.backupGiB(),
        sz.backupSeconds(), sz.backupWithinBound(), sz.logGiB(), sz.growthMiB(), sz.vlfsAtCreation(),
        sz.vlfsPerGrowth(), sz.growthZeroed(), band, file, sz.cloudIopsNeeded(), sz.cloudMiBpsNeeded());
  }

  static final double GIB = 1L << 30;
  static final double MIB = 1L << 20;

  /**
   * Backup cadence: the longest of backupMinutes whose log a backup reads within maxLogBackupSeconds at
   * logBackupMBps. Log size: the log of logSizeBackupIntervals cadences (a late backup does not make it grow), at
   * least minLogMiB, in whole growth increments. Growth: of the ladder, the one adding the fewest VLFs per GiB under
   * the version's rule, zero-filled growths last, at most a quarter of the log. Cloud file: the smallest
   * managed-instance band whose IOPS and MiB/s carry the log's writes at the target, the file at least the log.
   */
  Sizing sizing(double perHourGiB, String source, double writesPerSecond, double mibPerSecond) {
    VlfRule rule = VlfRule.of(req.sqlServerVersion());
    double readable = conf.getDouble("maxLogBackupSeconds") * conf.getDouble("logBackupMBps") * 1e6 / GIB;
    List<Integer> cadences = conf.getIntList("backupMinutes");
    int cadence = cadences.get(0);
    for (int m : cadences) if (perHourGiB * m / 60 <= readable) cadence = m;
    // the shortest cadence offered may still be too much log for one backup to read within the bound: said, not hid
    double backupGiB = perHourGiB * cadence / 60;
    double backupSeconds = backupGiB * GIB / (conf.getDouble("logBackupMBps") * 1e6);
    boolean withinBound = backupGiB <= readable;
    double logGiB = Math.max(conf.getDouble("minLogMiB") / 1024,
        perHourGiB * cadence / 60 * conf.getDouble("logSizeBackupIntervals"));
    long best = -1;
    double bestPerGiB = 0;
    boolean bestZeroed = true;
    for (long mib : conf.getLongList("growthLadderMiB")) {
      long g = mib << 20;
      long size = (long) (logGiB * GIB);
      if (best >= 0 && g > size / 4) continue;
      double perGiB = rule.vlfs(g, size) / (g / GIB);
      boolean zeroed = rule.zeroesGrowth(g);
      boolean better = best < 0 || (!zeroed && bestZeroed) || (zeroed == bestZeroed && perGiB <= bestPerGiB);
      if (better) {
        best = mib;
        bestPerGiB = perGiB;
        bestZeroed = zeroed;
      }
    }
    long growthMiB = best;
    // the log in whole increments
    double logMiB = Math.ceil(logGiB * 1024 / growthMiB) * growthMiB;
    long logBytes = (long) (logMiB * MIB);
    int vlfsAtCreation = rule.vlfs(logBytes, 0);
    int vlfsPerGrowth = rule.vlfs(growthMiB << 20, logBytes);
    PremiumCatalog tables = StorageTables.premium();
    double iopsNeeded = writesPerSecond * (1 + margin());
    double mibNeeded = mibPerSecond * (1 + margin());
    String band = null;
    double fileGiB = 0;
    double lower = 0;
    for (ManagedInstanceBand b : tables.bands()) {
      if (b.iops() >= iopsNeeded && b.mibPerSec() >= mibNeeded && b.maxGiB() >= logMiB / 1024) {
        band = b.name();
        fileGiB = Math.max(logMiB / 1024, lower + 1); // just inside the band: its limits are what the file gets
        break;
      }
      lower = b.maxGiB();
    }
    return new Sizing(perHourGiB, source, cadence, backupGiB, backupSeconds, withinBound, logMiB / 1024, growthMiB,
        vlfsAtCreation, vlfsPerGrowth, bestZeroed, band, fileGiB, iopsNeeded, mibNeeded);
  }

  static String fmt(double v) {
    if (!Double.isFinite(v)) return "-";
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
