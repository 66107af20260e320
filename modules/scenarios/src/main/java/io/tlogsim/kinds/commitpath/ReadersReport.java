package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.RecoveryManager;
import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What the log's readers and writers beside the log manager did (docs/read-path.md), for people: the text's lines for
 * recovery and restores, and the client's messages and the error log as tables (summary.json's sections for them are
 * {@link io.tlogsim.scenario.summary.Summary}'s).
 */
final class ReadersReport {
  private ReadersReport() {}

  static List<String> recoveryLines(RecoveryManager.Recovery r) {
    return recoveryLines("recovery", r);
  }

  /** The same under {@code label} ("restore": the recovery that ended a restore WITH RECOVERY). */
  static List<String> recoveryLines(String label, RecoveryManager.Recovery r) {
    return Text.lines(label.equals("recovery") ? label : label + " recovery", String.format(Locale.ROOT, "start-up %.3f s (%s)", r.startDelayNanos() / 1e9,
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
}
