package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.RecoveryFailed;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * One run, event-sourced (DESIGN.md principle 5): persistence id {@code Run|<runId>}. It writes the events the run's
 * process hands it ({@link RunWriter}: start, facts and checkpoint per interval, the end), each write at most once,
 * and answers with its state. Writes are few and large: the process batches facts per checkpoint interval before it
 * hands them on (never one write per simulated event). A snapshot of the (small) state is taken at every checkpoint and at the end, so recovering a run reads
 * one snapshot and the events after it, never the checkpoints before.
 *
 * <p>Whoever spawns it gets {@link Recovered} once its recovery ends, with its state or why the journal could not be
 * read (a corrupt row), before any command is handled.
 */
public final class RunEntity extends EventSourcedBehavior<RunEntity.Command, RunEvent, RunState> {
  public static final String ENTITY_TYPE = "Run";

  public sealed interface Command extends CborSerializable {}

  /**
   * Writes {@code events} (atomically) if the run holds {@code afterSeq} events now; answers with the number it holds
   * after. Sent again after a failed write (a journal that came back), it is written at most once: a run that holds
   * them already answers at once. Any other count is a conflict (the id is another run's, or something else wrote it).
   */
  public record Persist(List<RunEvent> events, long afterSeq, ActorRef<Persisted> replyTo) implements Command {}

  /** Answer to {@link Persist}: the events the run holds; {@code conflict} non-null when nothing was written. */
  public record Persisted(long sequenceNr, String conflict) implements CborSerializable {}

  public record GetState(ActorRef<RunState> replyTo) implements Command {}

  public record Stop() implements Command {}

  /** The end of recovery: the state, or (state null) why the journal could not be read. */
  public record Recovered(RunState state, String failure) implements CborSerializable {}

  private final ActorRef<Recovered> onRecovery;

  public static Behavior<Command> create(String runId, ActorRef<Recovered> onRecovery) {
    return Behaviors.setup(ctx -> new RunEntity(runId, onRecovery));
  }

  public static PersistenceId persistenceId(String runId) {
    return PersistenceId.of(ENTITY_TYPE, runId);
  }

  private RunEntity(String runId, ActorRef<Recovered> onRecovery) {
    super(persistenceId(runId));
    this.onRecovery = onRecovery;
  }

  @Override
  public RunState emptyState() {
    return RunState.EMPTY;
  }

  @Override
  public CommandHandler<Command, RunEvent, RunState> commandHandler() {
    return newCommandHandlerBuilder().forAnyState()
        .onCommand(Persist.class, this::onPersist)
        .onCommand(GetState.class, (state, c) -> Effect().reply(c.replyTo(), state))
        .onCommand(Stop.class, (state, c) -> Effect().stop())
        .build();
  }

  private Effect<RunEvent, RunState> onPersist(RunState state, Persist c) {
    long have = state.sequenceNr();
    if (have == c.afterSeq()) {
      return Effect().persist(c.events()).thenReply(c.replyTo(), s -> new Persisted(s.sequenceNr(), null));
    }
    if (c.afterSeq() > 0 && have >= c.afterSeq() + c.events().size()) { // written before its answer was lost
      return Effect().reply(c.replyTo(), new Persisted(have, null));
    }
    return Effect().reply(c.replyTo(), new Persisted(have, have == 0 ? "no such run in the journal"
        : c.afterSeq() == 0 ? "run " + state.spec().runId() + " is already in the journal"
        : "the journal holds " + have + " events of the run where " + c.afterSeq() + " were written"));
  }

  @Override
  public EventHandler<RunState, RunEvent> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(RunState::apply);
  }

  /** Snapshot the small state at each checkpoint and at the end: recovery then never reads old checkpoints. */
  @Override
  public boolean shouldSnapshot(RunState state, RunEvent event, long sequenceNr) {
    return event instanceof RunEvent.CheckpointTaken || event instanceof RunEvent.Completed
        || event instanceof RunEvent.Failed || event instanceof RunEvent.Interrupted;
  }

  @Override
  public SignalHandler<RunState> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(RecoveryCompleted.instance(), state -> onRecovery.tell(new Recovered(state, null)))
        .onSignal(RecoveryFailed.class, (state, failed) -> onRecovery.tell(new Recovered(null, describe(failed.getFailure()))))
        .build();
  }

  /** The innermost message of a failure, on one line. */
  static String describe(Throwable t) {
    Throwable cur = t;
    StringBuilder sb = new StringBuilder();
    while (cur != null) {
      String m = cur.getMessage();
      if (m != null && !m.isBlank() && sb.indexOf(m) < 0) {
        if (sb.length() > 0) sb.append(": ");
        sb.append(cur.getClass().getSimpleName()).append(' ').append(m);
      }
      cur = cur.getCause() == cur ? null : cur.getCause();
    }
    return JournalDatabase.oneLine(sb.length() == 0 ? String.valueOf(t) : sb.toString());
  }
}
