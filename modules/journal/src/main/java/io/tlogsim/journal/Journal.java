package io.tlogsim.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.kernel.SimulationHost;
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
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.PersistenceQuery;

/**
 * A journal opened by this process: its database (checked, and given its schema on first use), its ledger (an H2
 * file's: {@link Ledger}), and the actor system its run entities and read journal live in. That system is the
 * process's only one: the journal makes it ({@link #host}, where the process's runs are then simulated, each on threads
 * of its own) or is opened in one made by someone else with {@link #systemConfig} (a cluster node's). The journal's
 * actors run on a dispatcher of their own; the kernel knows nothing of databases.
 *
 * <p>Opened for writing (a run) it creates the database when absent; opened for reading (runs, replay, compare) it
 * writes nothing, and an absent journal simply holds no runs.
 */
public final class Journal implements AutoCloseable {
  /** How long a write or a recovery may take before the journal is declared unreachable. */
  static final Duration TIMEOUT = Duration.ofSeconds(120);
  /** The dispatcher of the journal's actors (two threads: writes are few and large, and the simulation needs cores). */
  static final String DISPATCHER = "tlogsim-journal-dispatcher";
  private static final AtomicLong NAMES = new AtomicLong();

  private final JournalSettings settings;
  private final ActorSystem<?> system;
  private final SimulationHost host; // made by this journal, ended with it; null when opened in another's system
  private final Connection held;
  private Connection syncing; // H2: the owner's connection that forces commits to disk (sync), made on first use
  private final Ledger ledger;
  private JdbcReadJournal queries; // made on first use: a run that only writes does not pay for it

  private Journal(JournalSettings settings, ActorSystem<?> system, SimulationHost host, Connection held) {
    this.settings = settings;
    this.system = system;
    this.host = host;
    this.held = held;
    this.ledger = Ledger.of(settings);
  }

  /** Opens (and on first use creates) the journal for a run, in an actor system of its own ({@link #host}). */
  public static Journal openForWriting(JournalSettings s) {
    requireDatabase(s);
    JournalDatabase.Prepared p = JournalDatabase.open(s, true, s.kind() == JournalKind.H2);
    return started(p.settings(), p.connection());
  }

  /**
   * Opens (and on first use creates) the journal for runs in {@code system}, made with {@link #systemConfig} over its
   * own settings (a cluster node's); closing the journal leaves the system running.
   */
  public static Journal openForWriting(JournalSettings s, ActorSystem<?> system) {
    requireDatabase(s);
    JournalDatabase.Prepared p = JournalDatabase.open(s, true, s.kind() == JournalKind.H2);
    return new Journal(p.settings(), system, null, p.connection()).writable();
  }

  /**
   * Checks the journal and creates it on first use, for a system to be made with {@link #systemConfig}: gives the
   * settings that system's connections must use (H2: the journal's users and passwords, and its sharing).
   */
  public static JournalSettings preparedForWriting(JournalSettings s) {
    requireDatabase(s);
    return JournalDatabase.open(s, true, false).settings();
  }

  /** Opens the journal to read it; an absent journal is an empty one (nothing is created). */
  public static Journal openForReading(JournalSettings s) {
    requireDatabase(s);
    JournalDatabase.Prepared p = JournalDatabase.open(s, false, s.kind() == JournalKind.H2);
    return p.found() == JournalDatabase.Found.ABSENT ? new Journal(s, null, null, null)
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
    private final CompletableFuture<SimulationHost> host;
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
      this.host = CompletableFuture.supplyAsync(() -> start(planned));
    }

    /** The journal, for a run: the database checked (and created on first use) now. */
    public Journal open() {
      JournalDatabase.Prepared p = JournalDatabase.open(settings, true, settings.kind() == JournalKind.H2, plan);
      try {
        SimulationHost h = host.join();
        if (!p.settings().equals(planned)) { // another process gave the journal its passwords first
          h.close();
          h = start(p.settings());
        }
        Journal j = new Journal(p.settings(), h.system(), h, p.connection()).writable();
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
      host.thenAccept(SimulationHost::close);
    }
  }

  /** Starts opening the journal for writing; see {@link Opening}. */
  public static Opening openingForWriting(JournalSettings s) {
    requireDatabase(s);
    return new Opening(s);
  }

  private static Journal started(JournalSettings s, Connection held) {
    try {
      SimulationHost h = start(s);
      return new Journal(s, h.system(), h, held);
    } catch (RuntimeException e) {
      JournalDatabase.close(held);
      throw e;
    }
  }

