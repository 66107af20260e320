package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;

/**
 * Gives a journal's space back: deletes whole runs (every row of their persistence ids: events, their tags,
 * snapshots), and compacts an H2 file offline.
 *
 * <p>Compaction is not the compaction on close that {@link JournalSettings#H2_NO_COMPACTION_ON_CLOSE} turns off
 * (up to 200 ms of moving chunks inside the live file at every close, which corrupted files): {@code SHUTDOWN
 * COMPACT} copies every live page into a new file and replaces the old one with it, once, with the database open by
 * this process alone (opened without AUTO_SERVER: a journal another process has open is refused, not shared).
 * {@code JournalCompactionTest} runs it over many cycles of writes, deletions and reopenings.
 */
public final class RunDeletion {
  private RunDeletion() {}

  /** Deletes the runs' rows in one transaction: all of them or, on an error, none. */
  public static void delete(JournalSettings s, Collection<String> runIds) {
    JournalSettings as = s.kind() == JournalKind.H2 ? H2Keys.find(s).everyday(s) : s; // the journal's own passwords
    try (Connection c = JournalDatabase.connect(as)) {
      c.setAutoCommit(false);
      try (PreparedStatement tags = c.prepareStatement("DELETE FROM \"event_tag\" WHERE \"event_id\" IN"
              + " (SELECT \"ordering\" FROM \"event_journal\" WHERE \"persistence_id\" = ?)");
          PreparedStatement events = c.prepareStatement("DELETE FROM \"event_journal\" WHERE \"persistence_id\" = ?");
          PreparedStatement snapshots = c.prepareStatement("DELETE FROM \"snapshot\" WHERE \"persistence_id\" = ?")) {
        for (String runId : runIds) {
          String pid = RunEntity.persistenceId(runId).id();
          for (PreparedStatement p : new PreparedStatement[] {tags, events, snapshots}) {
            p.setString(1, pid);
            p.executeUpdate();
          }
        }
        // the ledger forgets them first: a deletion that then fails leaves runs it does not name (verify checks
        // their rows against their state), never a deleted run it would call lost
        Ledger ledger = Ledger.of(s);
        if (ledger != null) {
          for (String runId : runIds) ledger.deleted(runId);
        }
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      } catch (java.io.IOException e) {
        c.rollback();
        throw new IllegalStateException("the ledger " + Ledger.of(s).file() + " cannot be written (" + e.getMessage()
            + "); nothing was deleted", e);
      }
    } catch (SQLException e) {
      throw new BadInputException(s.describe() + ": cannot delete runs (" + oneLine(e.getMessage()) + ")");
    }
  }

  /** An H2 file's size before and after compaction, in bytes. */
  public record Compacted(long before, long after) {}

  /**
   * Compacts an H2 journal offline: bad input, naming why, when another process has it open (a run, a node) or it
   * is not an H2 journal. Returns the file's size before and after.
   */
  public static Compacted compact(JournalSettings s) {
    if (s.kind() != JournalKind.H2) {
      throw new BadInputException("runs compact: only an H2 journal is compacted here; PostgreSQL reuses the space of "
          + "deleted rows itself (autovacuum), and VACUUM FULL gives it back to the system");
    }
    Path file = s.h2File();
    if (!Files.exists(file)) throw new BadInputException(s.describe() + ": does not exist");
    JournalDatabase.h2Properties();
    long before = size(file);
    // this process alone, as the journal's owner (SHUTDOWN needs admin rights): without AUTO_SERVER, a file another
    // process has open cannot be opened
    JournalSettings owner = H2Keys.find(s).owner(s.withShared(false));
    try (Connection c = java.sql.DriverManager.getConnection(owner.jdbcUrl(), owner.user(), owner.password());
        Statement st = c.createStatement()) {
      st.execute("SHUTDOWN COMPACT");
    } catch (SQLException e) {
      if (e.getErrorCode() == 90020 || String.valueOf(e.getMessage()).contains("already in use")) {
        throw new BadInputException(s.describe() + ": is open in another process (a run, tlogsim runs, a node); "
            + "compact it when none is running (its free space is reused by later runs meanwhile)");
      }
      throw new BadInputException(s.describe() + ": cannot be compacted (" + oneLine(e.getMessage()) + ")");
    }
    return new Compacted(before, size(file));
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }

  private static String oneLine(String s) {
    String t = String.valueOf(s).replace('\n', ' ');
    return t.length() > 200 ? t.substring(0, 200) + "..." : t;
  }
}
