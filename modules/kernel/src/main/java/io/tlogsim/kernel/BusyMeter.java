package io.tlogsim.kernel;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;
import org.apache.pekko.dispatch.ForkJoinExecutorConfigurator;

/**
 * How long each thread of a run's dispatcher spent running mailboxes (processing) rather than waiting for work: summed
 * per mailbox run (one mailbox run handles up to the dispatcher's throughput of messages, each a window or a batch of
 * events), so it costs two clock reads per mailbox run, never one per event. A wall-clock figure: it goes to
 * {@link RunOutcome#threadBusy()} and summary.json's {@code run} section only, never into a digest or a model.
 */
final class BusyMeter {
  private static final Map<String, BusyMeter> METERS = new ConcurrentHashMap<>(); // by dispatcher id

  /** One thread's busy nanoseconds; written by that thread only, read by the run's host at the end. */
  private static final class Cell {
    final Thread thread;
    volatile long busyNanos;

    Cell(Thread thread) {
      this.thread = thread;
    }
  }

  private final List<Cell> cells = new CopyOnWriteArrayList<>();
  private final ThreadLocal<Cell> mine = ThreadLocal.withInitial(() -> {
    Cell c = new Cell(Thread.currentThread());
    cells.add(c);
    return c;
  });

  /** The meter of dispatcher {@code id}, made when the dispatcher is registered ({@link SimulationHost}). */
  static BusyMeter of(String id) {
    return METERS.computeIfAbsent(id, k -> new BusyMeter());
  }

  /** Busy nanoseconds so far of every thread that has run a mailbox, by thread. */
  Map<Thread, Long> snapshot() {
    Map<Thread, Long> m = new LinkedHashMap<>();
    for (Cell c : cells) m.put(c.thread, c.busyNanos);
    return m;
  }

  /**
   * The busy share of each thread that ran a mailbox between two snapshots {@code wallNanos} apart, busiest first,
   * padded with 0 to the dispatcher's {@code threads} (a thread that never ran was idle throughout).
   */
  static List<Double> shares(Map<Thread, Long> before, Map<Thread, Long> after, long wallNanos, int threads) {
    List<Double> out = new ArrayList<>();
    for (Map.Entry<Thread, Long> e : after.entrySet()) {
      long busy = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      if (busy > 0) out.add(wallNanos <= 0 ? 0.0 : Math.min(1, busy / (double) wallNanos));
    }
    while (out.size() < threads) out.add(0.0);
    out.sort(Comparator.reverseOrder());
    out.replaceAll(v -> Math.round(v * 1000) / 1000.0);
    return List.copyOf(out);
  }

  private void add(long nanos) {
    Cell c = mine.get();
    c.busyNanos = c.busyNanos + nanos; // one writer per cell: no lost update
  }

  /**
   * The executor of a run's dispatcher ({@code executor = "io.tlogsim.kernel.BusyMeter$Configurator"}): Pekko's
   * fork-join executor, configured by the dispatcher's {@code fork-join-executor} section, each mailbox run timed.
   */
  public static final class Configurator extends ExecutorServiceConfigurator {
    private final ForkJoinExecutorConfigurator forkJoin;

    public Configurator(Config config, DispatcherPrerequisites prerequisites) {
      super(config, prerequisites);
      forkJoin = new ForkJoinExecutorConfigurator(config.getConfig("fork-join-executor"), prerequisites);
    }

    @Override
    public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory threadFactory) {
      ExecutorServiceFactory inner = forkJoin.createExecutorServiceFactory(id, threadFactory);
      BusyMeter meter = of(id);
      return () -> new Timed(inner.createExecutorService(), meter);
    }
  }

  /** An executor that times each task (a mailbox run) it hands to the pool. */
  private static final class Timed extends AbstractExecutorService {
    private final ExecutorService pool;
    private final BusyMeter meter;

    Timed(ExecutorService pool, BusyMeter meter) {
      this.pool = pool;
      this.meter = meter;
    }

    @Override
    public void execute(Runnable task) {
      pool.execute(() -> {
        long start = System.nanoTime();
        try {
          task.run();
        } finally {
          meter.add(System.nanoTime() - start);
        }
      });
    }

    @Override
    public void shutdown() {
      pool.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
      return pool.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
      return pool.isShutdown();
    }

    @Override
    public boolean isTerminated() {
      return pool.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
      return pool.awaitTermination(timeout, unit);
    }
  }

}
