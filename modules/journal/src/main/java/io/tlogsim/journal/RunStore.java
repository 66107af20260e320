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

  /**
   * A run as listed: its state, or (state null) why it cannot be read or that it is lost; what the check of the
   * journal found wrong with it (null: nothing, see {@link JournalCheck}); and what the ledger says of it (null: the
   * journal keeps no ledger, or the run is older than it).
   */
  public record Listed(String runId, RunState state, String unreadable, JournalCheck.Finding damage,
      Ledger.Entry ledger) {
    /** What {@code runs} shows: lost or damaged where the check found so, else the run's status. */
    public String status() {
      if (damage != null) return damage.damage().name().toLowerCase(java.util.Locale.ROOT);
      if (state == null) return "unreadable";
      return RunStore.status(state, ledger).label();
    }
  }

  /**
   * Every run in the journal, oldest first, and those its ledger names that it lost; a run whose rows cannot be read
   * is listed as such, not skipped. Rows are counted against the ledger, not read ({@code verify} reads them).
   */
  public List<Listed> list() {
    return list(false);
  }

  /** {@link #list}, every row's bytes checked too when {@code checksums} ({@code tlogsim journal verify}). */
  public List<Listed> list(boolean checksums) {
    Map<String, RunState> states = new java.util.LinkedHashMap<>();
    Map<String, String> unreadable = new java.util.HashMap<>();
    if (journal.exists()) {
      List<String> ids = journal.await(journal.queries().currentPersistenceIds()
          .runWith(Sink.seq(), journal.system()).toCompletableFuture(), "listing runs");
      String prefix = RunEntity.ENTITY_TYPE + "|";
      for (String pid : ids) {
        if (!pid.startsWith(prefix)) continue;
        String runId = pid.substring(prefix.length());
        try {
          states.put(runId, recover(runId));
        } catch (BadInputException e) {
          states.put(runId, null);
          unreadable.put(runId, e.getMessage());
        }
      }
    }
    Map<String, JournalCheck.Finding> found = JournalCheck.byRun(JournalCheck.findings(journal, states, checksums));
    Map<String, Ledger.Entry> ledger = journal.ledger() == null ? Map.of() : journal.ledger().entries();
    List<Listed> out = new ArrayList<>();
    for (Map.Entry<String, RunState> e : states.entrySet()) {
      out.add(new Listed(e.getKey(), e.getValue(), unreadable.get(e.getKey()), found.get(e.getKey()),
          ledger.get(e.getKey())));
    }
    for (JournalCheck.Finding f : found.values()) {
      if (!states.containsKey(f.runId())) out.add(new Listed(f.runId(), null, f.why(), f, ledger.get(f.runId())));
    }
    out.sort(Comparator.comparingLong((Listed l) -> l.state() != null ? l.state().first().startedAtMillis()
            : l.ledger() != null ? l.ledger().startedAtMillis() : Long.MAX_VALUE)
        .thenComparing(Listed::runId));
    return out;
  }

  /**
   * A run's status with its process and its ledger taken into account: RUNNING whose process is gone is INTERRUPTED,
   * or FAILED when the ledger says its journal could not be written.
   */
  static RunStatus status(RunState state, Ledger.Entry ledger) {
    RunStatus s = state.effectiveStatus();
    if (s == RunStatus.INTERRUPTED && state.status() == RunStatus.RUNNING && ledger != null && ledger.failure() != null) {
      return RunStatus.FAILED;
    }
    return s;
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
    Ledger.Entry l = journal.ledger() == null ? null : journal.ledger().entries().get(runId);
    if (status(s, l) == RunStatus.FAILED && s.status() == RunStatus.RUNNING) {
      throw new BadInputException("run " + runId + " failed: " + l.failure());
    }
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

  /**
   * Hands the facts of run {@code runId} to {@code sink} one by one, streamed (never all in memory: a full trace holds
   * millions), in window order, those superseded by a resume or roll-back left out: the facts {@link #load} gives.
   * Returns how many. Bad input when the journal has no such run.
   */
  public long facts(String runId, java.util.function.Consumer<StoredFact> sink) {
    state(runId);
    return StoredFacts.read(journal, runId, sink);
  }

  /**
   * The latest checkpoint of a run taken at or before simulated time {@code nanos} (its earliest pending event at or
   * before it), or null when it has none that early (the state at {@code nanos} is then simulated from the start).
   * Any checkpoint of a run is a state of its one history (deterministic), those before a resume or a roll-back too.
   * Checkpoints are in the order of their simulated time, so a binary search reads a few of them, not every one.
   */
  public Checkpoint checkpointAtOrBefore(String runId, RunState state, long nanos) {
    List<Long> seqs = state.checkpointSequenceNrs();
    int lo = 0, hi = seqs.size() - 1;
    Checkpoint best = null;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      Checkpoint c = checkpointAt(runId, seqs.get(mid));
      if (c.simulatedNanos() <= nanos) {
        best = c;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best;
  }

  /**
   * The simulated times (ns) of a run's checkpoints, in order: what its report marks on the timeline (a branch's first
   * is its start). From the run's state; read from each checkpoint's event for a state that lacks them.
   */
  public List<Long> checkpointTimes(String runId, RunState state) {
    if (state.checkpointNanos().size() == state.checkpointSequenceNrs().size()) return state.checkpointNanos();
    List<Long> out = new java.util.ArrayList<>(); // a state of an older version: read from the checkpoints
    for (long seq : state.checkpointSequenceNrs()) out.add(checkpointAt(runId, seq).simulatedNanos());
    return out;
  }

  private Checkpoint checkpointAt(String runId, long sequenceNr) {
    for (EventEnvelope env : events(runId, sequenceNr, sequenceNr)) {
      if (env.event() instanceof RunEvent.CheckpointTaken c) return c.checkpoint();
    }
    throw new BadInputException("run " + runId + ": the journal has no checkpoint at sequence number " + sequenceNr
        + " although the run's state says so; " + journal.settings().describe());
  }

  /**
   * A run as the journal holds it: what it is, how it ended, its facts (those asked for) and how many facts it has in
   * all (superseded ones not counted).
   */
  public record StoredRun(String runId, RunSpec spec, RunStatus status, Outcome outcome,
      Map<String, Object> summary, List<StoredFact> facts, long factsKept) {}

  /** {@link #load(String, java.util.function.Predicate)} with every fact. */
  public StoredRun load(String runId) {
    return load(runId, f -> true);
  }

  /**
   * Reads a run's history through Persistence Query: its spec, its end, and the facts {@code keep} keeps in window
   * order, those superseded by a resume dropped (streamed: a full trace's other facts are never all held). The
   * checkpoints' megabytes are skipped.
   */
  public StoredRun load(String runId, java.util.function.Predicate<StoredFact> keep) {
    RunState known = state(runId);
    RunState[] folded = {RunState.EMPTY};
    List<StoredFact> facts = new ArrayList<>();
    long all = StoredFacts.read(journal, runId, f -> {
      if (keep.test(f)) facts.add(f);
    }, ev -> folded[0] = folded[0].apply(ev));
    if (!folded[0].started()) {
      throw new BadInputException("run " + runId + ": the journal has no start event for it; "
          + journal.settings().describe());
    }
    return new StoredRun(runId, folded[0].spec(), known.effectiveStatus(), folded[0].outcome(), folded[0].summary(),
        facts, all);
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

}
