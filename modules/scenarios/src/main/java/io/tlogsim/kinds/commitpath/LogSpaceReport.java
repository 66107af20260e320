package io.tlogsim.scenario.summary;

import io.tlogsim.database.logspace.LogLayout;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a managed log space shows at the end of a run, as DBAs know it: summary.json's {@code log.vlfs},
 * {@code log.sizeBytes}, {@code log.usedPercent}, {@code log.reuseWait}, {@code log.growths}, {@code log.fullErrors}
 * (and {@code log.files[]}, {@code log.messages}), {@code logspace[]} (each DBCC SQLPERF(LOGSPACE) the script took),
 * the wait of sessions while a growth is zeroed ({@code waits.PREEMPTIVE_OS_WRITEFILEGATHER}); the tables
 * {@code loginfo} (DBCC LOGINFO) and {@code logspace} (DBCC SQLPERF(LOGSPACE)).
 */
public final class LogSpaceReport {
  private LogSpaceReport() {}

  /** SQL Server's wait type while a file is zero-initialized. */
  public static final String ZEROING_WAIT = "PREEMPTIVE_OS_WRITEFILEGATHER";

  @SuppressWarnings("unchecked")
  public static void addTo(ManagedLogSpace.Report r, String database, Map<String, Object> summary, List<String> lines,
      Map<String, List<String>> tables) {
    Map<String, Object> log = (Map<String, Object>) summary.get("log");
    log.put("vlfs", r.vlfs());
    log.put("sizeBytes", r.sizeBytes());
    log.put("sizeMB", round(r.sizeBytes() / (double) (1 << 20)));
    log.put("usedBytes", r.usedBytes());
    log.put("usedPercent", r.usedPercent());
    log.put("reuseWait", r.reuseWait());
    log.put("growths", r.growths());
    log.put("zeroedBytes", r.zeroedBytes());
    log.put("fullErrors", r.fullErrors());
    log.put("firstFullErrorSeconds", r.firstFullNanos() < 0 ? null : round(r.firstFullNanos() / 1e9));
    log.put("fullReason", r.fullErrors() == 0 ? null : r.lastFullReason());
    List<Map<String, Object>> files = new ArrayList<>();
    for (long[] f : r.files()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("fileId", f[0]);
      m.put("sizeBytes", f[1]);
      m.put("vlfs", f[2]);
      files.add(m);
    }
    log.put("files", files);
    log.put("messages", r.messages());

    List<Map<String, Object>> perf = new ArrayList<>();
    long previous = -1;
    for (ManagedLogSpace.SqlPerf p : r.sqlPerf()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("seconds", round(p.atNanos() / 1e9));
      m.put("secondsSincePrevious", previous < 0 ? null : round((p.atNanos() - previous) / 1e9));
      previous = p.atNanos();
      m.put("vlfs", p.vlfs());
      m.put("sizeMB", round(p.sizeBytes() / (double) (1 << 20)));
      m.put("usedPercent", p.usedPercent());
      m.put("peakUsedPercent", p.peakUsedPercent());
      m.put("reuseWait", p.reuseWait());
      perf.add(m);
    }
    summary.put("logspace", perf);

    Map<String, Object> waits = (Map<String, Object>) summary.get("waits");
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("count", r.growthStalls());
    w.put("totalMs", round(r.growthStallNanos() / 1e6));
    w.put("maxMs", round(r.growthStallMaxNanos() / 1e6));
    waits.put(ZEROING_WAIT, w);

    lines.addAll(Text.lines("log space", String.format(Locale.ROOT, "%,.0f MB", r.sizeBytes() / (double) (1 << 20)),
        Text.plural(r.vlfs(), "VLF"), String.format(Locale.ROOT, "%.1f%% used", r.usedPercent()),
        Text.plural(r.growths(), "growth"), "log_reuse_wait " + r.reuseWait(),
        Text.plural(r.fullErrors(), "9002 error")));
    if (r.growthStalls() > 0) {
      lines.addAll(Text.lines("", "the log stood still " + Text.plural(r.growthStalls(), "time") + " while growths"
          + " were zeroed (" + ZEROING_WAIT + String.format(Locale.ROOT, " %.1f ms)", r.growthStallNanos() / 1e6)));
    }
    for (String m : r.messages().subList(0, Math.min(3, r.messages().size()))) lines.addAll(Text.paragraph("", m));
    if (r.fullErrors() > 3) {
      lines.addAll(Text.paragraph("", "... " + Text.plural(r.fullErrors() - 3, "more 9002 error")
          + " (summary.json log.messages keeps the first " + ManagedLogSpace.MAX_MESSAGES + " messages)"));
    }
    for (ManagedLogSpace.SqlPerf p : r.sqlPerf()) {
      lines.addAll(Text.lines("sqlperf", p.name() + String.format(Locale.ROOT, " at %.1f s", p.atNanos() / 1e9),
          String.format(Locale.ROOT, "%,.0f MB", p.sizeBytes() / 1048576.0), Text.plural(p.vlfs(), "VLF"),
          String.format(Locale.ROOT, "%.1f%% used", p.usedPercent()),
          String.format(Locale.ROOT, "peak %.1f%%", p.peakUsedPercent()), p.reuseWait()));
    }

    tables.put("loginfo", logInfo(r));
    tables.put("logspace", sqlPerf(r, database));
  }

  /** DBCC LOGINFO / sys.dm_db_log_info: one row per VLF in file and offset order. */
  static List<String> logInfo(ManagedLogSpace.Report r) {
    List<String> t = new ArrayList<>();
    t.add(String.format(Locale.ROOT, "%-14s %6s %12s %14s %8s %6s %6s %20s", "RecoveryUnitId", "FileId", "FileSize",
        "StartOffset", "FSeqNo", "Status", "Parity", "CreateLSN"));
    for (LogLayout.LogInfoRow v : r.logInfo()) {
      t.add(String.format(Locale.ROOT, "%-14d %6d %12d %14d %8d %6d %6d %20d", 0, v.fileId(), v.fileSize(),
          v.startOffset(), v.fseqNo(), v.status(), v.fseqNo() == 0 ? 0 : 64 + 64 * (v.fseqNo() % 2), v.createLsn()));
    }
    return t;
  }

  /** DBCC SQLPERF(LOGSPACE): each the script took, and the end of the run. */
  static List<String> sqlPerf(ManagedLogSpace.Report r, String database) {
    List<String> t = new ArrayList<>();
    t.add(String.format(Locale.ROOT, "%-12s %-24s %14s %19s %6s", "taken", "Database Name", "Log Size (MB)",
        "Log Space Used (%)", "Status"));
    for (ManagedLogSpace.SqlPerf p : r.sqlPerf()) {
      t.add(String.format(Locale.ROOT, "%-12s %-24s %14.3f %19.3f %6d", p.name(), database,
          p.sizeBytes() / 1048576.0, p.usedPercent(), 0));
    }
    t.add(String.format(Locale.ROOT, "%-12s %-24s %14.3f %19.3f %6d", "end", database, r.sizeBytes() / 1048576.0,
        r.usedPercent(), 0));
    return t;
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
