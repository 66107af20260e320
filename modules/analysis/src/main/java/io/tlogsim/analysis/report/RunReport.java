package io.tlogsim.analysis.report;

import io.tlogsim.database.series.CommitInterval;
import io.tlogsim.database.series.Histograms;
import io.tlogsim.database.series.LogInterval;
import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.scenario.SummaryPaths;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A run's report.html and its time series as CSV files, built from the run's summary and the per-interval facts
 * ({@link IntervalFact}) its models recorded: the same input live and in a replay from the journal, so the same
 * bytes. Commits and log writes get charts of their own (rates, latency percentiles, flush sizes, device load against
 * its cap); every other kind of interval fact (a device's seconds, log space, VLFs, ...) gets a CSV and a chart per
 * numeric field without changes here. Self-contained: inline SVG, CSS and a few lines of script, no network.
 */
public final class RunReport {
  public static final String FILE = "report.html";
  /** Flush-size charts drawn for at most this many databases of one run (the CSV has them all). */
  private static final int MAX_FLUSH_CHARTS = 6;

  /**
   * What a report is made of.
   *
   * @param humanLines the run's one-screen summary
   * @param tables the engine-style tables (onstat, waits, filestats), by name
   * @param facts the run's facts in the order the kernel handed them out (others than interval facts are ignored)
   * @param componentName the name of a component of the run's topology, by id
   * @param checkpointSeconds the simulated times of the run's checkpoints in its journal, in order (empty: none, or
   *     a run without a journal); marked on the timeline
   */
  public record Input(String runId, Map<String, Object> summary, List<String> humanLines,
      Map<String, List<String>> tables, List<RecordedFact> facts, IntFunction<String> componentName,
      List<Double> checkpointSeconds) {
    public Input(String runId, Map<String, Object> summary, List<String> humanLines, Map<String, List<String>> tables,
        List<RecordedFact> facts, IntFunction<String> componentName) {
      this(runId, summary, humanLines, tables, facts, componentName, List.of());
    }
  }

  private RunReport() {}

  /** report.html and the CSV files, by file name. */
  public static SortedMap<String, String> files(Input in) {
    Builder b = new Builder(in);
    b.build();
    return b.files;
  }

  /** A CSV table: its file name, header and rows (cells already formatted). */
  private record Csv(String file, List<String> header, List<List<String>> rows) {
    String text() {
      StringBuilder s = new StringBuilder(String.join(",", header)).append('\n');
      for (List<String> r : rows) s.append(String.join(",", r)).append('\n');
      return s.toString();
    }
  }

  private static final class Builder {
    private final Input in;
    private final SortedMap<String, String> files = new TreeMap<>();
    private final StringBuilder charts = new StringBuilder();
    private final List<String> csvNames = new ArrayList<>();

    /** The run's end (ns): no interval is drawn or written past it (a run often ends long before its limit). */
    private final long end;

    Builder(Input in) {
      this.in = in;
      this.end = runEndNanos(in.summary());
    }

    /** An interval's end, at most the run's end. */
    private long clip(long to) {
      return Math.min(to, end);
    }

    /** An interval that starts at or after the run's end and holds nothing: a component's tick past the end. */
    private boolean pastTheEnd(long from, boolean empty) {
      return from >= end && empty;
    }

    void build() {
      Map<String, Map<Long, Merged>> commits = new TreeMap<>(); // database -> interval start -> merged
      Map<String, Map<Long, LogMerged>> writes = new TreeMap<>();
      Map<Class<?>, List<RecordedFact>> others = new LinkedHashMap<>();
      for (RecordedFact f : in.facts()) {
        if (f.fact() instanceof CommitInterval c) {
          if (pastTheEnd(c.fromNanos(), c.commits() == 0)) continue;
          commits.computeIfAbsent(database(f.component()), k -> new TreeMap<>())
              .computeIfAbsent(c.fromNanos(), k -> new Merged(c.fromNanos(), clip(c.toNanos()), c.warmup())).add(c);
        } else if (f.fact() instanceof LogInterval l) {
          if (pastTheEnd(l.fromNanos(), l.writes() == 0)) continue;
          writes.computeIfAbsent(database(f.component()), k -> new TreeMap<>())
              .computeIfAbsent(l.fromNanos(), k -> new LogMerged(l.fromNanos(), clip(l.toNanos()))).add(l);
        } else if (f.fact() instanceof IntervalFact && f.fact() instanceof Record r) {
          Map<String, Object> v = fields(r);
          if (v.get("fromNanos") instanceof Number from && pastTheEnd(from.longValue(), allZero(v))) continue;
          others.computeIfAbsent(f.fact().getClass(), k -> new ArrayList<>()).add(f);
        }
      }
      if (!commits.isEmpty()) commitSeries(commits);
      if (!writes.isEmpty()) logSeries(writes);
      deviceCharts(others, writes);
      for (Map.Entry<Class<?>, List<RecordedFact>> e : others.entrySet()) genericSeries(e.getKey(), e.getValue());
      phases();
      files.put(FILE, html());
    }

    /** The database of a component: the prefix of its name ("" when the run has one). */
    private String database(int component) {
      String name = in.componentName().apply(component);
      int slash = name.lastIndexOf('/');
      return slash < 0 ? "" : name.substring(0, slash);
    }

    private void add(Csv csv) {
      files.put(csv.file(), csv.text());
      csvNames.add(csv.file());
    }

    private void chart(SvgChart c, String note) {
      charts.append("<figure class=\"chart\">\n").append(c.render(900, 340));
      if (note != null) charts.append("<figcaption>").append(SvgChart.esc(note)).append("</figcaption>\n");
      charts.append("</figure>\n");
    }

    // ------------------------------------------------------------------------------------------ commits

    private void commitSeries(Map<String, Map<Long, Merged>> byDb) {
      List<List<String>> rows = new ArrayList<>();
      SvgChart rate = new SvgChart("Commits per second", "simulated time, s", "commits/s");
      SvgChart lat = new SvgChart("Commit latency percentiles per interval", "simulated time, s", "latency, us");
      boolean one = byDb.size() == 1;
      boolean warm = false;
      boolean positiveLatencies = true;
      for (Map.Entry<String, Map<Long, Merged>> e : byDb.entrySet()) {
        String db = e.getKey();
        List<Merged> ms = new ArrayList<>(e.getValue().values());
        double[] x = new double[ms.size()], r = new double[ms.size()];
        double[][] p = new double[4][ms.size()];
        double[] pcts = {50, 90, 99, 99.9};
        for (int i = 0; i < ms.size(); i++) {
          Merged m = ms.get(i);
          warm |= m.warmup;
          double dt = (m.to - m.from) / 1e9;
          x[i] = (m.from + m.to) / 2e9;
          r[i] = dt > 0 ? m.commits / dt : Double.NaN;
          List<String> row = new ArrayList<>(List.of(db, seconds(m.from), seconds(m.to), String.valueOf(m.from),
              String.valueOf(m.to), String.valueOf(m.warmup), String.valueOf(m.commits), num(r[i])));
          for (int k = 0; k < pcts.length; k++) {
            p[k][i] = m.percentileUs(pcts[k]);
            if (p[k][i] <= 0) positiveLatencies = false;
          }
          row.add(m.commits == 0 ? "" : num(m.sum / (double) m.commits / 1e3));
          for (int k = 0; k < pcts.length; k++) row.add(num(p[k][i]));
          row.add(m.commits == 0 ? "" : num(m.max / 1e3));
          rows.add(row);
        }
        String name = one ? "commits" : db;
        rate.add(name, x, r);
        if (one) {
          String[] names = {"p50", "p90", "p99", "p99.9"};
          for (int k = 0; k < pcts.length; k++) lat.add(names[k], x, p[k]);
        } else {
          lat.add(db + " p50", x, p[0]);
          lat.add(db + " p90", x, p[1]);
          lat.add(db + " p99", x, p[2]);
        }
      }
      // the interval in seconds to read and in exact ns (as every other series has it) to join with `tlogsim facts`
      add(new Csv("commit-intervals.csv", List.of("database", "fromSeconds", "toSeconds", "fromNanos", "toNanos",
          "warmup", "commits", "commitsPerSecond", "latencyMeanUs", "latencyP50Us", "latencyP90Us", "latencyP99Us",
          "latencyP999Us", "latencyMaxUs"), rows));
      String note = warm ? "Intervals before the end of the warm-up are drawn too; the run's statistics leave them out."
          : null;
      chart(rate, note);
      // a log scale shows p50 and p99.9 apart; latencies of 0 (commits that wait for nothing) need a linear one
      chart(lat.logY(positiveLatencies).layered(), "Percentiles of the commits acknowledged in each interval (all "
          + "sessions); where they coincide (few commits in an interval) the wider line lies under the narrower.");
    }

    /** Pools' commits of one interval, merged exactly (their histograms added). */
    private static final class Merged {
      final long from;
      final long to;
      final boolean warmup;
      long commits;
      long sum;
      long max;
      final Histogram h = new Histogram(3);

      Merged(long from, long to, boolean warmup) {
        this.from = from;
        this.to = to;
        this.warmup = warmup;
        h.setAutoResize(true);
      }

      void add(CommitInterval c) {
        commits += c.commits();
        sum += c.latencySumNanos();
        max = Math.max(max, c.latencyMaxNanos());
        if (c.commits() > 0) Histograms.addTo(h, c.latencies());
      }

      /** In us; HdrHistogram's bucket top bounded by the exact maximum; NaN without commits. */
      double percentileUs(double p) {
        return commits == 0 ? Double.NaN : Math.min(h.getValueAtPercentile(p), max) / 1e3;
      }
    }

    // ------------------------------------------------------------------------------------------ log writes

    private void logSeries(Map<String, Map<Long, LogMerged>> byDb) {
      List<List<String>> rows = new ArrayList<>();
      List<List<String>> sizeRows = new ArrayList<>();
      int drawn = 0;
      for (Map.Entry<String, Map<Long, LogMerged>> e : byDb.entrySet()) {
        String db = e.getKey();
        Histogram sizes = new Histogram(2);
        sizes.setAutoResize(true);
        for (LogMerged m : e.getValue().values()) {
          double dt = (m.to - m.from) / 1e9;
          rows.add(List.of(db, seconds(m.from), seconds(m.to), String.valueOf(m.from), String.valueOf(m.to),
              String.valueOf(m.writes),
              num(dt > 0 ? m.writes / dt : Double.NaN), String.valueOf(m.pages), String.valueOf(m.bytes),
              num(dt > 0 ? m.bytes / 1e6 / dt : Double.NaN), m.writes == 0 ? "" : num(m.bytes / (double) m.writes)));
          sizes.add(m.sizes);
        }
        List<double[]> bars = new ArrayList<>();
        for (HistogramIterationValue v : sizes.recordedValues()) {
          long value = sizes.lowestEquivalentValue(v.getValueIteratedTo());
          sizeRows.add(List.of(db, String.valueOf(value), String.valueOf(v.getCountAtValueIteratedTo())));
          bars.add(new double[] {value, v.getCountAtValueIteratedTo()});
        }
        if (drawn++ < MAX_FLUSH_CHARTS) {
          charts.append("<figure class=\"chart\">\n").append(SvgBars.render("Flush sizes" + (db.isEmpty() ? ""
                  : ": " + db), "bytes per log write", "writes", bars, 900, 300))
              .append("<figcaption>Every log write of the run by its size (2 significant digits; exact for"
                  + " multiples of 512 B up to 64 KB).</figcaption>\n</figure>\n");
        }
      }
      add(new Csv("log-intervals.csv", List.of("database", "fromSeconds", "toSeconds", "fromNanos", "toNanos", "writes",
          "writesPerSecond", "pages", "bytes", "mbPerSecond", "meanWriteBytes"), rows));
      add(new Csv("flush-sizes.csv", List.of("database", "writeBytes", "writes"), sizeRows));
    }

    /** A log manager's writes of one interval (one per database). */
    private static final class LogMerged {
      final long from;
      final long to;
      long writes;
      long pages;
      long bytes;
      final Histogram sizes = new Histogram(2);

      LogMerged(long from, long to) {
        this.from = from;
        this.to = to;
        sizes.setAutoResize(true);
      }

      void add(LogInterval l) {
        writes += l.writes();
        pages += l.pages();
        bytes += l.bytes();
        if (l.writes() > 0) Histograms.addTo(sizes, l.writeBytes());
      }
    }

    // ------------------------------------------------------------------------------------------ devices

    /**
     * IOPS and MB/s of each device against its cap: from the devices' own seconds where they record them, else (a
     * simple device, GCM-1's) from the log's writes, which are that device's requests.
     */
    private void deviceCharts(Map<Class<?>, List<RecordedFact>> others, Map<String, Map<Long, LogMerged>> writes) {
      SvgChart iops = new SvgChart("Device IOPS", "simulated time, s", "I/Os per s");
      SvgChart mbps = new SvgChart("Device MB/s", "simulated time, s", "MB/s (10^6 B)");
      Map<String, List<double[]>> byDevice = new TreeMap<>(); // device -> (mid, iops, mbps)
      double xMin = Double.POSITIVE_INFINITY, xMax = Double.NEGATIVE_INFINITY;
      for (Map.Entry<Class<?>, List<RecordedFact>> e : others.entrySet()) {
        if (!e.getKey().getSimpleName().equals("DeviceInterval")) continue;
        for (RecordedFact f : e.getValue()) {
          Map<String, Object> v = fields((Record) f.fact());
          long from = ((Number) v.get("fromNanos")).longValue(), to = clip(((Number) v.get("toNanos")).longValue());
          double dt = (to - from) / 1e9;
          if (dt <= 0) continue;
          long ios = ((Number) v.get("reads")).longValue() + ((Number) v.get("writes")).longValue();
          byDevice.computeIfAbsent(String.valueOf(v.get("device")), k -> new ArrayList<>())
              .add(new double[] {(from + to) / 2e9, ios / dt, ((Number) v.get("bytes")).longValue() / 1e6 / dt});
        }
      }
      String note = "From each device's own per-second record.";
      if (byDevice.isEmpty() && !writes.isEmpty()) {
        note = "The log device's requests are the log's writes (this device records no per-second figures).";
        for (Map.Entry<String, Map<Long, LogMerged>> e : writes.entrySet()) {
          String dev = e.getKey().isEmpty() ? "log-device" : e.getKey() + "/log-device";
          for (LogMerged m : e.getValue().values()) {
            double dt = (m.to - m.from) / 1e9;
            if (dt > 0) {
              byDevice.computeIfAbsent(dev, k -> new ArrayList<>())
                  .add(new double[] {(m.from + m.to) / 2e9, m.writes / dt, m.bytes / 1e6 / dt});
            }
          }
        }
      }
      if (byDevice.isEmpty()) return;
      for (Map.Entry<String, List<double[]>> e : byDevice.entrySet()) {
        List<double[]> pts = e.getValue();
        double[] x = new double[pts.size()], io = new double[pts.size()], mb = new double[pts.size()];
        for (int i = 0; i < pts.size(); i++) {
          x[i] = pts.get(i)[0];
          io[i] = pts.get(i)[1];
          mb[i] = pts.get(i)[2];
          xMin = Math.min(xMin, x[i]);
          xMax = Math.max(xMax, x[i]);
        }
        double[][] ti = thin(x, io), tm = thin(x, mb);
        iops.add(e.getKey(), ti[0], ti[1]);
        mbps.add(e.getKey(), tm[0], tm[1]);
      }
      boolean capped = false;
      for (String dev : byDevice.keySet()) {
        double[] cap = caps(dev);
        if (!Double.isNaN(cap[0])) {
          iops.add(dev + " cap", new double[] {xMin, xMax}, new double[] {cap[0], cap[0]});
          capped = true;
        }
        if (!Double.isNaN(cap[1])) {
          mbps.add(dev + " cap", new double[] {xMin, xMax}, new double[] {cap[1], cap[1]});
          capped = true;
        }
      }
      String capNote = capped ? " Caps: a cloud disk's IOPS cap (summary.json counters.iopsCap); a simple device's"
          + " 1 / latency IOPS and its transfer rate." : " No cap known for these devices.";
      chart(iops, note + capNote);
      chart(mbps, note + capNote);
    }

    /** {IOPS cap, MB/s cap} of a device as the summary gives them (NaN: none). */
    private double[] caps(String device) {
      String name = device.contains("/") ? device.substring(device.lastIndexOf('/') + 1) : device;
      double iopsCap = SummaryPaths.number(in.summary(), "devices." + name + ".counters.iopsCap");
      double mbCap = Double.NaN;
      // GCM-1's simple device: one request at a time of at least its latency, at most its transfer rate
      double latencyUs = SummaryPaths.number(in.summary(), "params.deviceLatencyUs");
      double rate = SummaryPaths.number(in.summary(), "params.deviceMBps");
      if (name.equals("log-device") && !Double.isNaN(latencyUs) && !Double.isNaN(rate)
          && "simple".equals(SummaryPaths.get(in.summary(), "devices." + name + ".model"))) {
        iopsCap = 1e6 / latencyUs;
        mbCap = rate;
      }
      return new double[] {iopsCap, mbCap};
    }

    // ------------------------------------------------------------------------------------------ any other series

    /**
     * Any other interval fact: a CSV of its fields (component first) and a chart per numeric field against time,
     * a line per component and text field (a device's name, a file's).
     */
    private void genericSeries(Class<?> type, List<RecordedFact> facts) {
      RecordComponent[] comps = type.getRecordComponents();
      List<String> header = new ArrayList<>(List.of("component", "timeSeconds"));
      List<String> numeric = new ArrayList<>();
      List<String> keys = new ArrayList<>();
      for (RecordComponent c : comps) {
        Class<?> t = c.getType();
        if (t.isArray()) continue;
        header.add(c.getName());
        boolean isNumber = t == long.class || t == int.class || t == double.class || t == float.class
            || Number.class.isAssignableFrom(t);
        if (isNumber && !c.getName().equals("fromNanos") && !c.getName().equals("toNanos")) numeric.add(c.getName());
        if (t == String.class) keys.add(c.getName());
      }
      List<List<String>> rows = new ArrayList<>();
      Map<String, Map<String, List<double[]>>> lines = new LinkedHashMap<>(); // field -> line -> (x, y)
      for (RecordedFact f : facts) {
        Map<String, Object> v = fields((Record) f.fact());
        if (v.get("toNanos") instanceof Long to && v.get("fromNanos") instanceof Long from) {
          v.put("toNanos", Math.max(from, clip(to)));
        }
        String component = in.componentName().apply(f.component());
        List<String> row = new ArrayList<>(List.of(component, seconds(f.time())));
        for (String h : header.subList(2, header.size())) row.add(cell(v.get(h)));
        rows.add(row);
        double x = v.get("fromNanos") instanceof Number a && v.get("toNanos") instanceof Number b
            ? (a.longValue() + b.longValue()) / 2e9 : f.time() / 1e9;
        double dt = v.get("fromNanos") instanceof Number a && v.get("toNanos") instanceof Number b
            ? Math.max(1e-9, (b.longValue() - a.longValue()) / 1e9) : 1;
        StringBuilder line = new StringBuilder(component);
        for (String k : keys) if (!String.valueOf(v.get(k)).equals(component)) line.append(' ').append(v.get(k));
        for (String n : numeric) {
          lines.computeIfAbsent(n, k -> new TreeMap<>()).computeIfAbsent(line.toString(), k -> new ArrayList<>())
              .add(new double[] {x, ((Number) v.get(n)).doubleValue(), dt});
        }
      }
      String base = kebab(type.getSimpleName().replaceAll("Interval$", ""));
      add(new Csv(base + "-intervals.csv", header, rows));
      List<String> allZero = new ArrayList<>();
      for (Map.Entry<String, Map<String, List<double[]>>> e : lines.entrySet()) {
        Axis axis = axis(type, e.getKey());
        SvgChart c = new SvgChart(subject(type) + ": " + axis.name(), "simulated time, s", axis.name() + ", " + axis.unit());
        int drawnLines = 0;
        for (Map.Entry<String, List<double[]>> l : e.getValue().entrySet()) {
          double[] x = new double[l.getValue().size()], y = new double[x.length];
          boolean nonZero = false;
          for (int i = 0; i < x.length; i++) {
            x[i] = l.getValue().get(i)[0];
            y[i] = l.getValue().get(i)[1] * axis.scale() / (axis.perSecond() ? l.getValue().get(i)[2] : 1);
            nonZero |= y[i] != 0;
          }
          if (!nonZero) continue; // an all-zero line says nothing a chart should show
          double[][] t = thin(x, y);
          c.add(l.getKey(), t[0], t[1]);
          drawnLines++;
        }
        if (drawnLines == 0) {
          allZero.add(axis.name());
          continue;
        }
        chart(c, "From the run's " + type.getSimpleName() + " facts, field " + e.getKey() + " (" + base
            + "-intervals.csv).");
      }
      if (!allZero.isEmpty()) {
        charts.append("<p class=\"note\">").append(SvgChart.esc(subject(type) + ": 0 throughout the run, not drawn: "
            + String.join(", ", allZero) + " (" + base + "-intervals.csv)")).append("</p>\n");
      }
    }

    // ------------------------------------------------------------------------------------------ phases

    private final StringBuilder timeline = new StringBuilder();

    private void phases() {
      List<String[]> bars = new ArrayList<>(); // name, start, seconds
      double warmup = SummaryPaths.number(in.summary(), "warmupSeconds");
      if (warmup > 0) bars.add(new String[] {"warm-up (outside the statistics)", "0", String.valueOf(warmup)});
      if (SummaryPaths.get(in.summary(), "phases") instanceof List<?> list) {
        for (Object o : list) {
          if (o instanceof Map<?, ?> m && m.get("startSeconds") instanceof Number s && m.get("seconds") instanceof Number d) {
            bars.add(new String[] {String.valueOf(m.get("name")), String.valueOf(s.doubleValue()),
                String.valueOf(d.doubleValue())});
          }
        }
      }
      crashAndRecovery(bars);
      // a branch: its parent's run up to T (its figures include it), and the mark where it left it
      List<String[]> marks = new ArrayList<>(); // row, time (s), what
      double branchAt = SummaryPaths.number(in.summary(), "provenance.branch.branchAt");
      if (branchAt >= 0) {
        String parent = String.valueOf(SummaryPaths.get(in.summary(), "provenance.branch.branchOf"));
        bars.add(new String[] {"parent's run (up to T)", "0", String.valueOf(branchAt)});
        marks.add(new String[] {"left its parent", String.valueOf(branchAt), "left " + parent + " at " + branchAt
            + " s"});
      }
      for (double c : in.checkpointSeconds()) {
        marks.add(new String[] {"checkpoints (" + in.checkpointSeconds().size() + ")", String.valueOf(c),
            "checkpoint at " + c + " s"});
      }
      double end = SummaryPaths.number(in.summary(), "simulatedSeconds");
      if (bars.isEmpty() && marks.isEmpty()) return;
      timeline.append("<figure class=\"chart\">\n").append(SvgBars.timeline("Phases", bars, marks,
          Double.isNaN(end) ? 0 : end, 900));
      if (!marks.isEmpty()) {
        timeline.append("<figcaption>").append(SvgChart.esc(marksNote(branchAt))).append("</figcaption>\n");
      }
      timeline.append("</figure>\n");
    }

    /** What the marks are: the checkpoints replay --at and a branch start from; where a branch left its parent. */
    private String marksNote(double branchAt) {
      String note = in.checkpointSeconds().isEmpty() ? "" : "Checkpoints: the states in the journal that replay --at "
          + "and run --branch start from (each re-simulates from the last at or before its T).";
      if (branchAt >= 0) {
        note += (note.isEmpty() ? "" : " ") + "A branch: up to " + branchAt + " s it is its parent's run (its figures "
            + "include it; its journal's series start there), after it its own.";
      }
      return note;
    }

    /**
     * The power loss (a mark at {@code crash.atSeconds}) and the recovery's steps one after another from the crash, as
     * the summary's {@code recovery.*Seconds} give them: the read path and the commit path report both the same way.
     */
    private void crashAndRecovery(List<String[]> bars) {
      double crashAt = SummaryPaths.number(in.summary(), "crash.atSeconds");
      double from = SummaryPaths.number(in.summary(), "recovery.crashSeconds");
      if (Double.isNaN(from)) from = crashAt;
      if (Double.isNaN(from)) return;
      bars.add(new String[] {"crash (power loss)", String.valueOf(Double.isNaN(crashAt) ? from : crashAt), "0"});
      for (String step : List.of("startDelay", "analysis", "redo", "undo")) {
        double d = SummaryPaths.number(in.summary(), "recovery." + step + "Seconds");
        if (!(d > 0)) continue;
        String name = step.equals("startDelay") ? "recovery: start" : "recovery: " + step;
        bars.add(new String[] {name, String.valueOf(from), String.valueOf(d)});
        from += d;
      }
    }

    // ------------------------------------------------------------------------------------------ the page

    private String html() {
      String scenario = String.valueOf(in.summary().getOrDefault("scenario", ""));
      Object description = SummaryPaths.get(in.summary(), "provenance.description");
      StringBuilder b = new StringBuilder();
      b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>tlogsim run ")
          .append(SvgChart.esc(in.runId())).append("</title>\n<style>\n").append(CSS).append("</style></head>\n")
          .append("<body data-charts=\"0\" data-charts-drawn=\"0\">\n<h1>Run ").append(SvgChart.esc(in.runId()))
          .append("</h1>\n<p>").append(SvgChart.esc(scenario));
      if (description != null && !String.valueOf(description).isEmpty()) {
        b.append(": ").append(SvgChart.esc(String.valueOf(description)));
      }
      b.append("</p>\n<h2>Summary</h2>\n<pre>");
      for (String l : in.humanLines()) b.append(SvgChart.esc(l)).append('\n');
      b.append("</pre>\n");
      if (timeline.length() > 0) b.append("<h2>Timeline</h2>\n").append(timeline);
      b.append("<h2>Over time</h2>\n");
      if (charts.length() == 0) {
        b.append("<p>This run recorded no per-interval figures (a kind whose models record"
            + " none).</p>\n");
      }
      b.append(charts);
      if (!in.tables().isEmpty()) {
        b.append("<h2>Tables</h2>\n");
        for (Map.Entry<String, List<String>> t : new TreeMap<>(in.tables()).entrySet()) {
          List<String> rows = t.getValue();
          boolean wrap = WRAPPED_TABLES.contains(t.getKey());
          b.append("<h3>").append(SvgChart.esc(t.getKey())).append("</h3>\n<pre").append(wrap ? " class=\"wrap\"" : "")
              .append(">");
          boolean inFile = rows.size() > MAX_INLINE_ROWS;
          for (String l : inFile ? rows.subList(0, INLINE_HEAD_ROWS) : rows) b.append(SvgChart.esc(l)).append('\n');
          b.append("</pre>\n");
          if (inFile) { // 16,388 LOGINFO rows make a page no browser scrolls through: beside the report instead
            String file = "table-" + t.getKey() + ".txt";
            files.put(file, String.join("\n", rows) + "\n");
            b.append("<p>The first ").append(INLINE_HEAD_ROWS).append(" of ").append(String.format(Locale.ROOT, "%,d",
                rows.size())).append(" rows; all of them in <a href=\"").append(file).append("\">").append(file)
                .append("</a>.</p>\n");
          }
        }
      }
      b.append("<h2>summary.json</h2>\n<details><summary>every figure by path</summary>\n<table>\n");
      List<String[]> rows = new ArrayList<>();
      flatten("", in.summary(), rows);
      for (String[] r : rows) {
        b.append("<tr><td>").append(SvgChart.esc(r[0])).append("</td><td>").append(SvgChart.esc(r[1]))
            .append("</td></tr>\n");
      }
      b.append("</table></details>\n<h2>Files</h2>\n<p><a href=\"summary.json\">summary.json</a>");
      for (String f : csvNames) b.append(", <a href=\"").append(f).append("\">").append(f).append("</a>");
      b.append(" (per interval; times in simulated seconds)</p>\n<script>\n").append(SCRIPT).append("</script>\n")
          .append("</body></html>\n");
      return b.toString();
    }

    private static void flatten(String prefix, Object v, List<String[]> out) {
      if (v instanceof Map<?, ?> m) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (prefix.isEmpty() && (e.getKey().equals("provenance") || e.getKey().equals("params"))) continue;
          flatten(prefix.isEmpty() ? String.valueOf(e.getKey()) : prefix + "." + e.getKey(), e.getValue(), out);
        }
      } else if (v instanceof List<?> l) {
        for (int i = 0; i < l.size(); i++) flatten(prefix + "[" + i + "]", l.get(i), out);
      } else {
        out.add(new String[] {prefix, String.valueOf(v)});
      }
    }
  }

  // -------------------------------------------------------------------------------------------- formatting

  static Map<String, Object> fields(Record r) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      try {
        m.put(c.getName(), c.getAccessor().invoke(r));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read " + r.getClass().getSimpleName() + "." + c.getName(), e);
      }
    }
    return m;
  }

  /** True when every number among a fact's fields is 0 (times aside). */
  static boolean allZero(Map<String, Object> fields) {
    for (Map.Entry<String, Object> e : fields.entrySet()) {
      if (e.getKey().endsWith("Nanos") && (e.getKey().startsWith("from") || e.getKey().startsWith("to"))) continue;
      if (e.getValue() instanceof Number n && n.doubleValue() != 0) return false;
    }
    return true;
  }

  /**
   * Where a run ended, in ns: its {@code simulatedSeconds} (a workload's time: the limit, or when its script ended),
   * or later when something went on after it (the end of a phase, a recovery after a crash); no end when the summary
   * says none.
   */
  public static long runEndNanos(Map<String, Object> summary) {
    double end = SummaryPaths.number(summary, "simulatedSeconds");
    if (Double.isNaN(end)) return Long.MAX_VALUE;
    if (SummaryPaths.get(summary, "phases") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> m && m.get("startSeconds") instanceof Number st && m.get("seconds") instanceof Number d) {
          end = Math.max(end, st.doubleValue() + d.doubleValue());
        }
      }
    }
    double crash = SummaryPaths.number(summary, "recovery.crashSeconds");
    if (Double.isNaN(crash)) crash = SummaryPaths.number(summary, "crash.atSeconds");
    double recovery = SummaryPaths.number(summary, "recovery.seconds");
    if (!Double.isNaN(crash) && !Double.isNaN(recovery)) end = Math.max(end, crash + recovery);
    return Math.round(end * 1e9);
  }

  /** Tables of more rows than this go to a file beside the report; the page shows their first rows. */
  static final int MAX_INLINE_ROWS = 200;
  static final int INLINE_HEAD_ROWS = 40;
  /** Tables of sentences (the server's and the client's messages), wrapped rather than scrolled sideways. */
  private static final java.util.Set<String> WRAPPED_TABLES = java.util.Set.of("errorlog", "messages");

  /** A chart's axis for a fact's field: its name in words, its unit, the factor to it, and whether it is per second. */
  record Axis(String name, String unit, double scale, boolean perSecond) {}

  /** The known fields in the user's words; any other from its name (throttledNanos: "throttled", ms). */
  static Axis axis(Class<?> type, String field) {
    if (type.getSimpleName().equals("DeviceInterval")) {
      switch (field) {
        case "reads": return new Axis("reads", "per s", 1, true);
        case "writes": return new Axis("writes", "per s", 1, true);
        case "bytes": return new Axis("transferred", "MB/s", 1e-6, true);
        case "queueDepth": return new Axis("mean queue depth", "requests", 1, false);
        case "throttledNanos": return new Axis("time held by the cap", "ms per s", 1e-6, true);
        default: break;
      }
    }
    if (type.getSimpleName().equals("LogSpaceSample")) {
      switch (field) {
        case "sizeBytes": return new Axis("log size", "MB", 1e-6, false);
        case "usedBytes": return new Axis("log used (reservations included)", "MB", 1e-6, false);
        case "reservedBytes": return new Axis("reserved for rollback", "MB", 1e-6, false);
        case "vlfs": return new Axis("VLFs", "count", 1, false);
        default: break;
      }
    }
    String[][] suffixes = {{"Nanos", "ms", "1e-6"}, {"Bytes", "MB", "1e-6"}, {"Us", "us", "1"}, {"Ms", "ms", "1"},
        {"Seconds", "s", "1"}, {"Percent", "%", "1"}};
    for (String[] sfx : suffixes) {
      if (field.endsWith(sfx[0]) && field.length() > sfx[0].length()) {
        return new Axis(words(field.substring(0, field.length() - sfx[0].length())), sfx[1],
            Double.parseDouble(sfx[2]), false);
      }
    }
    return new Axis(words(field), "count", 1, false);
  }

  /** "throttledNanos" -> "throttled nanos"; "DeviceInterval" -> "Device". */
  static String words(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
  }

  /** What a fact is about: DeviceInterval -> "Device", LogSpaceSample -> "Log space". */
  static String subject(Class<?> type) {
    String w = words(type.getSimpleName().replaceAll("(Interval|Sample)$", ""));
    return w.isEmpty() ? type.getSimpleName() : Character.toUpperCase(w.charAt(0)) + w.substring(1);
  }

  /** Lines of more points than this are drawn as means of consecutive points (the CSV keeps every interval). */
  private static final int MAX_POINTS = 400;

  /** {x, y} with at most MAX_POINTS points: means of runs of consecutive points. */
  static double[][] thin(double[] x, double[] y) {
    if (x.length <= MAX_POINTS) return new double[][] {x, y};
    int per = (x.length + MAX_POINTS - 1) / MAX_POINTS, n = (x.length + per - 1) / per;
    double[] tx = new double[n], ty = new double[n];
    for (int i = 0; i < n; i++) {
      int from = i * per, to = Math.min(x.length, from + per);
      double sx = 0, sy = 0;
      for (int k = from; k < to; k++) {
        sx += x[k];
        sy += y[k];
      }
      tx[i] = sx / (to - from);
      ty[i] = sy / (to - from);
    }
    return new double[][] {tx, ty};
  }

  /** Nanoseconds as exact decimal seconds: 20000000 -> 0.02. */
  static String seconds(long nanos) {
    return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
  }

  /** A figure to 6 significant digits, no exponent; empty for NaN. */
  static String num(double v) {
    if (!Double.isFinite(v)) return "";
    return new BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
  }

  private static String cell(Object v) {
    if (v == null) return "";
    if (v instanceof Double d) return num(d);
    if (v instanceof Float f) return num(f);
    String s = String.valueOf(v);
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }

  /** DeviceInterval -> device-interval; LogSpace -> log-space. */
  static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  private static final String CSS = """
      body { font-family: sans-serif; margin: 1.5em; max-width: 960px; color: #222; }
      pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 12px; }
      figure.chart { margin: 1em 0; }
      figcaption { font-size: 12px; color: #555; }
      table { border-collapse: collapse; font-size: 12px; }
      td { border-bottom: 1px solid #eee; padding: 1px 8px; }
      svg .series.faded, svg .bar.faded { opacity: 0.15; }
      pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
      p.note { font-size: 12px; color: #555; }
      """;

  /**
   * Counts what each chart drew (data lines, bars, phases) into data attributes that a headless browser test reads,
   * and lets a click on a
   * legend entry fade the chart's other lines (a second click shows them all). Errors are counted too.
   */
  private static final String SCRIPT = """
      (function () {
        var errors = 0;
        window.addEventListener('error', function () {
          errors++;
          document.body.setAttribute('data-js-errors', String(errors));
        });
        var figures = document.querySelectorAll('figure.chart');
        var drawn = 0;
        figures.forEach(function (fig) {
          var marks = fig.querySelectorAll('polyline.series, rect.bar, rect.phase, line.mark');
          var points = 0;
          marks.forEach(function (m) {
            if (m.tagName === 'polyline') points += m.getAttribute('points').trim().split(/\\s+/).length;
            else points++;
          });
          fig.setAttribute('data-marks', String(points));
          if (points > 0) drawn++;
          var lines = fig.querySelectorAll('polyline.series');
          fig.querySelectorAll('text.legend').forEach(function (label) {
            label.style.cursor = 'pointer';
            label.addEventListener('click', function () {
              var name = label.textContent;
              var on = label.getAttribute('data-only') !== 'yes';
              fig.querySelectorAll('text.legend').forEach(function (o) { o.removeAttribute('data-only'); });
              if (on) label.setAttribute('data-only', 'yes');
              lines.forEach(function (l) {
                l.classList.toggle('faded', on && l.getAttribute('data-name') !== name);
              });
            });
          });
        });
        document.body.setAttribute('data-charts', String(figures.length));
        document.body.setAttribute('data-charts-drawn', String(drawn));
      })();
      """;
}
