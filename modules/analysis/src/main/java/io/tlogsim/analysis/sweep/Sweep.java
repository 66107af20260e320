package io.tlogsim.analysis.sweep;

import io.tlogsim.analysis.Stats;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.SummaryPaths;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs an {@link Experiment} into a directory: {@code runs.csv} (one row per run, written as each ends),
 * {@code points.csv} (per point and metric: mean, 95% confidence interval, standard deviation, runs) and
 * {@code report.html} (a chart per metric). An interrupted sweep continues where it stopped: the runs already in
 * runs.csv are not run again (the directory keeps the experiment's text to check it is the same experiment).
 */
public final class Sweep {
  public static final String RUNS = "runs.csv";
  public static final String POINTS = "points.csv";
  public static final String SPEC = "experiment.conf";

  /** A run that ended: its place in the grid, its seed, the metrics, its digest and wall time. */
  public record Row(int point, int replication, long seed, List<String> values, double[] metrics, String digest,
      double wallSeconds) {}

  /** What the listener hears after each run: done so far (resumed ones included), of how many. */
  public record Progress(int done, int total, int resumed, Row last) {}

  /**
   * Where a sweep's runs run: here on threads ({@link #here}), or on a cluster's nodes. Called from as many threads at
   * once as the sweep runs in parallel; blocks until the run ends and returns its summary (summary.json's content).
   */
  @FunctionalInterface
  public interface Runs {
    Map<String, Object> summary(Scenario scenario, int point, int replication);
  }

  /** Each run here, with the experiment's kernel threads. */
  public static Runs here(Experiment e) {
    return (s, point, replication) -> s.run(new RunControl(s.seed(), e.threads(), null)).summary();
  }

  private final Experiment e;
  private final Path dir;
  private final Runs runs;

  /** A sweep whose runs run here. */
  public Sweep(Experiment e, Path dir) {
    this(e, dir, here(e));
  }

  public Sweep(Experiment e, Path dir, Runs runs) {
    this.e = e;
    this.dir = dir;
    this.runs = runs;
  }

  /** Runs what is left of the grid; returns every row (resumed and new) in grid order. */
  public List<Row> run(int parallel, Consumer<Progress> listener) throws IOException {
    Files.createDirectories(dir);
    Path spec = dir.resolve(SPEC);
    if (Files.exists(spec) && !Files.readString(spec).equals(e.text())) {
      throw new BadInputException(dir + " holds the results of another experiment (" + SPEC + " differs); give"
          + " another --out, or delete it");
    }
    Files.writeString(spec, e.text());
    Map<String, Row> rows = new TreeMap<>();
    Path runsCsv = dir.resolve(RUNS);
    if (Files.exists(runsCsv)) {
      for (Row r : read(runsCsv)) rows.put(key(r.point(), r.replication()), r);
    } else {
      Files.writeString(runsCsv, header() + "\n");
    }
    int resumed = rows.size();
    List<Experiment.Point> points = e.points();
    int[] total = {e.runs()};
    try (BufferedWriter out = Files.newBufferedWriter(runsCsv, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
      // the first pass: every point, replication by replication (so that a stopped sweep has every point begun)
      List<int[]> todo = new ArrayList<>();
      for (int rep = 0; rep < e.replications(); rep++) {
        for (Experiment.Point p : points) todo.add(new int[] {p.index(), rep});
      }
      runAll(todo, rows, out, parallel, listener, total, resumed);
      // then more replications where a mean is not yet precise enough; the decisions depend only on results, which
      // are deterministic, so a resumed sweep takes the same ones
      int[] decided = new int[points.size()]; // per point: replications decided so far (rounds 0 .. k)
      java.util.Arrays.fill(decided, e.replications());
      while (e.precision().on()) {
        List<int[]> more = moreReplications(rows, decided);
        if (more.isEmpty()) break;
        total[0] = rows.size() + (int) more.stream().filter(k -> !rows.containsKey(key(k[0], k[1]))).count();
        runAll(more, rows, out, parallel, listener, total, resumed);
      }
    }
    List<Row> all = new ArrayList<>(rows.values());
    all.sort((a, b) -> a.point() != b.point() ? Integer.compare(a.point(), b.point())
        : Integer.compare(a.replication(), b.replication()));
    writePoints(all);
    Files.writeString(dir.resolve(SweepReport.FILE), new SweepReport(e, all).html());
    return all;
  }

  /** Runs the (point, replication) pairs not in {@code rows} yet, {@code parallel} at once, appending each row. */
  private void runAll(List<int[]> pairs, Map<String, Row> rows, BufferedWriter out, int parallel,
      Consumer<Progress> listener, int[] total, int resumed) {
    List<Experiment.Point> points = e.points();
    Object lock = new Object();
    List<Runnable> todo = new ArrayList<>();
    for (int[] pr : pairs) {
      if (rows.containsKey(key(pr[0], pr[1]))) continue;
      Experiment.Point p = points.get(pr[0]);
      int replication = pr[1];
      todo.add(() -> {
        Row row = runOne(p, replication);
        synchronized (lock) {
          rows.put(key(row.point(), row.replication()), row);
          try {
            out.write(csv(row));
            out.newLine();
            out.flush();
          } catch (IOException ex) {
            throw new UncheckedIOException(ex);
          }
          listener.accept(new Progress(rows.size(), Math.max(total[0], rows.size()), resumed, row));
        }
      });
    }
    if (todo.isEmpty()) return;
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel), r -> {
      Thread t = new Thread(r, "sweep");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (Runnable t : todo) futures.add(pool.submit(t));
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException ex) {
          pool.shutdownNow();
          if (ex.getCause() instanceof RuntimeException re) throw re;
          throw new IllegalStateException(ex.getCause());
        }
      }
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      pool.shutdownNow();
      throw new IllegalStateException("interrupted");
    } finally {
      pool.shutdown();
    }
  }

  /**
   * The next replications of the points whose precision metrics are not yet precise: for each, as many as the spread
   * seen so far says it needs ((2 t s / (width x mean))^2 in all), at most doubling its runs and at most
   * maxReplications; replications are numbered on from the point's last.
   */
  private List<int[]> moreReplications(Map<String, Row> rows, int[] decided) {
    Experiment.Precision pr = e.precision();
    // only the replications of the rounds decided so far count (a resumed sweep may hold later ones already)
    List<Row> counted = rows.values().stream().filter(r -> r.replication() < decided[r.point()]).toList();
    Map<Integer, List<Stats>> stats = stats(e, counted);
    List<int[]> more = new ArrayList<>();
    for (Map.Entry<Integer, List<Stats>> en : stats.entrySet()) {
      int n = en.getValue().get(0).n();
      int have = decided[en.getKey()];
      if (have >= pr.maxReplications()) continue;
      int need = have;
      for (String m : pr.metrics()) {
        Stats st = en.getValue().get(e.metrics().indexOf(m));
        if (precise(st, pr.width())) continue;
        double target = pr.width() * Math.abs(st.mean()) / 2; // the half-width wanted
        double estimate = target > 0 && Double.isFinite(st.stddev())
            ? Math.pow(Stats.t975(Math.max(1, n - 1)) * st.stddev() / target, 2) : 2.0 * have;
        need = Math.max(need, (int) Math.min(Math.ceil(estimate), 2L * have));
        need = Math.max(need, have + 1);
      }
      need = Math.min(need, pr.maxReplications());
      for (int rep = have; rep < need; rep++) more.add(new int[] {en.getKey(), rep});
      decided[en.getKey()] = need;
    }
    return more;
  }

  /** Whether a mean is known to within {@code width} x |mean| (the interval's full width); a constant is. */
  public static boolean precise(Stats st, double width) {
    if (st.n() < 2) return false;
    if (st.stddev() == 0) return true;
    return st.ci95High() - st.ci95Low() < width * Math.abs(st.mean());
  }

  private Row runOne(Experiment.Point p, int replication) {
    Scenario s = e.scenario(p, replication);
    Map<String, Object> summary = runs.summary(s, p.index(), replication);
    double[] m = new double[e.metrics().size()];
    // as runs.csv keeps them (6 significant digits): a resumed sweep's statistics are then the same to the last digit
    for (int k = 0; k < m.length; k++) m[k] = asStored(SummaryPaths.number(summary, e.metrics().get(k)));
    Object run = summary.get("run");
    double wall = run instanceof Map<?, ?> rm && rm.get("wallSeconds") instanceof Number n ? n.doubleValue() : 0;
    return new Row(p.index(), replication, s.seed(), p.values(), m, String.valueOf(summary.get("digest")), wall);
  }

  /** Per point and metric: the statistics over its replications. */
  public static Map<Integer, List<Stats>> stats(Experiment e, List<Row> rows) {
    Map<Integer, List<Row>> byPoint = new TreeMap<>();
    for (Row r : rows) byPoint.computeIfAbsent(r.point(), k -> new ArrayList<>()).add(r);
    Map<Integer, List<Stats>> out = new LinkedHashMap<>();
    byPoint.forEach((point, rs) -> {
      List<Stats> perMetric = new ArrayList<>();
      for (int k = 0; k < e.metrics().size(); k++) {
        int kk = k;
        perMetric.add(Stats.of(rs.stream().mapToDouble(r -> r.metrics()[kk]).filter(Double::isFinite).toArray()));
      }
      out.put(point, perMetric);
    });
    return out;
  }

  /** The point where a metric's mean is least precise: its 95% CI half-width relative to the mean. */
  public record Precision(String metric, double widest, int point) {}

  /**
   * Per metric, the widest 95% confidence interval over the points, its full width over the mean (0 where every
   * replication gave the same value, infinite where a mean of 0 has a spread or a point has one run).
   */
  public static List<Precision> precision(Experiment e, List<Row> rows) {
    List<Precision> out = new ArrayList<>();
    Map<Integer, List<Stats>> stats = stats(e, rows);
    for (int k = 0; k < e.metrics().size(); k++) {
      double widest = 0;
      int at = -1;
      for (Map.Entry<Integer, List<Stats>> en : stats.entrySet()) {
        Stats st = en.getValue().get(k);
        double rel = st.n() < 2 ? Double.POSITIVE_INFINITY
            : st.stddev() == 0 ? 0 : st.mean() == 0 ? Double.POSITIVE_INFINITY : 2 * st.relativeHalfWidth();
        if (at < 0 || rel > widest) {
          widest = rel;
          at = en.getKey();
        }
      }
      out.add(new Precision(e.metrics().get(k), widest, at));
    }
    return out;
  }

  private void writePoints(List<Row> rows) throws IOException {
    StringBuilder b = new StringBuilder("point");
    for (Experiment.Axis a : e.axes()) b.append(',').append(a.key());
    for (String m : e.metrics()) {
      b.append(',').append(m).append(".mean,").append(m).append(".ci95Low,").append(m).append(".ci95High,")
          .append(m).append(".stddev,").append(m).append(".n");
    }
    b.append('\n');
    List<Experiment.Point> points = e.points();
    stats(e, rows).forEach((point, perMetric) -> {
      b.append(point);
      for (String v : points.get(point).values()) b.append(',').append(v);
      for (Stats s : perMetric) {
        b.append(',').append(num(s.mean())).append(',').append(num(s.ci95Low())).append(',')
            .append(num(s.ci95High())).append(',').append(num(s.stddev())).append(',').append(s.n());
      }
      b.append('\n');
    });
    Files.writeString(dir.resolve(POINTS), b.toString());
  }

  private String header() {
    StringBuilder b = new StringBuilder("point,replication,seed");
    for (Experiment.Axis a : e.axes()) b.append(',').append(a.key());
    for (String m : e.metrics()) b.append(',').append(m);
    return b.append(",digest,wallSeconds").toString();
  }

  private static String csv(Row r) {
    StringBuilder b = new StringBuilder().append(r.point()).append(',').append(r.replication()).append(',')
        .append(r.seed());
    for (String v : r.values()) b.append(',').append(v);
    for (double m : r.metrics()) b.append(',').append(num(m));
    return b.append(',').append(r.digest()).append(',').append(num(r.wallSeconds())).toString();
  }

  private List<Row> read(Path csv) throws IOException {
    List<Row> out = new ArrayList<>();
    List<String> lines = Files.readAllLines(csv);
    if (lines.isEmpty() || !lines.get(0).equals(header())) {
      throw new BadInputException(csv + " is not this experiment's runs.csv (its header differs)");
    }
    int axes = e.axes().size(), metrics = e.metrics().size();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length != 3 + axes + metrics + 2) continue; // a line cut short by an interruption: run it again
      double[] m = new double[metrics];
      for (int k = 0; k < metrics; k++) m[k] = f[3 + axes + k].isEmpty() ? Double.NaN : Double.parseDouble(f[3 + axes + k]);
      out.add(new Row(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]),
          List.of(f).subList(3, 3 + axes), m, f[3 + axes + metrics], Double.parseDouble(f[f.length - 1])));
    }
    return out;
  }

  private static String key(int point, int replication) {
    return String.format(Locale.ROOT, "%08d/%06d", point, replication);
  }

  private static double asStored(double v) {
    String t = num(v);
    return t.isEmpty() ? Double.NaN : Double.parseDouble(t);
  }

  static String num(double v) {
    if (!Double.isFinite(v)) return "";
    if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
    return String.format(Locale.ROOT, "%.6g", v);
  }
}
