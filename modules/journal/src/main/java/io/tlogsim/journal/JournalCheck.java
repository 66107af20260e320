package io.tlogsim.journal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Whether a journal still holds what was written to it: each run's rows against its ledger's line (an H2 journal's
 * {@link Ledger}: a run whose rows are gone is lost, one with fewer or other rows than its end said is damaged) and
 * against the seal of its last end record (the count and checksum of the events before it). {@code tlogsim runs}
 * counts rows only; {@code tlogsim journal verify} also checks every event's bytes.
 *
 * <p>Rows are read with plain SQL on pekko-persistence-jdbc's table, not through Pekko: a checksum is of the bytes as
 * stored.
 */
public final class JournalCheck {
  private static final String ROWS = "SELECT \"sequence_number\", \"event_payload\" FROM \"event_journal\""
      + " WHERE \"persistence_id\" = ? ORDER BY \"sequence_number\"";
  private static final String COUNTS = "SELECT \"persistence_id\", COUNT(*), MAX(\"sequence_number\")"
      + " FROM \"event_journal\" GROUP BY \"persistence_id\"";

  private JournalCheck() {}

  /** What is wrong with a run, if anything. */
  public enum Damage { LOST, DAMAGED }

  /** A run found lost or damaged, and why (one line). */
  public record Finding(String runId, Damage damage, String why) {}

  /** The count and checksum of the rows the journal holds of run {@code runId}. */
  static RunWriter.Written written(Journal journal, String runId) {
    try (Connection c = JournalDatabase.connect(journal.settings())) {
      return chain(c, runId, Long.MAX_VALUE).written();
    } catch (SQLException e) {
      throw new IllegalStateException("the rows of run " + runId + " in the " + journal.settings().describe()
          + " cannot be read (" + JournalDatabase.oneLine(e.getMessage()) + ")", e);
    }
  }

  /** Rows read in order: their count, their checksum, and the checksum after the first {@code prefix} of them. */
  private record Chain(RunWriter.Written written, long prefixChecksum, boolean gapless) {}

  private static Chain chain(Connection c, String runId, long prefix) throws SQLException {
    long n = 0, checksum = EventChecksum.EMPTY, atPrefix = prefix == 0 ? EventChecksum.EMPTY : -1;
    boolean gapless = true;
    try (PreparedStatement st = c.prepareStatement(ROWS)) {
      st.setString(1, RunEntity.persistenceId(runId).id());
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          n++;
          if (rs.getLong(1) != n) gapless = false;
          checksum = EventChecksum.next(checksum, rs.getBytes(2));
          if (n == prefix) atPrefix = checksum;
        }
      }
    }
    return new Chain(new RunWriter.Written(n, checksum), atPrefix, gapless);
  }

  /** Rows per run id (cheap: one query). */
  static Map<String, Long> rowCounts(Journal journal) {
    Map<String, Long> out = new HashMap<>();
    if (!journal.exists()) return out;
    String prefix = RunEntity.ENTITY_TYPE + "|";
    try (Connection c = JournalDatabase.connect(journal.settings()); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(COUNTS)) {
      while (rs.next()) {
        String pid = rs.getString(1);
        if (pid.startsWith(prefix)) out.put(pid.substring(prefix.length()), rs.getLong(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the " + journal.settings().describe() + " cannot be read ("
          + JournalDatabase.oneLine(e.getMessage()) + ")", e);
    }
    return out;
  }

  /**
   * Every run found lost or damaged, in the ledger's order then the journal's. {@code states}: the runs the journal
   * lists (null state: unreadable); {@code checksums}: read every row's bytes too (else counts only).
   */
  static List<Finding> findings(Journal journal, Map<String, RunState> states, boolean checksums) {
    Map<String, Ledger.Entry> ledger = journal.ledger() == null ? Map.of() : journal.ledger().entries();
    Map<String, Long> rows = rowCounts(journal);
    TreeSet<String> ids = new TreeSet<>(states.keySet());
    ids.addAll(rows.keySet());
    List<String> order = new ArrayList<>(ledger.keySet());
    for (String id : ids) if (!ledger.containsKey(id)) order.add(id);
    List<Finding> out = new ArrayList<>();
    Connection c = null;
    try {
      if (checksums && journal.exists()) c = JournalDatabase.connect(journal.settings());
      for (String id : order) {
        Finding f = finding(id, ledger.get(id), rows.getOrDefault(id, 0L), states.get(id), states.containsKey(id), c);
        if (f != null) out.add(f);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the " + journal.settings().describe() + " cannot be read ("
          + JournalDatabase.oneLine(e.getMessage()) + ")", e);
    } finally {
      JournalDatabase.close(c);
    }
    return out;
  }

  private static Finding finding(String id, Ledger.Entry l, long rows, RunState state, boolean listed, Connection c)
      throws SQLException {
    if (rows == 0) {
      if (l == null) return null; // neither the journal nor the ledger knows it
      return new Finding(id, Damage.LOST, "the ledger records that it " + (l.end() == null ? "started"
          : "ended " + l.end().status().label() + " with " + l.end().events() + " events") + "; the journal holds none"
          + " of it");
    }
    if (listed && state == null) return null; // listed as unreadable (a row of an earlier version, or corrupt)
    if (l != null && l.end() != null && l.failure() == null && !endFollowedBy(l, state) && rows != l.end().events()) {
      return new Finding(id, Damage.DAMAGED, "it ended " + l.end().status().label() + " with " + l.end().events()
          + " events; the journal holds " + rows);
    }
    if (state != null && state.sequenceNr() != rows) {
      return new Finding(id, Damage.DAMAGED, "its state counts " + state.sequenceNr() + " events; the journal holds "
          + rows + " rows");
    }
    if (c == null) return null;
    RunEvent.Seal seal = state == null ? null : state.seal();
    Chain chain = chain(c, id, seal == null ? 0 : seal.events());
    if (!chain.gapless()) return new Finding(id, Damage.DAMAGED, "its rows are not numbered 1.." + rows);
    if (l != null && l.end() != null && l.failure() == null && rows == l.end().events()
        && chain.written().checksum() != l.end().checksum()) {
      return new Finding(id, Damage.DAMAGED, "its " + rows + " events are not those written (checksum "
          + Long.toHexString(chain.written().checksum()) + ", the ledger's " + Long.toHexString(l.end().checksum())
          + ")");
    }
    if (seal != null && chain.prefixChecksum() != seal.checksum()) {
      return new Finding(id, Damage.DAMAGED, "its first " + seal.events() + " events are not those its end record"
          + " sealed (checksum " + Long.toHexString(chain.prefixChecksum()) + ", sealed "
          + Long.toHexString(seal.checksum()) + ")");
    }
    return null;
  }

  /** The ledger's last end was followed by a resume the journal holds (the run went on after it ended). */
  private static boolean endFollowedBy(Ledger.Entry l, RunState state) {
    return state != null && state.sequenceNr() > l.end().events() && state.status() == RunStatus.RUNNING;
  }

  /** Findings by run id, for listing. */
  static Map<String, Finding> byRun(List<Finding> findings) {
    Map<String, Finding> out = new LinkedHashMap<>();
    for (Finding f : findings) out.put(f.runId(), f);
    return out;
  }
}
