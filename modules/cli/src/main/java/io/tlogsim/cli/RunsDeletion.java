package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunDeletion;
import io.tlogsim.journal.RunState;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.journal.RunStore;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code runs delete} and {@code runs prune} share: the runs to delete are checked first (every id known, none
 * still running: else bad input and nothing deleted), deleted in one transaction, and an H2 file is then compacted
 * when no other process has it open, which gives the space back.
 */
final class RunsDeletion {
  private RunsDeletion() {}

  /**
   * Deletes the runs {@code choose} picks from the journal's list (in its order), says so on {@code out}, and
   * compacts unless {@code compact} is false. With {@code dryRun} it only says what it would delete.
   */
  static int delete(JournalSettings js, Function<List<RunStore.Listed>, List<String>> choose, boolean dryRun,
      boolean compact, PrintWriter out) {
    Map<String, String> chosen = new LinkedHashMap<>(); // run id -> where its files are
    try (Journal journal = Journal.openForReading(js)) {
      List<RunStore.Listed> runs = journal.store().list();
      Map<String, RunStore.Listed> byId = new LinkedHashMap<>();
      for (RunStore.Listed l : runs) byId.put(l.runId(), l);
      for (String id : choose.apply(runs)) {
        RunStore.Listed l = byId.get(id);
        if (l == null) {
          throw new BadInputException("unknown run id '" + id + "' in the " + js.describe()
              + " (tlogsim runs lists the stored runs); nothing deleted");
        }
        RunState s = l.state();
        if (s != null && s.effectiveStatus() == RunStatus.RUNNING) {
          throw new BadInputException("run " + id + " is still running (pid " + s.attempt().pid() + " on "
              + s.attempt().host() + "); stop it first; nothing deleted");
        }
        chosen.put(id, s == null ? null : s.spec().outDir());
      }
    }
    if (chosen.isEmpty()) {
      out.println("no run to delete");
      out.flush();
      return Tlogsim.OK;
    }
    if (dryRun) {
      chosen.keySet().forEach(id -> out.println("would delete " + id));
      out.flush();
      return Tlogsim.OK;
    }
    RunDeletion.delete(js, new ArrayList<>(chosen.keySet()));
    chosen.forEach((id, dir) -> out.println("deleted " + id + (dir == null ? "" : " (its files in " + dir
        + " are kept)")));
    if (compact && js.kind() == JournalKind.H2) {
      try {
        RunDeletion.Compacted c = RunDeletion.compact(js);
        out.println("journal " + mb(c.before()) + " -> " + mb(c.after()) + " (" + js.h2File() + ")");
      } catch (BadInputException inUse) {
        out.println("journal not compacted: " + inUse.getMessage());
      }
    } else if (compact) {
      out.println("the deleted rows' space is reused by PostgreSQL (autovacuum); VACUUM FULL gives it back to the "
          + "system");
    }
    out.flush();
    return Tlogsim.OK;
  }

  static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
