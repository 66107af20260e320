package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.logspace.LogLayout;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a managed log space shows at the end of a run, as DBAs know it: its lines of the text, and the tables
 * {@code loginfo} (DBCC LOGINFO) and {@code logspace} (DBCC SQLPERF(LOGSPACE)). Its figures in summary.json
 * ({@code log.vlfs}, {@code log.sizeBytes}, ..., {@code logspace[]}, {@code waits.PREEMPTIVE_OS_WRITEFILEGATHER}) are
 * {@link io.tlogsim.scenario.summary.Summary}'s.
 */
public final class LogSpaceReport {
  private LogSpaceReport() {}

  /** SQL Server's wait type while a file is zero-initialized. */
  public static final String ZEROING_WAIT = "PREEMPTIVE_OS_WRITEFILEGATHER";

  /** The log space's lines after the commit path's, and its tables ({@code loginfo}, {@code logspace}). */
  static void addTo(ManagedLogSpace.Report r, String database, List<String> lines, Map<String, List<String>> tables) {
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

}
