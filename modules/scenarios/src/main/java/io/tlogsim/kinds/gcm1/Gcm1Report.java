package io.tlogsim.kinds.gcm1;

import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.DeviceSummary;
import io.tlogsim.scenario.summary.RunFigures;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The summary of a GCM-1 run, named as DESIGN.md's summary.json contract says. */
public record Gcm1Result(Map<String, Object> summary, List<String> humanLines, Map<String, Histogram> histograms)
    implements ScenarioResult {

  static Gcm1Result of(String scenario, Params p, RunControl control, Gcm1Kind.Model m, RunOutcome out) {
    double seconds = p.getDouble("simulatedSeconds");
    double warmup = p.getDouble("warmupSeconds");
    double wall = out.wallNanos() / 1e9;
    CommitStats c = Gcm1Kind.commits(m, out);
    LogStats log = Gcm1Kind.log(m, out);
    DeviceStats dev = Gcm1Kind.device(m, out);
    // Each derived figure once, for both the summary and the text.
    double perSecond = ratio(c.count(), seconds - warmup); // the commits counted, over the time they were counted in
    Map<String, Object> latency = latencyUs(c);
    double pagesPerWrite = ratio(log.pages(), log.writes());
    double recordsPerPage = ratio(log.records(), log.pages());
    double iops = ratio(dev.reads() + dev.writes(), seconds);
    double mbPerSec = ratio(dev.bytesWritten() / 1e6, seconds);
    double eventsPerWall = ratio(out.events(), wall);
    double commitsPerWall = ratio(c.count(), wall);

    Map<String, Object> s = new LinkedHashMap<>();
    s.put("scenario", scenario);
    s.put("seed", control.seed());
    s.put("simulatedSeconds", seconds);
    s.put("warmupSeconds", warmup);
    s.put("digest", out.digestHex());

    Map<String, Object> commits = new LinkedHashMap<>();
    commits.put("count", c.count());
    commits.put("perSecond", round(perSecond));
    commits.put("latencyUs", latency);
    commits.put("lost", 0L); // acknowledged only after its flush: nothing acknowledged can be lost
    s.put("commits", commits);

    Map<String, Object> logMap = new LinkedHashMap<>();
    logMap.put("records", log.records());
    logMap.put("pages", log.pages());
    logMap.put("writes", log.writes());
    logMap.put("pagesPerWrite", round(pagesPerWrite));
    logMap.put("recordsPerPage", round(recordsPerPage));
    logMap.put("bytes", log.bytesWritten());
    s.put("log", logMap);

    Map<String, Object> d = new LinkedHashMap<>();
    d.put("reads", dev.reads());
    d.put("writes", dev.writes());
    d.put("iops", round(iops));
    d.put("mbPerSec", round(mbPerSec));
    d.put("meanLatencyUs", round(dev.meanLatencyUs()));
    d.put("throttledUs", 0L);
    DeviceSummary.device(dev, seconds).forEach(d::putIfAbsent); // latency percentiles, bytes, utilisation, model
    Map<String, Object> devices = new LinkedHashMap<>();
    devices.put(dev.name(), d);
    s.put("devices", devices);

    Map<String, Object> run = RunFigures.of(control, out);
    run.put("pools", m.pools());
    run.put("commitsPerWallSecond", round(commitsPerWall));
    s.put("run", run);
    s.put("params", p.asMap());

    List<String> lines = new ArrayList<>(Text.lines("scenario", scenario + " (gcm1)", "seed " + control.seed(),
        Text.number(seconds) + " simulated s", Text.plural(p.getInt("sessions"), "session") + " in "
            + Text.plural(m.pools(), "pool")));
    lines.addAll(commitLines(c, seconds - warmup, perSecond, latency));
    if (warmup > 0) {
      lines.addAll(Text.paragraph("warm-up", "the first " + Text.number(warmup) + " simulated s are left out of the"
          + " commit figures (log and device figures cover the whole run)"));
    }
    if (log.writes() == 0) {
      lines.addAll(Text.lines("log", Text.plural(log.records(), "record") + " in 0 writes"));
      lines.addAll(Text.lines("device", dev.name() + ": no I/O"));
    } else {
      lines.addAll(Text.lines("log", Text.plural(log.records(), "record") + " in " + Text.plural(log.writes(), "write"),
          String.format(Locale.ROOT, "%.1f pages/write", pagesPerWrite),
          String.format(Locale.ROOT, "%.2f records/page", recordsPerPage), Text.plural(log.bytesWritten(), "byte")));
      lines.addAll(Text.lines("device", dev.name() + ": " + Text.whole(iops) + " IOPS",
          String.format(Locale.ROOT, "%.1f MB/s", mbPerSec), "mean latency " + Text.latencyUs(dev.meanLatencyUs())));
    }
    lines.addAll(Text.lines("run", String.format(Locale.ROOT, "%.2f wall s on %s", wall,
            Text.plural(control.threads(), "thread")), Text.plural(out.windows(), "window"),
        Text.whole(eventsPerWall) + " events/s", Text.whole(commitsPerWall) + " commits/s",
        String.format(Locale.ROOT, "%.4f messages/event", out.messagesPerEvent())));
    lines.add("digest       " + out.digestHex());
    return new Gcm1Result(s, lines, Map.of("commits", c.latencies()));
  }

  /**
   * commits.latencyUs: min, mean, stddev, p50, p90, p95, p99, p999, max; every figure null when no commit was
   * acknowledged (a mean of 0 would read as a very fast log).
   */
  private static Map<String, Object> latencyUs(CommitStats c) {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean any = c.count() > 0;
    m.put("min", any ? round(c.minLatencyUs()) : null);
    m.put("mean", any ? round(c.meanLatencyUs()) : null);
    m.put("stddev", any ? round(c.stddevLatencyUs()) : null);
    for (String[] pct : PERCENTILES) m.put(pct[0], any ? round(c.percentileUs(Double.parseDouble(pct[1]))) : null);
    m.put("max", any ? round(c.latencyMaxNanos() / 1e3) : null);
    return m;
  }

  /** Summary key and percentile. */
  private static final String[][] PERCENTILES = {{"p50", "50"}, {"p90", "90"}, {"p95", "95"}, {"p99", "99"},
      {"p999", "99.9"}};

  private static List<String> commitLines(CommitStats c, double seconds, double perSecond, Map<String, Object> lat) {
    String in = "in " + Text.number(Math.round(seconds * 1e9) / 1e9) + " simulated s";
    if (c.count() == 0) return Text.lines("commits", "0 commits " + in + ": none acknowledged");
    List<String> lines = new ArrayList<>(Text.lines("commits", Text.plural(c.count(), "commit") + " " + in + " ("
        + Text.whole(perSecond) + "/s)"));
    lines.addAll(Text.lines("latency", "min " + us(lat, "min"), "mean " + us(lat, "mean"),
        "stddev " + us(lat, "stddev"), "max " + us(lat, "max")));
    lines.addAll(Text.lines("percentiles", "p50 " + us(lat, "p50"), "p90 " + us(lat, "p90"), "p95 " + us(lat, "p95"),
        "p99 " + us(lat, "p99"), "p99.9 " + us(lat, "p999")));
    return lines;
  }

  private static String us(Map<String, Object> latency, String key) {
    return Text.latencyUs(((Number) latency.get(key)).doubleValue());
  }

  /** a / b, or 0 when b is 0. */
  private static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

}
