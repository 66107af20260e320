package io.tlogsim.journal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.serialization.SerializationExtension;

/**
 * Writes one run's events in order, each exactly once, through the run's entity (its child): what the run's process
 * hands it is queued and sent on at once (writes are pipelined), and kept until the entity answers that it is written.
 *
 * <p>If a write fails, the entity stops. With no time to retry (an H2 file: a full or lost disk does not come back),
 * the writer gives up at once: every write waiting fails, and {@link Handle#failure} completes with why, which stops
 * the run ({@code RunSettings.abort}). Given time to retry (PostgreSQL: a restart, a network cut), it starts a new
 * entity after a backoff (0.5 s, doubling to 10 s), which recovers what the journal holds, and sends every write not
 * answered yet again (the entity skips those it holds already); meanwhile the run goes on, takes no new checkpoint
 * (see {@link Handle#checkpointsInFlight}), and waits at its end until its end is written.
 *
 * <p>The writer also keeps the count and checksum of the events written ({@link EventChecksum}), for the run's end
 * record.
 */
final class RunWriter extends AbstractBehavior<RunWriter.Command> {
  sealed interface Command {}

  /** Events to write after everything queued before; {@code done} completes once they are written. */
  record Write(List<RunEvent> events, boolean checkpoint, CompletableFuture<Written> done) implements Command {}

  /** The run's end: made from the seal of every event queued before it, then written as {@link Write}. */
  record WriteEnd(java.util.function.Function<RunEvent.Seal, RunEvent> end, CompletableFuture<Written> done)
      implements Command {}

  /** Completes {@code done} once everything queued before is written. */
  record Sync(CompletableFuture<Written> done) implements Command {}

  /** Stops the entity and the writer (what is queued and not written is given up). */
  record Close() implements Command {}

  private record Answered(RunEntity.Persisted persisted) implements Command {}

  private record Ready(RunEntity.Recovered recovered) implements Command {}

  private record Respawn() implements Command {}

  /** A run's events up to some write: how many, and their checksum. */
  record Written(long events, long checksum) {}

  /** The writer as its users see it. */
  record Handle(ActorRef<Command> ref, RunState recovered, CompletableFuture<String> failure,
      AtomicInteger checkpointsInFlight) {}

  private record Pending(List<RunEvent> events, long afterSeq, Written after, boolean checkpoint,
      CompletableFuture<Written> done) {}

  private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
  // Writes sent to the entity and not answered yet, at most. The entity stashes what it is sent while it persists,
  // and Pekko's typed stash (pekko.persistence.typed.stash-capacity, 4096 by default) drops what does not fit: with
  // small fact rows (tlogsim.journal.facts-per-write = 4, --trace full) a fast run handed on thousands of writes at
  // once, the entity dropped some, and the next one found a gap ("the journal holds 7331 events of the run where 7332
  // were written"). The rest wait here, in order, and go as answers come back.
  static final int MAX_IN_FLIGHT = 256;

  private final String runId;
  private final String journal; // for messages
  private final Duration retryFor;
  private final CompletableFuture<Handle> ready;
  private final CompletableFuture<String> failure = new CompletableFuture<>();
  private final AtomicInteger checkpointsInFlight = new AtomicInteger();
  private final TimerScheduler<Command> timers;
  private final RunEventSerializer serializer;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private ArrayDeque<Pending> unsent = new ArrayDeque<>(); // the tail of queue not sent to the current entity yet
  private int inFlight; // writes sent to the current entity and not answered yet
  private final ActorRef<RunEntity.Persisted> answers;
  private ActorRef<RunEntity.Command> entity;
  private boolean entityReady;
  private long incarnation;
  private Written queued; // every event queued so far
  private Written acked; // every event the journal holds
  private long outageSince = -1; // System.nanoTime() of the first failure of an outage, -1: none
  private Duration backoff = FIRST_BACKOFF;
  private boolean closing;

