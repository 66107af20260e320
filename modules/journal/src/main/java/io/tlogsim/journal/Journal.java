package io.tlogsim.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.engine.scenario.BadInputException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.PersistenceQuery;
import org.slf4j.LoggerFactory;

/**
 * A journal opened by this process: its database (checked, and given its schema on first use) and the actor system
 * that runs the run entities and the read journal. The simulation runs on an actor system of its own; the two meet
 * only through the run entity's mailbox, so the kernel knows nothing of databases.
 *
 * <p>Opened for writing (a run) it creates the database when absent; opened for reading (runs, replay, compare) it
 * writes nothing, and an absent journal simply holds no runs.
 */
public final class Journal implements AutoCloseable {
  /** How long a write or a recovery may take before the journal is declared unreachable. */
  static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final AtomicLong NAMES = new AtomicLong();

  private final JournalSettings settings;
  private final ActorSystem<Void> system;
  private final JdbcReadJournal queries;

  private Journal(JournalSettings settings, ActorSystem<Void> system) {
    this.settings = settings;
    this.system = system;
    this.queries = system == null ? null
        : PersistenceQuery.get(system).getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
  }

  /** Opens (and on first use creates) the journal for a run. */
  public static Journal openForWriting(JournalSettings s) {
    requireDatabase(s);
    JournalDatabase.prepare(s, true);
    return new Journal(s, start(s));
  }

  /** Opens the journal to read it; an absent journal is an empty one (nothing is created). */
  public static Journal openForReading(JournalSettings s) {
    requireDatabase(s);
    JournalDatabase.Found found = JournalDatabase.prepare(s, false);
    return new Journal(s, found == JournalDatabase.Found.ABSENT ? null : start(s));
  }

  private static void requireDatabase(JournalSettings s) {
    if (s.kind() == JournalKind.NONE) throw new BadInputException("--journal none: no journal to open");
  }

  public JournalSettings settings() {
    return settings;
  }

  /** True when the journal exists (always, once opened for writing). */
  public boolean exists() {
    return system != null;
  }

  public RunStore store() {
    return new RunStore(this);
  }

  ActorSystem<Void> system() {
    return system;
  }

  JdbcReadJournal queries() {
    return queries;
  }

  /**
   * Starts the entity of a run, waits for its recovery, and gives its reference and recovered state. The entity runs
   * under a small parent that watches it: if a write fails, the entity stops and whoever waits for it learns why at
   * once (no log line, no time-out); tlogsim says it in its own one line.
   */
  LiveEntity spawn(String runId) {
    CompletableFuture<RunEntity.Recovered> recovered = new CompletableFuture<>();
    CompletableFuture<ActorRef<RunEntity.Command>> ref = new CompletableFuture<>();
    CompletableFuture<Throwable> stopped = new CompletableFuture<>();
    long n = NAMES.incrementAndGet();
    ActorRef<RunEntity.Recovered> listener = system.systemActorOf(completing(recovered), "recovery-" + n, Props.empty());
    system.systemActorOf(Behaviors.<Void>setup(ctx -> {
      ActorRef<RunEntity.Command> entity = ctx.spawn(Behaviors.supervise(RunEntity.create(runId, listener))
          .onFailure(SupervisorStrategy.stop().withLoggingEnabled(false)), "run");
      ctx.watch(entity);
      ref.complete(entity);
      return Behaviors.receive(Void.class)
          .onSignal(ChildFailed.class, failed -> {
            stopped.complete(failed.getCause());
            return Behaviors.stopped();
          })
          .onSignal(Terminated.class, done -> {
            stopped.complete(null);
            return Behaviors.stopped();
          })
          .build();
    }), "run-" + n, Props.empty());
    ActorRef<RunEntity.Command> entity = await(ref, "starting run " + runId);
    Object first = await(CompletableFuture.anyOf(recovered, stopped), "reading run " + runId);
    if (!(first instanceof RunEntity.Recovered r) || r.failure() != null) {
      String why = first instanceof RunEntity.Recovered r ? r.failure()
          : first instanceof Throwable t ? RunEntity.describe(t) : "it stopped";
      entity.tell(new RunEntity.Stop());
      throw new BadInputException("run " + runId + ": the journal holds a row that cannot be read (" + why + "); "
          + settings.describe());
    }
    return new LiveEntity(entity, r.state(), stopped);
  }

  /** A run entity: its reference, its state once recovered, and (completed when it stops) why it stopped. */
  record LiveEntity(ActorRef<RunEntity.Command> ref, RunState state, CompletableFuture<Throwable> stopped) {}

