package io.tlogsim.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.scenario.BadInputException;
import java.sql.Connection;
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
  private final Connection held;
  private JdbcReadJournal queries; // made on first use: a run that only writes does not pay for it

  private Journal(JournalSettings settings, ActorSystem<Void> system, Connection held) {
    this.settings = settings;
    this.system = system;
    this.held = held;
  }

  /** Opens (and on first use creates) the journal for a run. */
  public static Journal openForWriting(JournalSettings s) {
    requireDatabase(s);
    JournalDatabase.Prepared p = JournalDatabase.open(s, true, s.kind() == JournalKind.H2);
    return started(p.settings(), p.connection());
  }

  /** Opens the journal to read it; an absent journal is an empty one (nothing is created). */
  public static Journal openForReading(JournalSettings s) {
    requireDatabase(s);
    JournalDatabase.Prepared p = JournalDatabase.open(s, false, s.kind() == JournalKind.H2);
    return p.found() == JournalDatabase.Found.ABSENT ? new Journal(s, null, null)
        : started(p.settings(), p.connection());
  }

  /**
   * A journal whose actor system is being started on another thread while the caller validates its input (the
   * system's start is most of a journal's start-up, and it touches no database). {@link #open} then checks or creates
   * the database on the caller's thread and gives the journal; {@link #close} before that discards it, and nothing
   * was written.
   */
  public static final class Opening implements AutoCloseable {
    private final JournalSettings settings;
    /** H2: the passwords a new journal gets, if no other process gives it its own first; nothing is stored yet. */
    private final H2Keys plan;
    private final JournalSettings planned;
    private final CompletableFuture<ActorSystem<Void>> system;
    private boolean opened;

    private Opening(JournalSettings settings) {
      this.settings = settings;
      if (settings.kind() == JournalKind.H2) {
        H2Keys found = H2Keys.find(settings);
        this.plan = found.state == H2Keys.State.STORED ? null : H2Keys.planned();
        this.planned = (plan != null ? plan : found).everyday(settings.withShared(true));
      } else {
        this.plan = null;
        this.planned = settings;
      }
      this.system = CompletableFuture.supplyAsync(() -> start(planned));
    }

    /** The journal, for a run: the database checked (and created on first use) now. */
    public Journal open() {
      JournalDatabase.Prepared p = JournalDatabase.open(settings, true, settings.kind() == JournalKind.H2, plan);
      try {
        ActorSystem<Void> s = system.join();
        if (!p.settings().equals(planned)) { // another process gave the journal its passwords first
          s.terminate();
          s = start(p.settings());
        }
        Journal j = new Journal(p.settings(), s, p.connection());
        opened = true;
        return j;
      } catch (RuntimeException e) {
        JournalDatabase.close(p.connection());
        throw e;
      }
    }

    /** Discards the journal unless it was opened (then the journal's own close ends it). */
    @Override
    public void close() {
      if (opened) return;
      system.thenAccept(ActorSystem::terminate);
    }
  }

  /** Starts opening the journal for writing; see {@link Opening}. */
  public static Opening openingForWriting(JournalSettings s) {
    requireDatabase(s);
    return new Opening(s);
  }

  private static Journal started(JournalSettings s, Connection held) {
    try {
      return new Journal(s, start(s), held);
    } catch (RuntimeException e) {
      JournalDatabase.close(held);
      throw e;
    }
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

  synchronized JdbcReadJournal queries() {
    if (queries == null) {
      queries = PersistenceQuery.get(system).getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
    }
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
    try {
      closeSystem();
    } finally {
      JournalDatabase.close(held);
      if (settings.kind() == JournalKind.H2) PrivateFiles.restrict(settings.h2File().getParent()); // H2's trace file
    }
  }

  private void closeSystem() {
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
