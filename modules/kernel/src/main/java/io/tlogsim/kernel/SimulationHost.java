package io.tlogsim.kernel;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.dispatch.DispatcherConfigurator;
import org.apache.pekko.dispatch.Dispatchers;
import org.slf4j.LoggerFactory;

/**
 * The process's actor system, in which its runs are simulated (one after another or at once) and whatever else the
 * process needs lives beside them (a journal's persistence, given through {@link #start}'s config; the kernel knows
 * nothing of it). Starting and stopping an actor system costs a good part of a second, and two of them in one process
 * would split one process's threads between them for nothing.
 *
 * <p>Each run gets a dispatcher of its own with the threads its settings ask for (a fork-join pool of exactly that
 * parallelism, as a run's own actor system had): the clock and its components run there, and nothing else does, so a
 * run's speed does not depend on what else the process does. The system's default dispatcher (two threads) serves the
 * rest. A dispatcher left without actors ends its threads a second later; a later run of as many threads takes it
 * again.
 */
public final class SimulationHost implements AutoCloseable {
  /** Threads of the system's default dispatcher: what is not a run (a journal's writes, Pekko's own work). */
  static final int SERVICE_THREADS = 2;
  private static final AtomicLong DISPATCHERS = new AtomicLong();
  private static SimulationHost shared; // guarded by SimulationHost.class

  private final ActorSystem<Void> system;
  private final Set<CompletableFuture<RunOutcome>> running = ConcurrentHashMap.newKeySet();
  private final AtomicLong runs = new AtomicLong();
  // Dispatchers no run uses now, by thread count: a later run takes one (registered dispatchers are never dropped,
  // so a test of a thousand runs must not make a thousand); two runs at once never share one.
  private final Map<Integer, Deque<String>> idleDispatchers = new HashMap<>(); // guarded by this

  private SimulationHost(ActorSystem<Void> system) {
    this.system = system;
    system.getWhenTerminated().whenComplete((done, error) -> running.forEach(run ->
        run.completeExceptionally(new SimulationException("the run's actor system stopped before the run ended"))));
  }

  /**
   * Starts the process's actor system {@code name}, with {@code config} over the kernel's settings (and the
   * application's): e.g. the persistence settings of the journal the process records its runs in.
   */
  public static SimulationHost start(String name, Config config) {
    LoggerFactory.getILoggerFactory(); // logging up before Pekko's threads log (else SLF4J replays and warns)
    return new SimulationHost(ActorSystem.create(Behaviors.empty(), name, config.withFallback(systemConfig(false))));
  }

  /**
   * The host of the runs of code that was given none ({@link Simulation#run}): made on first use, for the rest of the
   * process (its threads are daemons: it never keeps the JVM alive), made again if it was stopped.
   */
  public static synchronized SimulationHost shared() {
    if (shared == null || shared.system.whenTerminated().isCompleted()) {
      LoggerFactory.getILoggerFactory();
      shared = new SimulationHost(ActorSystem.create(Behaviors.empty(), "tlogsim", systemConfig(true)));
    }
    return shared;
  }

  public ActorSystem<Void> system() {
    return system;
  }

  /** Runs to the end, as {@link Simulation#run(Topology, List, RunSettings)}. */
  public RunOutcome run(Topology topo, List<SimComponent> models, RunSettings settings) {
    return run(topo, Simulation.once(models), settings);
  }

  /** Runs to the end with fresh models from {@code models} should a component be lost. */
  public RunOutcome run(Topology topo, Supplier<List<SimComponent>> models, RunSettings settings) {
    return run(topo, new LocalPlacement(topo, models, settings), settings);
  }

  /**
   * Runs to the end with the given placement of the components' actors; returns the outcome or throws
   * {@link SimulationException} with one line naming what failed. Never waits forever: if the actor system stops
   * before the run ends, the run fails.
   */
  public RunOutcome run(Topology topo, Placement placement, RunSettings settings) {
    Simulation.check(topo, settings.restoreFrom()); // a bad checkpoint fails here, before any actor
    CompletableFuture<RunOutcome> outcome = new CompletableFuture<>();
    running.add(outcome);
    ActorRef<Clock.Command> clock = null;
    String dispatcher = null;
    try {
      if (system.whenTerminated().isCompleted()) {
        throw new SimulationException("the run's actor system stopped before the run ended");
      }
      long n = runs.incrementAndGet();
      dispatcher = takeDispatcher(settings.threads());
      BusyMeter meter = BusyMeter.of(dispatcher); // the dispatcher is this run's alone until it is given back
      Map<Thread, Long> busyBefore = meter.snapshot();
      long start = System.nanoTime();
      clock = system.systemActorOf(Clock.create(topo, placement, settings, outcome), "run-" + n,
          DispatcherSelector.fromConfig(dispatcher));
      RunOutcome done = Simulation.await(outcome); // the clock stops itself, and its components with it, once known
      return done.withThreadBusy(BusyMeter.shares(busyBefore, meter.snapshot(), System.nanoTime() - start,
          settings.threads()));
    } finally {
      running.remove(outcome);
      if (clock != null && !outcome.isDone()) clock.tell(new Clock.Abort("the run was given up")); // interrupted
      if (dispatcher != null) giveBack(settings.threads(), dispatcher);
    }
  }

  /**
   * A dispatcher of its own for one run: a fork-join pool of {@code threads} whose threads' busy time is kept
   * ({@link BusyMeter}), with the system's default dispatcher's other settings (its throughput: the kernel's
   * reference.conf).
   */
  private synchronized String takeDispatcher(int threads) {
    Deque<String> idle = idleDispatchers.get(threads);
    if (idle != null && !idle.isEmpty()) return idle.pop();
    String id = "tlogsim-run-dispatcher-" + DISPATCHERS.incrementAndGet();
    Dispatchers dispatchers = Adapter.toClassic(system).dispatchers();
    // Pekko's fork-join executor with each mailbox run timed (BusyMeter: run.threadBusy)
    Config own = ConfigFactory.parseString("executor = \"" + BusyMeter.Configurator.class.getName() + "\"\n"
        + "fork-join-executor.parallelism-min = " + threads + "\n"
        + "fork-join-executor.parallelism-max = " + threads + "\n"
        + "fork-join-executor.parallelism-factor = 1.0\n");
    Config config = own.withFallback(ConfigFactory.parseString("id = \"" + id + "\"\nname = \"" + id + "\""))
        .withFallback(dispatchers.defaultDispatcherConfig());
    dispatchers.registerConfigurator(id, new DispatcherConfigurator(config, dispatchers.prerequisites()));
    return id;
  }

  /** Dispatchers this host has made for runs (for tests: runs one after another reuse them). */
  synchronized int dispatchersMade() {
    int n = 0;
    for (Deque<String> idle : idleDispatchers.values()) n += idle.size();
    return n;
  }

  private synchronized void giveBack(int threads, String dispatcher) {
    idleDispatchers.computeIfAbsent(threads, t -> new ArrayDeque<>()).push(dispatcher);
  }

  /** The kernel's settings for a host's system: two threads for what is not a run, quiet unless something is wrong. */
  static Config systemConfig(boolean daemonic) {
    return ConfigFactory.parseString(
            "pekko.daemonic = " + (daemonic ? "on" : "off") + "\n"
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min = " + SERVICE_THREADS + "\n"
                + "pekko.actor.default-dispatcher.fork-join-executor.parallelism-max = " + SERVICE_THREADS + "\n")
        .withFallback(ConfigFactory.load());
  }

  @Override
  public void close() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException ignored) {
      // shutting down anyway
    }
  }
}
