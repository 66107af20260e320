package io.tlogsim.kinds.gcm1;

import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.Text;
import io.tlogsim.scenario.summary.RunFigures;
import io.tlogsim.scenario.summary.Summary;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The summary and text of a GCM-1 run, named as DESIGN.md's summary.json contract says. */
final class Gcm1Report {
  private Gcm1Report() {}

  static ScenarioResult of(String scenario, Params p, RunControl control, Gcm1Kind.Model m, RunOutcome out) {
    double seconds = p.getDouble("simulatedSeconds");
    double warmup = p.getDouble("warmupSeconds");
    double wall = out.wallNanos() / 1e9;
    CommitStats c = Gcm1Kind.commits(m, out);
    LogStats log = Gcm1Kind.log(m, out);
    DeviceStats dev = Gcm1Kind.device(m, out);
    // Each derived figure once, for both the summary and the text.
    double perSecond = ratio(c.count(), seconds - warmup); // the commits counted, over the time they were counted in
    Map<String, Object> latency = Summary.latency(c);
    double pagesPerWrite = ratio(log.pages(), log.writes());
    double recordsPerPage = ratio(log.records(), log.pages());
    double iops = ratio(dev.reads() + dev.writes(), seconds);
    double mbPerSec = ratio(dev.bytesWritten() / 1e6, seconds);
    double eventsPerWall = ratio(out.events(), wall);
    double commitsPerWall = ratio(c.count(), wall);

    Map<String, Object> s = Summary.head(scenario, null, control.seed(), seconds, warmup, out.digestHex())
        // acknowledged only after its flush: nothing acknowledged can be lost
        .commits(k -> k.count(c.count()).perSecond(perSecond).latencyUs(c).lost(0))
        .log(l -> l.written(log))
        .devices(List.of(dev), seconds)
        .run(control, out, r -> r.pools(m.pools()).commitsPerWallSecond(c.count()))
        .params(p)
        .toMap();

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
    List<String> run = new ArrayList<>(List.of(String.format(Locale.ROOT, "%.2f wall s on %s", wall,
            Text.plural(control.threads(), "thread")), Text.plural(out.windows(), "window"),
        Text.whole(eventsPerWall) + " events/s", Text.whole(commitsPerWall) + " commits/s",
        String.format(Locale.ROOT, "%.4f messages/event", out.messagesPerEvent())));
    if (RunFigures.busyText(out) != null) run.add(RunFigures.busyText(out));
    lines.addAll(Text.lines("run", run));
    lines.add("digest       " + out.digestHex());
    return ScenarioResult.of(s, lines).withHistograms(Map.of("commits", c.latencies()));
  }

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

}