  /** Opened to write: a ledger beside an H2 file keeps a few KB of disk for a line that says a write failed. */
  private Journal writable() {
    if (ledger != null) ledger.reserve();
    return this;
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

  ActorSystem<?> system() {
    return system;
  }

  /**
   * The process's actor system this journal made, where the process simulates its runs (each on threads of its own);
   * null when the journal was opened in a system made elsewhere.
   */
  public SimulationHost host() {
    return host;
  }

  /** The ledger beside the journal (an H2 file's), or null (PostgreSQL keeps none). */
  public Ledger ledger() {
    return ledger;
  }

  /**
   * How long a run waits for this journal after a write failed, retrying (tlogsim.journal.KIND.retry-for): PostgreSQL
   * may restart or be cut off for a while; an H2 file's disk that failed a write (full, gone) does not come back.
   */
  Duration retryFor() {
    String key = "tlogsim.journal." + settings.kind().option() + ".retry-for";
    Config c = system.settings().config();
    return c.hasPath(key) ? c.getDuration(key) : Duration.ZERO;
  }

  /**
   * Makes what the journal holds durable on its disk now. H2 writes a commit to its file within a second of it (its
   * write delay), so a kill -9 just after a commit could lose it: a run's start and end are forced to disk before the
   * command says so. PostgreSQL's commits are durable already.
   */
  synchronized void sync() {
    if (settings.kind() != JournalKind.H2 || held == null) return;
    try {
      // CHECKPOINT needs admin rights, which the everyday user has not (H2Keys): the journal's owner forces it, on a
      // connection of its own that runs nothing else
      if (syncing == null) syncing = JournalDatabase.connect(H2Keys.find(settings).owner(settings));
      try (java.sql.Statement st = syncing.createStatement()) {
        st.execute("CHECKPOINT SYNC");
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("the " + settings.describe() + " could not be forced to disk ("
          + JournalDatabase.oneLine(e.getMessage()) + ")", e);
    }
  }


  /**
   * Starts the writer of run {@code runId} (see {@link RunWriter}) and waits for its recovery; {@code written}: the
   * count and checksum of the events the journal holds of it.
   */
  RunWriter.Handle writer(String runId, RunWriter.Written written) {
    CompletableFuture<RunWriter.Handle> ready = new CompletableFuture<>();
    system.systemActorOf(RunWriter.create(runId, settings.describe(), written, retryFor(), ready),
        "writer-" + NAMES.incrementAndGet(), DispatcherSelector.fromConfig(DISPATCHER));
    RunWriter.Handle h = await(ready, "starting run " + runId);
    if (h.recovered() == null) {
      throw new BadInputException("run " + runId + ": the journal holds a row that cannot be read ("
          + h.failure().getNow("?") + "); " + settings.describe());
    }
    return h;
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
    ActorRef<RunEntity.Recovered> listener = system.systemActorOf(completing(recovered), "recovery-" + n,
        DispatcherSelector.fromConfig(DISPATCHER));
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
    }), "run-" + n, DispatcherSelector.fromConfig(DISPATCHER));
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
      if (host != null) host.close();
    } finally {
      synchronized (this) {
        JournalDatabase.close(syncing);
      }
      JournalDatabase.close(held);
      if (settings.kind() == JournalKind.H2) PrivateFiles.restrict(settings.h2File().getParent()); // H2's trace file
    }
  }

  private static SimulationHost start(JournalSettings s) {
    return SimulationHost.start("tlogsim", systemConfig(s));
  }

  /**
   * What the process's actor system needs for this journal (over its own settings): Pekko Persistence on
   * pekko-persistence-jdbc, whose journal, snapshot store and read journal share one connection pool to the database
   * (two connections: writes are few and large), and the journal's dispatcher.
   */
  public static Config systemConfig(JournalSettings s) {
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
            # a run's events: stored as every CborSerializable, their bytes made once for the writer's checksum and
            # the plugin's write (RunEventSerializer)
            pekko.actor.serializers.tlogsim-run-event = "io.tlogsim.journal.RunEventSerializer"
            pekko.actor.serialization-bindings { "io.tlogsim.journal.RunEvent" = tlogsim-run-event }
            tlogsim-journal-dispatcher {
              type = Dispatcher
              executor = fork-join-executor
              fork-join-executor.parallelism-min = 2
              fork-join-executor.parallelism-max = 2
            }
            """)
        .withValue("pekko-persistence-jdbc.shared-databases.tlogsim.profile", ConfigValueFactory.fromAnyRef(profile))
        .withValue("pekko-persistence-jdbc.shared-databases.tlogsim.db", ConfigValueFactory.fromMap(db));
  }
}