  /** Asks a run entity, failing at once (not after a time-out) if it stops first, e.g. because a write failed. */
  <Res> Res ask(LiveEntity e, Function<ActorRef<Res>, RunEntity.Command> message, String what) {
    CompletableFuture<Res> reply = AskPattern.ask(e.ref(), message::apply, TIMEOUT, system.scheduler())
        .toCompletableFuture();
    Object first = await(CompletableFuture.anyOf(reply, e.stopped()), what);
    if (reply.isDone() && !reply.isCompletedExceptionally()) return reply.join();
    Throwable cause = first instanceof Throwable t ? t : null;
    throw new IllegalStateException(what + ": the " + settings.describe() + " stopped recording"
        + (cause == null ? "" : " (" + RunEntity.describe(cause) + ")"), cause);
  }

  <T> T await(CompletableFuture<T> f, String what) {
    try {
      return f.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(what + ": interrupted");
    } catch (TimeoutException e) {
      throw new IllegalStateException(what + ": the " + settings.describe() + " did not answer within "
          + TIMEOUT.toSeconds() + " s");
    } catch (ExecutionException e) {
      throw new ReadFailed(what + ": " + RunEntity.describe(e.getCause()), e.getCause());
    }
  }

  /** A read or write the journal answered with an error (as opposed to not answering at all). */
  static final class ReadFailed extends IllegalStateException {
    ReadFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private static <T> Behavior<T> completing(CompletableFuture<T> f) {
    return Behaviors.receive((ctx, msg) -> {
      f.complete(msg);
      return Behaviors.stopped();
    });
  }

  @Override
  public void close() {
    if (system == null) return;
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException ignored) {
      // shutting down anyway
    }
  }

  private static ActorSystem<Void> start(JournalSettings s) {
    LoggerFactory.getILoggerFactory(); // logging up before Pekko's threads log
    return ActorSystem.create(Behaviors.empty(), "tlogsim-journal", pekkoConfig(s));
  }

  /**
   * Pekko Persistence on pekko-persistence-jdbc: journal, snapshot store and read journal share one connection pool
   * to the database. Two threads and two connections: writes are few and large, and the simulation needs the cores.
   */
  static Config pekkoConfig(JournalSettings s) {
    String profile = s.kind() == JournalKind.H2 ? "slick.jdbc.H2Profile$" : "slick.jdbc.PostgresProfile$";
    String driver = s.kind() == JournalKind.H2 ? "org.h2.Driver" : "org.postgresql.Driver";
    Map<String, Object> db = Map.of(
        "url", s.jdbcUrl(), "user", s.user(), "password", s.password(), "driver", driver,
        "connectionPool", "HikariCP", "numThreads", 2, "maxConnections", 2, "minConnections", 1,
        "queueSize", 10000, "connectionTimeout", 30000);
    return ConfigFactory.parseString("""
            pekko.persistence.journal.plugin = "jdbc-journal"
            pekko.persistence.snapshot-store.plugin = "jdbc-snapshot-store"
            jdbc-journal.use-shared-db = "tlogsim"
            jdbc-snapshot-store.use-shared-db = "tlogsim"
            jdbc-read-journal.use-shared-db = "tlogsim"
            # Pekko's default list without DefaultScalaModule: with it, maps inside an Object-typed value (a summary,
            # the provenance) come back as Scala maps, whose order and JSON differ from what was stored.
            pekko.serialization.jackson.jackson-modules = [
              "org.apache.pekko.serialization.jackson.PekkoJacksonModule"
              "org.apache.pekko.serialization.jackson.PekkoTypedJacksonModule"
              "org.apache.pekko.serialization.jackson.PekkoStreamJacksonModule"
              "com.fasterxml.jackson.module.paramnames.ParameterNamesModule"
              "com.fasterxml.jackson.datatype.jdk8.Jdk8Module"
              "com.fasterxml.jackson.datatype.jsr310.JavaTimeModule"
            ]
            pekko.actor.default-dispatcher.fork-join-executor.parallelism-min = 2
            pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = 2
            """)
        .withValue("pekko-persistence-jdbc.shared-databases.tlogsim.profile", ConfigValueFactory.fromAnyRef(profile))
        .withValue("pekko-persistence-jdbc.shared-databases.tlogsim.db", ConfigValueFactory.fromMap(db))
        .withFallback(ConfigFactory.load());
  }
}
