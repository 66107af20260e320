package io.tlogsim.engine.gcm1;

import io.tlogsim.engine.log.LogStats;
import io.tlogsim.engine.scenario.Params;
import io.tlogsim.engine.scenario.RunControl;
import io.tlogsim.engine.scenario.ScenarioResult;
import io.tlogsim.engine.session.CommitStats;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.storage.DeviceStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The summary of a GCM-1 run, named as DESIGN.md's summary.json contract says. */
public record Gcm1Result(Map<String, Object> summary, List<String> humanLines) implements ScenarioResult {

  static Gcm1Result of(String scenario, Params p, RunControl control, Gcm1Kind.Model m, RunOutcome out) {
    double seconds = p.getDouble("simulatedSeconds");
    double wall = out.wallNanos() / 1e9;
    CommitStats c = Gcm1Kind.commits(m, out);
    LogStats log = Gcm1Kind.log(m, out);
    DeviceStats dev = Gcm1Kind.device(m, out);
    // Each derived figure once, for both the summary and the text.
    double perSecond = ratio(c.count(), seconds);
    double p50 = c.percentileUs(50), p99 = c.percentileUs(99), maxUs = c.latencyMaxNanos() / 1e3;
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
    s.put("digest", out.digestHex());

    Map<String, Object> latency = new LinkedHashMap<>();
    latency.put("mean", round(c.meanLatencyUs()));
    latency.put("p50", round(p50));
    latency.put("p99", round(p99));
    latency.put("max", round(maxUs));
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
    Map<String, Object> devices = new LinkedHashMap<>();
    devices.put(dev.name(), d);
    s.put("devices", devices);

    Map<String, Object> run = new LinkedHashMap<>();
    run.put("threads", control.threads());
    run.put("nodes", 1);
    run.put("pools", m.pools());
    run.put("wallSeconds", round(wall));
    run.put("events", out.events());
    run.put("windows", out.windows());
    run.put("messages", out.messages());
    run.put("simulatedEventsPerWallSecond", round(eventsPerWall));
    run.put("commitsPerWallSecond", round(commitsPerWall));
    run.put("messagesPerEvent", out.events() == 0 ? 0.0 : Math.round(out.messagesPerEvent() * 1e4) / 1e4);
    s.put("run", run);
    s.put("params", p.asMap());

    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "scenario %s (gcm1), seed %d, %s simulated s, %d sessions in %d pools",
        scenario, control.seed(), fmt(seconds), p.getInt("sessions"), m.pools()));
    lines.add(String.format(Locale.ROOT, "commits      %,d (%,.0f/s)  latency us: mean %.1f  p50 %.1f  p99 %.1f  max %.1f",
        c.count(), perSecond, c.meanLatencyUs(), p50, p99, maxUs));
    lines.add(String.format(Locale.ROOT, "log          %,d records in %,d writes, %.1f pages/write, %.2f records/page, %,d bytes",
        log.records(), log.writes(), pagesPerWrite, recordsPerPage, log.bytesWritten()));
    lines.add(String.format(Locale.ROOT, "device       %s: %,.0f IOPS, %.1f MB/s, mean latency %.1f us",
        dev.name(), iops, mbPerSec, dev.meanLatencyUs()));
    lines.add(String.format(Locale.ROOT, "run          %.2f wall s on %d threads: %,.0f events/s, %,.0f commits/s, %.4f messages/event, %,d windows",
        wall, control.threads(), eventsPerWall, commitsPerWall, out.messagesPerEvent(), out.windows()));
    lines.add("digest       " + out.digestHex());
    return new Gcm1Result(s, lines);
  }

  /** a / b, or 0 when b is 0. */
  private static double ratio(double a, double b) {
    return b > 0 ? a / b : 0;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
