package io.tlogsim.database.script;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What each session of a database does, step by step. Every step is a phase in summary.json ({@code phases[]}).
 * Scenario files write it as a HOCON list of objects, each naming its {@code step} and the step's keys (read by
 * {@code io.tlogsim.scenario.ScriptParser}):
 *
 * <pre>
 * script = [
 *   { step = set-log, mode = buffered }                       # Informix SET BUFFERED LOG (or unbuffered, default)
 *   { step = update, rows = 500000, commitEvery = 100 }       # 500,000 single-row UPDATEs, COMMIT every 100
 *   { step = insert, seconds = 60, thinkUs = 100 }            # an endless insert loop for 60 s, every insert commits
 *   { step = large-update, rows = 1000000 }                   # one UPDATE of 1,000,000 rows in one transaction
 *   { step = delayed-durability, on = true }                  # COMMIT WITH (DELAYED_DURABILITY = ON) from now on
 *   { step = think, us = 5000 }
 *   { step = checkpoint }
 *   { step = flush-log }                                      # sys.sp_flush_log
 *   { step = commit-loop, thinkMeanUs = 1000 }                # GCM-1: think, commit (a commit record alone), forever
 *   { step = add-data-file, files = 4000 }                    # read-path: ALTER DATABASE ADD FILE, 4,000 times
 *   { step = remove-data-file, files = 4000 }                 # read-path: ALTER DATABASE REMOVE FILE, 4,000 times
 *   { step = backup-database, differential = false }          # read-path: BACKUP DATABASE [WITH DIFFERENTIAL]
 *   { step = backup-log }                                     # read-path: BACKUP LOG
 *   { step = large-update, rows = 1000000, statements = 5, commit = false }  # read-path: 5 UPDATEs, left open
 *   { step = crash }                                          # read-path: SHUTDOWN WITH NOWAIT, then restart
 *   { step = restore-database, recovery = false }             # read-path: RESTORE DATABASE ... WITH NORECOVERY
 *   { step = restore-log, recovery = true }                   # read-path: RESTORE LOG ... WITH RECOVERY
 * ]
 * </pre>
 * Loops of statements (insert, update, delete) take {@code rows} or {@code seconds}, {@code commitEvery} (default 1),
 * {@code thinkUs} before each statement (default 0), {@code think = fixed | exponential}, and
 * {@code access = sequential | random}. Any step takes a {@code name} for its phase.
 */
public record Script(List<Step> steps) {
  public Script {
    steps = List.copyOf(steps);
  }

  /** The script as summary.json shows it: the steps as given. */
  @JsonValue
  public List<Map<String, Object>> given() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Step s : steps) out.add(s.given());
    return out;
  }

  /** The steps as given, e.g. [{step=insert, rows=10}] (what --dry-run shows). */
  @Override
  public String toString() {
    return given().toString();
  }

  public boolean has(Step.Type type) {
    for (Step s : steps) if (s.type() == type) return true;
    return false;
  }
}
