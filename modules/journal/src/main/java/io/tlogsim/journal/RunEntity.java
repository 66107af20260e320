package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
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
 * One run, event-sourced (DESIGN.md principle 5): persistence id {@code Run|<runId>}. It writes what the run's
 * process tells it (start, facts and checkpoint per interval, the end) and answers with its state. Writes are few
 * and large: the process batches facts per checkpoint interval before it tells them (never one write per simulated
 * event). A snapshot of the (small) state is taken at every checkpoint and at the end, so recovering a run reads
 * one snapshot and the events after it, never the checkpoints before.
 *
 * <p>Whoever spawns it gets {@link Recovered} once its recovery ends, with its state or why the journal could not be
 * read (a corrupt row), before any command is handled.
 */
public final class RunEntity extends EventSourcedBehavior<RunEntity.Command, RunEvent, RunState> {
  public static final String ENTITY_TYPE = "Run";

  public sealed interface Command extends CborSerializable {}

  /** Records the start of a new run; refused when the run id is already in the journal. */
  public record Start(RunSpec spec, Attempt attempt, ActorRef<Reply> replyTo) implements Command {}

  /** Records that the run goes on from the checkpoint of {@code fromWindow} in {@code attempt}'s process. */
  public record Resume(long fromWindow, Attempt attempt, ActorRef<Reply> replyTo) implements Command {}

  /** Facts of a checkpoint interval that grew past tlogsim.journal.facts-per-write before its checkpoint. */
  public record RecordFacts(RunEvent.FactsRecorded facts) implements Command {}

  /** The run went back to the checkpoint of {@code fromWindow}; the facts of the interval so far are written first. */
  public record RollBack(RunEvent.FactsRecorded facts, long fromWindow) implements Command {}

  /** A checkpoint and the facts of the interval before it (null if none), written together. */
  public record TakeCheckpoint(RunEvent.FactsRecorded facts, RunEvent.CheckpointTaken checkpoint) implements Command {}

  /** The end of the run ({@link RunEvent.Completed}, {@link RunEvent.Failed} or {@link RunEvent.Interrupted}) and
   * the facts not yet written (null if none). */
  public record Finish(RunEvent.FactsRecorded facts, RunEvent end, ActorRef<Reply> replyTo) implements Command {}

  public record GetState(ActorRef<RunState> replyTo) implements Command {}

  public record Stop() implements Command {}

  /** Answer to a command that changes the run: {@code error} is null when it was written. */
  public record Reply(String error) implements CborSerializable {
    static final Reply OK = new Reply(null);
  }

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
        .onCommand(Start.class, this::onStart)
        .onCommand(Resume.class, this::onResume)
        .onCommand(RecordFacts.class, (state, c) -> Effect().persist(c.facts()))
        .onCommand(TakeCheckpoint.class, (state, c) -> Effect().persist(events(c.facts(), c.checkpoint())))
        .onCommand(RollBack.class, (state, c) -> Effect().persist(events(c.facts(),
            new RunEvent.RolledBack(c.fromWindow()))))
        .onCommand(Finish.class, (state, c) -> Effect().persist(events(c.facts(), c.end()))
            .thenReply(c.replyTo(), s -> Reply.OK))
        .onCommand(GetState.class, (state, c) -> Effect().reply(c.replyTo(), state))
        .onCommand(Stop.class, (state, c) -> Effect().stop())
        .build();
  }

  private Effect<RunEvent, RunState> onStart(RunState state, Start c) {
    if (state.started()) {
      return Effect().reply(c.replyTo(), new Reply("run " + c.spec().runId() + " is already in the journal"));
    }
    return Effect().persist(new RunEvent.Started(c.spec(), c.attempt())).thenReply(c.replyTo(), s -> Reply.OK);
  }

  private Effect<RunEvent, RunState> onResume(RunState state, Resume c) {
    if (!state.started()) return Effect().reply(c.replyTo(), new Reply("no such run in the journal"));
    return Effect().persist(new RunEvent.Resumed(c.fromWindow(), c.attempt())).thenReply(c.replyTo(), s -> Reply.OK);
  }

  private static List<RunEvent> events(RunEvent.FactsRecorded facts, RunEvent last) {
    List<RunEvent> events = new ArrayList<>(2);
    if (facts != null && !facts.facts().isEmpty()) events.add(facts);
    events.add(last);
    return events;
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
