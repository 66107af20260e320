package io.tlogsim.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.engine.scenario.BadInputException;
import io.tlogsim.engine.scenario.PreparedRun;
import io.tlogsim.engine.scenario.RunControl;
import io.tlogsim.engine.scenario.Scenario;
import io.tlogsim.engine.scenario.ScenarioResult;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * The coordinator of one run (entity id: the run id), on whichever node Cluster Sharding puts it: it makes the
 * scenario, runs the kernel's clock with the components placed over the cluster, tells the submitter how far the run
 * has come, and sends it the summary. Should its own node be lost, the submitter starts it again on another node; the
 * run then starts again (a lost component node costs less: the clock rolls back to its last checkpoint).
 */
public final class RunEntity extends AbstractBehavior<RunEntity.Command> {
  public static final EntityTypeKey<Command> TYPE = EntityTypeKey.create(Command.class, "tlogsim-run");
  /** Checkpoints every few wall seconds bound what a lost component node costs. */
  static final Duration CHECKPOINT_EVERY = Duration.ofSeconds(2);
  private static final Duration PROGRESS_EVERY = Duration.ofMillis(500);
  private static final JsonMapper JSON = new JsonMapper();

  public sealed interface Command extends CborSerializable permits Start, Tick, Finished {}

  /** Run {@code spec} (or, if it runs already, also tell {@code replyTo}). */
  public record Start(RunSpec spec, ActorRef<RunEvent> replyTo) implements Command {}

  private record Tick() implements Command {}

  /** The clock's outcome (local only: never crosses the wire). */
  private record Finished(RunOutcome outcome, Throwable error) implements Command {}

  public static Behavior<Command> create() {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new RunEntity(ctx, timers)));
  }

  private final TimerScheduler<Command> timers;
  private final List<ActorRef<RunEvent>> listeners = new ArrayList<>();
  private final AtomicLong progress = new AtomicLong();
  private final String incarnation = UUID.randomUUID().toString().substring(0, 8);
  private Scenario scenario;
  private PreparedRun prepared;
  private ClusterPlacement placement;
  private boolean done;

  private RunEntity(ActorContext<Command> ctx, TimerScheduler<Command> timers) {
    super(ctx);
    this.timers = timers;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(Tick.class, t -> {
          tellAll(new RunEvent.Progress(progress.get(), scenario.endTimeNanos()));
          return this;
        })
        .onMessage(Finished.class, this::onFinished)
        .build();
  }

  private Behavior<Command> onStart(Start s) {
    if (!listeners.contains(s.replyTo())) listeners.add(s.replyTo());
    s.replyTo().tell(new RunEvent.Accepted(s.spec().runId(), getContext().getSelf(),
        getContext().getSystem().address().hostPort()));
    if (scenario != null) return this; // running already
    try {
      scenario = s.spec().scenario();
      RunControl control = new RunControl(scenario.seed(), 1, progress)
          .withCheckpoints(CheckpointPolicy.everyWallNanos(CHECKPOINT_EVERY.toNanos()), cp -> {});
      prepared = scenario.prepare(control);
      RunSettings settings = control.settings(scenario.endTimeNanos());
      placement = new ClusterPlacement(ClusterSharding.get(getContext().getSystem()), s.spec(), incarnation,
          prepared.topology().components());
      CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
      getContext().pipeToSelf(outcome, Finished::new);
      getContext().spawn(Clock.create(prepared.topology(), placement, settings, outcome), "clock");
      timers.startTimerAtFixedRate(new Tick(), PROGRESS_EVERY);
    } catch (BadInputException e) {
      tellAll(new RunEvent.Failed(e.getMessage(), true));
      return Behaviors.stopped();
    } catch (RuntimeException e) {
      tellAll(new RunEvent.Failed(String.valueOf(e.getMessage()), false));
      return Behaviors.stopped();
    }
    return this;
  }

  private Behavior<Command> onFinished(Finished f) {
    timers.cancelAll();
    if (done) return this;
    done = true;
    placement.release();
    if (f.error() != null) {
      Throwable cause = f.error() instanceof java.util.concurrent.CompletionException c ? c.getCause() : f.error();
      tellAll(new RunEvent.Failed(String.valueOf(cause.getMessage()), false));
      return Behaviors.stopped();
    }
    try {
      ScenarioResult result = scenario.complete(prepared.result(f.outcome()));
      Map<String, byte[]> histograms = new LinkedHashMap<>();
      result.histograms().forEach((name, h) -> histograms.put(name, Histograms.encode(h)));
      tellAll(new RunEvent.Done(JSON.writeValueAsString(result.summary()), result.humanLines(), histograms));
    } catch (JsonProcessingException | RuntimeException e) {
      tellAll(new RunEvent.Failed("the run ended but its summary could not be made: " + e.getMessage(), false));
    }
    return Behaviors.stopped();
  }

  private void tellAll(RunEvent e) {
    for (ActorRef<RunEvent> l : listeners) l.tell(e);
  }
}
