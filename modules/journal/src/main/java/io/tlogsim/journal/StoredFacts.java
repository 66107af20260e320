package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * A run's facts streamed from the journal in its order, those superseded by a resume or a roll-back left out, without
 * holding them all: a run at trace level {@code full} holds millions. Two steps, because a resume supersedes facts
 * stored before it: first the run's rows are listed with plain SQL (sequence number, event class, size: no payload
 * read), and the few resumes and roll-backs read to learn from which window each supersedes; then the facts' rows are
 * read through Persistence Query in ranges of about {@link #BYTES_PER_READ} of payload, each handed on fact by fact
 * and dropped before the next range is read. Checkpoints' rows (megabytes each) are never read.
 */
final class StoredFacts {
  /**
   * Payload bytes read in one query at most (one row when a single row is larger): one full-trace write of
   * tlogsim.journal.facts-per-write facts is some MB of CBOR, a summary trace's rows some KB.
   */
  static final long BYTES_PER_READ = 4L << 20;

  private static final String ROWS = "SELECT \"sequence_number\", \"event_ser_manifest\", OCTET_LENGTH(\"event_payload\")"
      + " FROM \"event_journal\" WHERE \"persistence_id\" = ? ORDER BY \"sequence_number\"";

  private StoredFacts() {}

  /** What a row holds, from its serializer's manifest (the event's class name). */
  private enum Kind { FACTS, CHECKPOINT, SUPERSEDES, OTHER }

  private record Row(long seq, Kind kind, long bytes) {}

  /**
   * Hands each fact of run {@code runId} that the run's results rest on to {@code sink}, in the journal's order
   * (window order), and returns how many. The caller has checked that the run exists.
   */
  static long read(Journal journal, String runId, Consumer<StoredFact> sink) {
    return read(journal, runId, sink, e -> {});
  }

  /**
   * As {@link #read}, and hands the run's other events (all but its facts and checkpoints: its start, resumes, end) to
   * {@code others} in the journal's order, for the caller to fold into the run's state.
   */
  static long read(Journal journal, String runId, Consumer<StoredFact> sink, Consumer<RunEvent> others) {
    if (!journal.exists()) return 0;
    List<Row> rows = rows(journal, runId);
    // a resume or roll-back from window w supersedes the facts of windows >= w stored before it
    Map<Long, Long> fromWindow = new HashMap<>();
    for (Row r : rows) {
      if (r.kind() != Kind.SUPERSEDES) continue;
      for (EventEnvelope env : events(journal, runId, r.seq(), r.seq())) {
        if (env.event() instanceof RunEvent.Resumed e) fromWindow.put(r.seq(), e.fromWindow());
        if (env.event() instanceof RunEvent.RolledBack e) fromWindow.put(r.seq(), e.fromWindow());
      }
    }
    Map<Long, Long> keepBelow = new HashMap<>(); // facts row -> facts of windows below this are kept
    long cut = Long.MAX_VALUE;
    for (int i = rows.size() - 1; i >= 0; i--) {
      Row r = rows.get(i);
      if (fromWindow.containsKey(r.seq())) cut = Math.min(cut, fromWindow.get(r.seq()));
      if (r.kind() == Kind.FACTS || r.kind() == Kind.OTHER) keepBelow.put(r.seq(), cut);
    }
    long n = 0;
    int i = 0;
    while (i < rows.size()) {
      // a range of rows to read: facts and the small rows between them (start, resumes, end), never a checkpoint's
      if (rows.get(i).kind() == Kind.CHECKPOINT) {
        i++;
        continue;
      }
      long from = rows.get(i).seq(), bytes = 0;
      int j = i;
      while (j < rows.size() && rows.get(j).kind() != Kind.CHECKPOINT
          && (j == i || bytes + rows.get(j).bytes() <= BYTES_PER_READ)) {
        bytes += rows.get(j).bytes();
        j++;
      }
      long to = rows.get(j - 1).seq();
      for (EventEnvelope env : events(journal, runId, from, to)) {
        if (!(env.event() instanceof RunEvent ev)) {
          throw new BadInputException("run " + runId + ": row " + env.sequenceNr() + " of the journal holds a "
              + env.event().getClass().getName() + ", not a tlogsim run event; " + journal.settings().describe());
        }
        if (!(ev instanceof RunEvent.FactsRecorded f)) {
          if (!(ev instanceof RunEvent.CheckpointTaken)) others.accept(ev);
          continue;
        }
        long below = keepBelow.getOrDefault(env.sequenceNr(), Long.MAX_VALUE);
        for (StoredFact fact : f.facts()) {
          if (fact.window() >= below) continue;
          sink.accept(fact);
          n++;
        }
      }
      i = j;
    }
    return n;
  }

  private static List<Row> rows(Journal journal, String runId) {
    List<Row> rows = new ArrayList<>();
    try (Connection c = JournalDatabase.connect(journal.settings()); PreparedStatement st = c.prepareStatement(ROWS)) {
      st.setString(1, RunEntity.persistenceId(runId).id());
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) rows.add(new Row(rs.getLong(1), kind(rs.getString(2)), rs.getLong(3)));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("the rows of run " + runId + " in the " + journal.settings().describe()
          + " cannot be read (" + JournalDatabase.oneLine(e.getMessage()) + ")", e);
    }
    return rows;
  }

  /** The row's event, from the class name Pekko's Jackson serializer stores as its manifest; OTHER is read to see. */
  private static Kind kind(String manifest) {
    if (manifest == null) return Kind.OTHER;
    if (manifest.endsWith("RunEvent$FactsRecorded")) return Kind.FACTS;
    if (manifest.endsWith("RunEvent$CheckpointTaken")) return Kind.CHECKPOINT;
    if (manifest.endsWith("RunEvent$Resumed") || manifest.endsWith("RunEvent$RolledBack")) return Kind.SUPERSEDES;
    return Kind.OTHER;
  }

  private static List<EventEnvelope> events(Journal journal, String runId, long from, long to) {
    String pid = RunEntity.persistenceId(runId).id();
    try {
      return journal.await(journal.queries().currentEventsByPersistenceId(pid, from, to)
          .runWith(Sink.seq(), journal.system()).toCompletableFuture(), "reading run " + runId);
    } catch (Journal.ReadFailed e) {
      throw new BadInputException("run " + runId + ": the journal holds a row that cannot be read ("
          + e.getMessage() + "); " + journal.settings().describe());
    }
  }
}
