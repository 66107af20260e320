package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.kernel.Checkpoint;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * The read side of a journal, for the command line: the runs it holds, and for one run its metadata and status,
 * its last checkpoint, its facts and its results. Events are read through Persistence Query (the JDBC read
 * journal); a run's current state comes from recovering its entity (its last snapshot and the events after it).
 * Nothing here writes to the journal.
 */
public final class RunStore {
  private static final DateTimeFormatter WHEN = DateTimeFormatter.ISO_LOCAL_DATE_TIME;
  private final Journal journal;

  RunStore(Journal journal) {
    this.journal = journal;
  }

  /** A run as listed: its state, or (state null) why it cannot be read. */
  public record Listed(String runId, RunState state, String unreadable) {}

  /** Every run in the journal, oldest first; a run whose rows cannot be read is listed as such, not skipped. */
  public List<Listed> list() {
    if (!journal.exists()) return List.of();
    List<String> ids = journal.await(journal.queries().currentPersistenceIds()
        .runWith(Sink.seq(), journal.system()).toCompletableFuture(), "listing runs");
    String prefix = RunEntity.ENTITY_TYPE + "|";
    List<Listed> out = new ArrayList<>();
    for (String pid : ids) {
      if (!pid.startsWith(prefix)) continue;
      String runId = pid.substring(prefix.length());
      try {
        out.add(new Listed(runId, recover(runId), null));
      } catch (BadInputException e) {
        out.add(new Listed(runId, null, e.getMessage()));
      }
    }
    out.sort(Comparator.comparing((Listed l) -> l.state() == null ? Long.MAX_VALUE : l.state().first().startedAtMillis())
        .thenComparing(Listed::runId));
    return out;
  }

  /** The state of run {@code runId}; bad input when the journal has no such run. */
  public RunState state(String runId) {
    if (runId.isBlank()) throw new BadInputException("the run id must not be empty (tlogsim runs lists the stored runs)");
    RunState s = journal.exists() ? recover(runId) : RunState.EMPTY;
    if (!s.started()) {
      throw new BadInputException("unknown run id '" + runId + "' in the " + journal.settings().describe()
          + " (tlogsim runs lists the stored runs)");
    }
    return s;
  }

  /** True when the journal holds a run with this id (even one it cannot read). */
  public boolean contains(String runId) {
    if (!journal.exists()) return false;
    try {
      return recover(runId).started();
    } catch (BadInputException unreadable) {
      return true;
    }
  }

  private RunState recover(String runId) {
    Journal.LiveEntity e = journal.spawn(runId);
    e.ref().tell(new RunEntity.Stop());
    return e.state();
  }

  /**
   * The state of a run that may be resumed: interrupted (by a signal, or its process died). Bad input, naming why,
   * when it is unknown, completed, failed, or still running.
   */
  public RunState resumable(String runId) {
    RunState s = state(runId);
    switch (s.effectiveStatus()) {
      case INTERRUPTED -> {
        return s;
      }
      case COMPLETED -> throw new BadInputException("run " + runId + " is completed: nothing to resume (tlogsim replay "
          + runId + " rebuilds its summary)");
      case FAILED -> throw new BadInputException("run " + runId + " failed (" + s.reason() + "): a failed run fails"
          + " again the same way; fix its cause and start it anew");
      case RUNNING -> {
        Attempt a = s.attempt();
        throw new BadInputException("run " + runId + " is still running (pid " + a.pid() + " on " + a.host()
            + (a.onThisHost() ? "" : ", another host: this one cannot check it") + ", started "
            + WHEN.format(a.startedAt().atZone(java.time.ZoneId.systemDefault()).toLocalDateTime())
            + "); resume it once its process has stopped");
      }
      default -> throw new IllegalStateException("status " + s.effectiveStatus());
    }
  }

  /** The checkpoint a resume of this run starts from, or null when it has none (it restarts from the beginning). */
  public Checkpoint lastCheckpoint(String runId, RunState state) {
    RunState.CheckpointRef ref = state.lastCheckpoint();
    if (ref == null) return null;
    for (EventEnvelope env : events(runId, ref.sequenceNr(), ref.sequenceNr())) {
      if (env.event() instanceof RunEvent.CheckpointTaken c) return c.checkpoint();
    }
    throw new BadInputException("run " + runId + ": the journal has no checkpoint at sequence number "
        + ref.sequenceNr() + " although the run's snapshot says so; " + journal.settings().describe());
  }

  /** A run as the journal holds it: what it is, how it ended, and its facts. */
  public record StoredRun(String runId, RunSpec spec, RunStatus status, Outcome outcome,
      Map<String, Object> summary, List<StoredFact> facts) {}

  /**
   * Reads a run's history through Persistence Query: its spec, its end, and its facts in window order, those
   * superseded by a resume dropped. The checkpoints' megabytes are skipped (their sequence numbers are known from
   * the run's state).
   */
  public StoredRun load(String runId) {
    RunState known = state(runId);
    RunState folded = RunState.EMPTY;
    List<StoredFact> facts = new ArrayList<>();
    long from = 1;
    List<Long> stops = new ArrayList<>(known.checkpointSequenceNrs());
    stops.add(Long.MAX_VALUE);
    for (long stop : stops) {
      if (stop > from) {
        for (EventEnvelope env : events(runId, from, stop == Long.MAX_VALUE ? Long.MAX_VALUE : stop - 1)) {
          RunEvent ev = event(runId, env);
          if (ev instanceof RunEvent.FactsRecorded f) facts.addAll(f.facts());
          long goneFrom = ev instanceof RunEvent.Resumed r ? r.fromWindow()
              : ev instanceof RunEvent.RolledBack b ? b.fromWindow() : Long.MAX_VALUE;
          facts.removeIf(f -> f.window() >= goneFrom);
          if (!(ev instanceof RunEvent.CheckpointTaken)) folded = folded.apply(ev);
        }
      }
      from = stop + 1;
    }
    if (!folded.started()) {
      throw new BadInputException("run " + runId + ": the journal has no start event for it; "
          + journal.settings().describe());
    }
    return new StoredRun(runId, folded.spec(), known.effectiveStatus(), folded.outcome(), folded.summary(), facts);
  }

  private List<EventEnvelope> events(String runId, long from, long to) {
    String pid = RunEntity.persistenceId(runId).id();
    try {
      return journal.await(journal.queries().currentEventsByPersistenceId(pid, from, to)
          .runWith(Sink.seq(), journal.system()).toCompletableFuture(), "reading run " + runId);
    } catch (Journal.ReadFailed e) {
      throw new BadInputException("run " + runId + ": the journal holds a row that cannot be read ("
          + e.getMessage() + "); " + journal.settings().describe());
    }
  }

  private RunEvent event(String runId, EventEnvelope env) {
    if (env.event() instanceof RunEvent e) return e;
    throw new BadInputException("run " + runId + ": row " + env.sequenceNr() + " of the journal holds a "
        + env.event().getClass().getName() + ", not a tlogsim run event; " + journal.settings().describe());
  }
}