  /**
   * Starts the writer of run {@code runId}; {@code ready} completes once its entity has recovered, with the state the
   * journal holds. {@code written} is what those events are (their count and checksum: zero for a new run; for a run
   * going on, read from the journal's rows), {@code retryFor} how long to retry failed writes (zero: never).
   */
  static Behavior<Command> create(String runId, String journal, Written written, Duration retryFor,
      CompletableFuture<Handle> ready) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new RunWriter(ctx, timers, runId, journal, written, retryFor, ready)));
  }

  private RunWriter(ActorContext<Command> ctx, TimerScheduler<Command> timers, String runId, String journal,
      Written written, Duration retryFor, CompletableFuture<Handle> ready) {
    super(ctx);
    this.timers = timers;
    this.runId = runId;
    this.journal = journal;
    this.retryFor = retryFor;
    this.ready = ready;
    this.queued = written;
    this.acked = written;
    this.serializer = serializer(ctx);
    this.answers = ctx.messageAdapter(RunEntity.Persisted.class, Answered::new);
    spawnEntity();
  }

  private static RunEventSerializer serializer(ActorContext<?> ctx) {
    try {
      return (RunEventSerializer) SerializationExtension.get(ctx.getSystem()).serializerFor(RunEvent.class);
    } catch (java.io.NotSerializableException | ClassCastException e) {
      throw new IllegalStateException("the journal's events are not bound to " + RunEventSerializer.class.getName()
          + " (Journal.systemConfig)", e);
    }
  }

  private void spawnEntity() {
    entityReady = false;
    ActorRef<RunEntity.Recovered> listener = getContext().messageAdapter(RunEntity.Recovered.class, Ready::new);
    entity = getContext().spawn(Behaviors.supervise(RunEntity.create(runId, listener))
        .onFailure(SupervisorStrategy.stop().withLoggingEnabled(false)), "run-" + (++incarnation),
        org.apache.pekko.actor.typed.DispatcherSelector.sameAsParent());
    getContext().watch(entity);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Write.class, this::onWrite)
        .onMessage(WriteEnd.class, w -> onWrite(new Write(List.of(w.end().apply(
            new RunEvent.Seal(queued.events(), queued.checksum()))), false, w.done())))
        .onMessage(Sync.class, this::onSync)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(Ready.class, this::onReady)
        .onMessage(Respawn.class, r -> {
          spawnEntity();
          return this;
        })
        .onMessage(Close.class, c -> {
          closing = true;
          IllegalStateException e = new IllegalStateException("run " + runId + ": its writer was closed");
          for (Pending p : queue) {
            p.events().forEach(serializer::forget);
            p.done().completeExceptionally(e);
          }
          queue.clear();
          unsent.clear();
          return Behaviors.stopped(); // the entity, a child, stops with it
        })
        .onSignal(ChildFailed.class, f -> onEntityStopped(f.getRef(), f.getCause()))
        .onSignal(Terminated.class, t -> onEntityStopped(t.getRef(), null))
        .build();
  }

  private Behavior<Command> onWrite(Write w) {
    if (failure.isDone()) {
      w.done().completeExceptionally(new IllegalStateException(failure.join()));
      return this;
    }
    long checksum = queued.checksum();
    for (RunEvent e : w.events()) checksum = EventChecksum.next(checksum, bytes(e));
    Pending p = new Pending(w.events(), queued.events(), new Written(queued.events() + w.events().size(), checksum),
        w.checkpoint(), w.done());
    queued = p.after();
    if (p.checkpoint()) checkpointsInFlight.incrementAndGet();
    queue.add(p);
    unsent.add(p);
    sendMore();
    return this;
  }

  private byte[] bytes(RunEvent e) {
    return serializer.bytesToWrite(e); // the bytes the journal's plugin writes: made once (RunEventSerializer)
  }

  /** Sends the writes waiting, in order, while fewer than {@link #MAX_IN_FLIGHT} are unanswered. */
  private void sendMore() {
    while (entityReady && !unsent.isEmpty() && inFlight < MAX_IN_FLIGHT) {
      Pending p = unsent.pollFirst();
      if (p.afterSeq() < 0) continue; // a Sync: answered with the write before it
      entity.tell(new RunEntity.Persist(p.events(), p.afterSeq(), answers));
      inFlight++;
    }
  }

  private Behavior<Command> onSync(Sync s) {
    if (failure.isDone()) {
      s.done().completeExceptionally(new IllegalStateException(failure.join()));
    } else if (queue.isEmpty()) {
      s.done().complete(acked);
    } else {
      queue.add(new Pending(List.of(), -1, queued, false, s.done())); // answered with the write before it
      unsent.add(queue.peekLast());
      queued = queue.peekLast().after();
    }
    return this;
  }

  private Behavior<Command> onAnswered(Answered a) {
    RunEntity.Persisted p = a.persisted();
    if (p.conflict() != null) {
      Pending head = queue.peekFirst();
      if (head != null && head.afterSeq() == 0) { // a new run whose id is taken: the caller takes another
        queue.pollFirst().done().completeExceptionally(new RunRecorder.RunIdTaken(p.conflict()));
        return this;
      }
      giveUp("run " + runId + ": " + p.conflict() + " (" + journal + ")");
      return Behaviors.stopped();
    }
    settle(p.sequenceNr());
    sendMore();
    return this;
  }

  /** Completes every write the journal holds now (its events count up to {@code sequenceNr}). */
  private void settle(long sequenceNr) {
    while (!queue.isEmpty() && queue.peekFirst().after().events() <= sequenceNr) {
      Pending done = queue.pollFirst();
      // what was sent is ahead of what was not: a write settled is either sent, or unsent's first (a Sync, or one
      // the journal held already when a new entity recovered)
      if (unsent.peekFirst() == done) unsent.pollFirst();
      else if (done.afterSeq() >= 0) inFlight--;
      done.events().forEach(serializer::forget); // written (a write skipped as written already never asked for them)
      if (done.checkpoint()) checkpointsInFlight.decrementAndGet();
      acked = done.after();
      done.done().complete(done.after());
    }
  }

  private Behavior<Command> onReady(Ready r) {
    RunEntity.Recovered rec = r.recovered();
    if (rec.failure() != null) {
      if (!ready.isDone()) { // the first recovery: the journal holds a row that cannot be read
        ready.complete(new Handle(getContext().getSelf(), null, failure, checkpointsInFlight));
        giveUp(rec.failure());
        return Behaviors.stopped();
      }
      return this; // a recovery during an outage that failed: the entity stops, and is started again
    }
    entityReady = true;
    if (!ready.isDone()) {
      ready.complete(new Handle(getContext().getSelf(), rec.state(), failure, checkpointsInFlight));
      sendMore(); // (nothing is queued before the handle is out; for safety)
      return this;
    }
    long held = rec.state().sequenceNr();
    getContext().getLog().warn("run {}: the {} answers again; writing what it missed", runId, journal);
    outageSince = -1;
    backoff = FIRST_BACKOFF;
    settle(held);
    inFlight = 0; // the entity before is gone with what it had not answered: everything not held goes again
    unsent = new ArrayDeque<>(queue);
    sendMore();
    return this;
  }

  private Behavior<Command> onEntityStopped(ActorRef<Void> ref, Throwable cause) {
    if (!ref.equals(entity) || closing) return this;
    entityReady = false;
    String why = cause == null ? "it stopped" : innermost(cause);
    long now = System.nanoTime();
    if (!ready.isDone()) {
      ready.complete(new Handle(getContext().getSelf(), null, failure, checkpointsInFlight));
      giveUp(why);
      return Behaviors.stopped();
    }
    if (retryFor.isZero() || (outageSince >= 0 && now - outageSince > retryFor.toNanos())) {
      giveUp(outageSince >= 0 ? why + "; given up after " + retryFor.toSeconds() + " s of retries" : why);
      return Behaviors.stopped();
    }
    if (outageSince < 0) {
      outageSince = now;
      getContext().getLog().warn("run {}: a write to the {} failed ({}); the run goes on and its writes are retried "
          + "for up to {} s", runId, journal, why, retryFor.toSeconds());
    }
    timers.startSingleTimer(new Respawn(), backoff);
    backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
    return this;
  }

  /** The deepest message of a failure, on one line: what the database said ("The database has been closed"). */
  static String innermost(Throwable t) {
    String m = null;
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) m = c.getMessage();
    }
    return JournalDatabase.oneLine(m == null ? String.valueOf(t) : m);
  }

  /** The journal cannot be written: everything waiting fails with why, and so does the run ({@code failure}). */
  private void giveUp(String why) {
    failure.complete(why);
    IllegalStateException e = new IllegalStateException(why);
    for (Pending p : queue) {
      p.events().forEach(serializer::forget);
      p.done().completeExceptionally(e);
    }
    queue.clear();
    unsent.clear();
    checkpointsInFlight.set(0);
    if (entity != null) getContext().stop(entity);
  }
}
