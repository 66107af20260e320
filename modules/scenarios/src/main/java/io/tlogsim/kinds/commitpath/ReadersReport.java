package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.Msdb;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the log's readers and writers beside the log manager did (docs/read-path.md): summary.json's backups[],
 * restore, recovery, backupHistory and replication, the text's lines for them, and the client's messages and the
 * error log as tables.
 */
final class ReadersReport {
  private ReadersReport() {}

  /** summary.json's backups[]: one entry per backup set the agent wrote (MB/sec as the completion line has it). */
  static List<Map<String, Object>> backups(BackupAgent.Stats agent, int pageBytes) {
    List<Map<String, Object>> backups = new ArrayList<>();
    for (BackupAgent.Backup bk : agent.backups()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", bk.type());
      m.put("pages", bk.pages());
      m.put("seconds", round(bk.seconds(), 3));
      m.put("mbPerSec", round(bk.seconds() > 0 ? bk.pages() * (double) pageBytes / (1 << 20) / bk.seconds() : 0, 3));
      m.put("historySeconds", round(bk.historySeconds(), 3));
      m.put("historyRows", bk.historyRows());
      m.put("returnedSeconds", round(bk.seconds() + bk.historySeconds(), 3));
      m.put("startSeconds", round(bk.startNanos() / 1e9, 6));
      m.put("bytes", bk.bytes());
      m.put("reads", bk.reads());
      m.put("headerReads", bk.headerReads());
      m.put("vlfBoundaries", bk.boundaries());
      backups.add(m);
    }
    return backups;
  }

  /** summary.json's restore: the restores' times, what they zeroed (first, and as the replay created files). */
  static Map<String, Object> restore(BackupAgent.Stats agent) {
    Map<String, Object> rs = new LinkedHashMap<>();
    double total = 0, zero = 0, dataCopy = 0, logRestore = 0, replayZero = 0;
    long pages = 0;
    for (BackupAgent.Restore r : agent.restores()) {
      total += r.seconds();
      zero += r.zeroInitSeconds();
      replayZero += r.replayZeroNanos() / 1e9;
      pages += r.pagesRedone();
      if (r.type().equals("restore-database")) {
        dataCopy += r.seconds() - r.zeroInitSeconds();
      } else {
        logRestore += r.seconds();
      }
    }
    rs.put("seconds", round(total, 3));
    rs.put("zeroInitSeconds", round(zero, 3));
    rs.put("dataCopySeconds", round(dataCopy, 3));
    rs.put("logRestoreSeconds", round(logRestore, 3));
    rs.put("replayZeroSeconds", round(replayZero, 3));
    rs.put("zeroedBytes", agent.restores().stream().mapToLong(BackupAgent.Restore::zeroedBytes).sum());
    rs.put("pagesRedone", pages);
    rs.put("count", agent.restores().size());
    return rs;
  }

  /** summary.json's recovery: the first recovery's phases (REFERENCE.md 3), what it read and wrote, how many. */
  static Map<String, Object> recovery(RecoveryManager.Stats rm) {
    RecoveryManager.Recovery r = rm.recoveries().get(0);
    Map<String, Object> rec = new LinkedHashMap<>();
    rec.put("crashSeconds", round(r.crashNanos() / 1e9, 6));
    rec.put("startDelaySeconds", round(r.startDelayNanos() / 1e9, 3));
    rec.put("analysisSeconds", round(r.analysisNanos() / 1e9, 3));
    rec.put("redoSeconds", round(r.redoNanos() / 1e9, 3));
    rec.put("undoSeconds", round(r.undoNanos() / 1e9, 3));
    rec.put("seconds", round((r.startDelayNanos() + r.analysisNanos() + r.redoNanos() + r.undoNanos()) / 1e9, 3));
    rec.put("rolledForward", r.rolledForward());
    rec.put("rolledBack", r.rolledBack());
    rec.put("vlfHeaderReads", r.headerReads());
    rec.put("bytesRead", r.bytesRead());
    rec.put("analysisBytes", r.analysisBytes());
    rec.put("redoBytes", r.redoBytes());
    rec.put("undoBytes", r.undoBytes());
    rec.put("vlfBoundaries", r.boundaries());
    rec.put("pagesRead", r.pagesRead());
    rec.put("pagesRedone", r.pagesApplied());
    rec.put("compensationRecords", r.compensationRecords());
    rec.put("count", rm.recoveries().size());
    rec.put("finished", true);
    return rec;
  }

  /** summary.json's backupHistory: the rows msdb holds, and each backup's history. */
  static Map<String, Object> history(Msdb.Stats msdb) {
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("tableRows", msdb.tableRows());
    h.put("pages", msdb.pages());
    List<Map<String, Object>> each = new ArrayList<>();
    for (Msdb.History x : msdb.histories()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("backup", x.backup());
      m.put("rows", x.rows());
      m.put("rowsBefore", x.rowsBefore());
      m.put("seconds", round(x.nanos() / 1e9, 3));
      m.put("rowsExamined", x.rowsExamined());
      m.put("logWrites", x.logWrites());
      m.put("pageWrites", x.pageWrites());
      each.add(m);
    }
    h.put("histories", each);
    return h;
  }

  static Map<String, Object> replication(ReplicationLogReader.Stats r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("passes", r.passes());
    m.put("bytesRead", r.bytesRead());
    return m;
  }

  static List<String> recoveryLines(RecoveryManager.Recovery r) {
    return Text.lines("recovery", String.format(Locale.ROOT, "start-up %.3f s (%s)", r.startDelayNanos() / 1e9,
            Text.plural(r.headerReads(), "VLF header")),
        String.format(Locale.ROOT, "analysis %.3f s", r.analysisNanos() / 1e9),
        String.format(Locale.ROOT, "redo %.3f s (%s read)", r.redoNanos() / 1e9, Text.plural(r.pagesRead(), "page")),
        String.format(Locale.ROOT, "undo %.3f s (%s)", r.undoNanos() / 1e9,
            Text.plural(r.compensationRecords(), "compensation record")),
        r.rolledForward() + " rolled forward", r.rolledBack() + " rolled back");
  }

  static List<String> restoreLines(BackupAgent.Restore r) {
    return Text.lines("restore", r.type() + ": " + String.format(Locale.ROOT, "%.3f s", r.seconds()),
        String.format(Locale.ROOT, "zero-init %.3f s (%s MB)", r.zeroInitSeconds(), Text.count(r.zeroedBytes() >> 20)),
        Text.count(r.copiedBytes() >> 20) + " MB copied");
  }

  /** Lines stamped with their virtual time, as the error log shows them (sorted by time). */
  static List<String> timeline(List<BackupAgent.Message> messages) {
    List<BackupAgent.Message> sorted = new ArrayList<>(messages);
    sorted.sort(Comparator.comparingLong(BackupAgent.Message::timeNanos));
    List<String> out = new ArrayList<>();
    for (BackupAgent.Message m : sorted) {
      out.add(String.format(Locale.ROOT, "%12.3f s  %s", m.timeNanos() / 1e9, m.text()));
    }
    return out;
  }

  static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }
}
