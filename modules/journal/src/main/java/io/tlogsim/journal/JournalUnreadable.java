package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * A journal that cannot be opened at all (a file truncated to nothing, gone, or corrupt) whose ledger names runs: they
 * are lost, and {@link #lost} names them (for {@code runs} and {@code journal verify}); a failure (exit 1), not bad
 * input. Without a ledger naming runs, the same is bad input as before (one line, exit 2). A journal file of 0 bytes,
 * or missing where the ledger says runs were kept, is never silently made anew: that would hide the loss.
 */
public final class JournalUnreadable extends RuntimeException {
  private final List<Ledger.Entry> lost;

  private JournalUnreadable(String message, List<Ledger.Entry> lost) {
    super(message);
    this.lost = List.copyOf(lost);
  }

  /** The runs the ledger names, all lost with the journal (empty without a ledger). */
  public List<Ledger.Entry> lost() {
    return lost;
  }

  static RuntimeException of(JournalSettings s, String what) {
    if (s.kind() == JournalKind.H2) {
      // a new journal is made aside: on a full disk its file may never have come to its place
      java.nio.file.Path where = Files.exists(s.h2File()) ? s.h2File() : s.h2File().getParent();
      if (where != null && Files.exists(where) && JournalSettings.diskFull(where)) {
        return new IllegalStateException(s.describe() + ": " + what + "; its disk is full: free some space");
      }
    }
    List<Ledger.Entry> named = named(s);
    if (named.isEmpty()) return new BadInputException(s.describe() + ": " + what);
    return new JournalUnreadable(s.describe() + ": " + what + (named.isEmpty() ? ""
        : "; the ledger beside it names " + named.size() + " run(s) it held, now lost: " + ids(named)), named);
  }

  /**
   * Refuses an H2 file of 0 bytes, or a missing one the ledger says held runs (before H2 would make one anew). A file
   * another process is creating this moment (an earlier tlogsim made it in place) is empty for a few milliseconds: an
   * empty one is looked at again for up to 3 s before it is refused.
   */
  static void checkFile(JournalSettings s) {
    try {
      for (int tries = 0; Files.exists(s.h2File()) && Files.size(s.h2File()) == 0; tries++) {
        if (tries == 30) {
          throw of(s, "is empty (0 bytes), so every run it held is lost; move it away to start a new journal");
        }
        Thread.sleep(100);
      }
    } catch (IOException e) {
      throw of(s, "cannot be read (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    }
    if (!Files.exists(s.h2File()) && !named(s).isEmpty()) {
      throw of(s, "is missing; move the ledger " + Ledger.of(s).file() + " away to start a new journal");
    }
  }

  private static List<Ledger.Entry> named(JournalSettings s) {
    Ledger l = Ledger.of(s);
    if (l == null) return List.of();
    try {
      return new ArrayList<>(l.entries().values());
    } catch (RuntimeException unreadable) {
      return List.of();
    }
  }

  private static String ids(List<Ledger.Entry> entries) {
    List<String> ids = new ArrayList<>();
    for (Ledger.Entry e : entries) ids.add(e.runId());
    return ids.size() <= 5 ? String.join(", ", ids) : String.join(", ", ids.subList(0, 5)) + " and "
        + (ids.size() - 5) + " more";
  }
}
