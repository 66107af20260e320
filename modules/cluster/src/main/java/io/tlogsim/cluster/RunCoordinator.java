package io.tlogsim.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.tlogsim.analysis.SummaryWriter;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournaledRun;
import io.tlogsim.journal.RunStore;
import io.tlogsim.journal.StoredFact;
import io.tlogsim.kernel.Checkpoint;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.LocalPlacement;
import io.tlogsim.kernel.Placement;
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
 * has come, and sends it the summary. A run of a sweep ({@link #ON_ONE_NODE}) runs whole on the coordinator's node
 * instead: its components are the clock's children there, as in a local run, and no message of it crosses nodes. A lost component node costs little: the clock rolls back to its last
 * checkpoint. Should the coordinator's own node be lost, the submitter sends the run again and Sharding starts its
 * coordinator on another node: with the cluster's shared journal (nodes started with --journal), it goes on from the
 * run's last checkpoint there; without one, it starts again from the beginning. Either way the digest is the same.
 */
public final class RunCoordinator extends AbstractBehavior<RunCoordinator.Command> {
  public static final EntityTypeKey<Command> TYPE = EntityTypeKey.create(Command.class, "tlogsim-run");
  /**
   * Runs of a sweep: each whole on the node of its coordinator, not journaled (as a local sweep's runs are not: the
   * sweep's directory holds the results). Entity id {@code slot/runId}, sharded by slot ({@link ClusterNode.BySlot}).
   */
  public static final EntityTypeKey<Command> ON_ONE_NODE = EntityTypeKey.create(Command.class, "tlogsim-run-on-one-node");
  /** Checkpoints every few wall seconds bound what a lost component node costs. */
  static final Duration CHECKPOINT_EVERY = Duration.ofSeconds(2);
  private static final Duration PROGRESS_EVERY = Duration.ofMillis(500);
  private static final JsonMapper JSON = new JsonMapper();

  public sealed interface Command extends CborSerializable
      permits Start, Tick, Finished, WindowFacts, RollBack, Recorded {}

  /** Run {@code spec} (or, if it runs already, also tell {@code replyTo}). */
  public record Start(RunSubmission spec, ActorRef<RunUpdate> replyTo) implements Command {}

  private record Tick() implements Command {}

  /** A window's facts from the clock's thread (local only), to hand on to the submitter. */
  private record WindowFacts(FactBatch batch) implements Command {}

  /** The clock rolled back to a window (local only). */
  private record RollBack(long window) implements Command {}

  /** Interval facts per message to the submitter: a commit interval's histogram is a few KB at most. */
  static final int FACTS_PER_MESSAGE = 16;

  /** The clock's outcome (local only: never crosses the wire). */
  private record Finished(RunOutcome outcome, Throwable error) implements Command {}

  /** The journal has recorded the run's end, or could not (local only). */
  private record Recorded(RunUpdate.Done done, Throwable error) implements Command {}

  /** @param journal this node's handle on the cluster's shared journal, or null when runs are not journaled */
  public static Behavior<Command> create(Journal journal) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new RunCoordinator(ctx, timers, journal, false)));
  }

  /** The coordinator of a run that runs whole on its node ({@link #ON_ONE_NODE}). */
  public static Behavior<Command> createOnOneNode() {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new RunCoordinator(ctx, timers, null, true)));
  }

  private final TimerScheduler<Command> timers;
  private final Journal journal;
  private final boolean onOneNode;
  private JournaledRun journaled; // the run's record in the journal, or null
  private long resumedFromNanos = -1; // the checkpoint this coordinator went on from; -1: from the beginning
  private final List<ActorRef<RunUpdate>> listeners = new ArrayList<>();
  private final AtomicLong progress = new AtomicLong();
  private final String incarnation = UUID.randomUUID().toString().substring(0, 8);
  private RunSubmission runSpec; // the spec of the run, as first given
  private Scenario scenario;
  private PreparedRun prepared;
  private Runnable release = () -> {}; // ends the components' entities, if any
  private boolean done;

  private RunCoordinator(ActorContext<Command> ctx, TimerScheduler<Command> timers, Journal journal, boolean onOneNode) {
    super(ctx);
    this.timers = timers;
    this.journal = journal;
    this.onOneNode = onOneNode;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, this::onStart)
        .onMessage(Tick.class, t -> {
          tellAll(new RunUpdate.Progress(progress.get(), scenario.endTimeNanos()));
          return this;
        })
        .onMessage(WindowFacts.class, this::onFacts)
        .onMessage(RollBack.class, b -> {
          tellAll(new RunUpdate.RolledBack(b.window()));
          return this;
        })
        .onMessage(Finished.class, this::onFinished)
        .onMessage(Recorded.class, this::onRecorded)
        .build();
  }

  private Behavior<Command> onStart(Start s) {
    if (!listeners.contains(s.replyTo())) listeners.add(s.replyTo());
    if (scenario != null) { // running already
      s.replyTo().tell(accepted(s.spec()));
      return this;
    }
    try {
      runSpec = s.spec();
      scenario = s.spec().scenario();
      RunControl control = new RunControl(scenario.seed(), 1, progress);
      Placement placement;
      RunSettings settings;
      if (onOneNode) { // as a local run: nothing to lose but the whole node, so no checkpoints; a sweep keeps no series
        prepared = scenario.prepare(control);
        settings = control.settings(scenario.endTimeNanos());
        placement = new LocalPlacement(prepared.topology(), prepared::models, settings);
      } else {
        // the report's series go to the submitter as they come (facts and roll-backs in the clock's order)
        ActorRef<Command> self = getContext().getSelf();
        control = control.withFacts(batch -> self.tell(new WindowFacts(batch)))
            .withRollbacks(window -> self.tell(new RollBack(window)));
        if (journal != null) {
          journaled = journaled(s.spec());
          control = journaled.control(control); // journaled, checkpoints in the shared journal
        } else { // checkpoints in memory: what a lost component node costs
          control = control.withCheckpoints(CheckpointPolicy.everyWallNanos(CHECKPOINT_EVERY.toNanos()), cp -> {});
        }
        prepared = scenario.prepare(control);
        settings = control.settings(scenario.endTimeNanos());
        if (journaled != null) settings = journaled.settings(settings); // stops at once if the journal fails
        ClusterPlacement spread = new ClusterPlacement(ClusterSharding.get(getContext().getSystem()), s.spec(),
            incarnation, prepared.topology());
        placement = spread;
        release = spread::release;
      }
      CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
      getContext().pipeToSelf(outcome, Finished::new);
      getContext().spawn(Clock.create(prepared.topology(), placement, settings, outcome), "clock");
      timers.startTimerAtFixedRate(new Tick(), PROGRESS_EVERY);
      s.replyTo().tell(accepted(s.spec()));
    } catch (BadInputException e) {
      fail(e.getMessage(), true);
      return Behaviors.stopped();
    } catch (RuntimeException e) {
      fail(String.valueOf(e.getMessage()), false);
      return Behaviors.stopped();
    }
    return this;
  }

  private Behavior<Command> onFacts(WindowFacts w) {
    List<RecordedFact> series = new ArrayList<>();
    for (RecordedFact f : w.batch().facts()) if (f.fact() instanceof IntervalFact) series.add(f);
    tellFacts(w.batch().window(), series);
    return this;
  }

  /** A window's interval facts to the submitter, in parts: sent again, they replace themselves part by part. */
  private void tellFacts(long window, List<RecordedFact> series) {
    for (int from = 0, part = 0; from < series.size(); from += FACTS_PER_MESSAGE, part++) {
      tellAll(new RunUpdate.Facts(window, part,
          List.copyOf(series.subList(from, Math.min(series.size(), from + FACTS_PER_MESSAGE)))));
    }
  }

  /**
   * Going on from a checkpoint of the shared journal, this coordinator sends again the interval facts of the windows
   * before it, as the journal holds them: the lost coordinator may have stored its checkpoint before those facts
   * had reached the submitter (the two travel different ways), and the clock re-runs only the windows after it.
   */
  private void tellStoredFacts(RunStore store, String runId, long beforeWindow) {
    long window = -1;
    List<RecordedFact> series = new ArrayList<>();
    for (StoredFact f : store.load(runId, s -> s.fact() instanceof IntervalFact).facts()) {
      if (f.window() >= beforeWindow || !(f.fact() instanceof IntervalFact)) continue;
      if (f.window() != window) {
        tellFacts(window, series);
        series = new ArrayList<>();
        window = f.window();
      }
      series.add(new RecordedFact(f.time(), f.component(), f.fact()));
    }
    tellFacts(window, series);
  }

  private RunUpdate.Accepted accepted(RunSubmission spec) {
    return new RunUpdate.Accepted(spec.runId(), getContext().getSelf(), getContext().getSystem().address().hostPort(),
        resumedFromNanos);
  }

  /**
   * Records the run in the cluster's journal: a new run, or (its id there already: the coordinator's node was lost) the
   * same run going on from its last checkpoint, as {@code tlogsim run --resume} would.
   */
  private JournaledRun journaled(RunSubmission spec) {
    JournaledRun j = JournaledRun.startOrGoOn(journal, io.tlogsim.journal.RunSpec.of(spec.runId(), scenario, 1,
        journal.settings().trace(), spec.outDir(), spec.commandLine(), provenance(spec)));
    Checkpoint from = j.from();
    if (j.goesOn()) {
      getContext().getLog().info("run {} goes on from {} in the {}", spec.runId(),
          from == null ? "the beginning (no checkpoint yet)" : "its checkpoint at " + from.simulatedNanos() + " ns",
          journal.settings().describe());
    }
    if (from != null) {
      tellStoredFacts(journal.store(), spec.runId(), from.window());
      resumedFromNanos = from.simulatedNanos();
    }
    return j;
  }

  private static Map<String, Object> provenance(RunSubmission spec) {
    if (spec.provenanceJson() == null) return new LinkedHashMap<>();
    try {
      return JSON.readValue(spec.provenanceJson(), new TypeReference<LinkedHashMap<String, Object>>() {});
    } catch (JsonProcessingException e) {
      throw new BadInputException("run " + spec.runId() + ": its provenance is not JSON (" + e.getOriginalMessage() + ")");
    }
  }

  private void fail(String reason, boolean badInput) {
    if (journaled != null) journaled.failed(reason);
    tellAll(new RunUpdate.Failed(reason, badInput));
  }

  private Behavior<Command> onFinished(Finished f) {
    timers.cancelAll();
    if (done) return this;
    done = true;
    release.run();
    if (f.error() != null) {
      Throwable cause = f.error() instanceof java.util.concurrent.CompletionException c ? c.getCause() : f.error();
      fail(String.valueOf(cause.getMessage()), false);
      return Behaviors.stopped();
    }
    RunUpdate.Done done;
    try {
      ScenarioResult result = scenario.complete(prepared.result(f.outcome()));
      Map<String, byte[]> histograms = new LinkedHashMap<>();
      result.histograms().forEach((name, h) -> histograms.put(name, HistogramWire.encode(h)));
      List<String> components = new ArrayList<>();
      for (int id = 0; id < prepared.topology().components(); id++) components.add(prepared.topology().name(id));
      done = new RunUpdate.Done(JSON.writeValueAsString(result.summary()), result.humanLines(), histograms,
          journaled == null ? null : journal.settings().describe(), components);
      if (journaled != null) { // what summary.json will hold: the submitter adds the same provenance
        Map<String, Object> summary = new LinkedHashMap<>(result.summary());
        summary.put("provenance", provenance(runSpec));
        // the end is written without blocking this thread: through an outage of the journal it waits for it
        getContext().pipeToSelf(journaled.completedAsync(f.outcome(), SummaryWriter.withRunId(runSpec.runId(),
            summary)), (ok, error) -> new Recorded(done, error));
        return this;
      }
    } catch (JsonProcessingException | RuntimeException e) {
      fail("the run ended but its summary could not be made: " + e.getMessage(), false);
      return Behaviors.stopped();
    }
    tellAll(done);
    return Behaviors.stopped();
  }

  private Behavior<Command> onRecorded(Recorded r) {
    if (r.error() != null) {
      Throwable cause = r.error() instanceof java.util.concurrent.CompletionException c ? c.getCause() : r.error();
      tellAll(new RunUpdate.Failed("the run ended but its journal could not record it: " + cause.getMessage(), false));
    } else {
      tellAll(r.done());
    }
    return Behaviors.stopped();
  }

  private void tellAll(RunUpdate e) {
    for (ActorRef<RunUpdate> l : listeners) l.tell(e);
  }
}
