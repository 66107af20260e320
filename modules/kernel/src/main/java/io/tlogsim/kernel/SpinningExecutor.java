package io.tlogsim.kernel;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;

/**
 * The executor of a run's dispatcher: exactly {@code threads} threads taking mailbox runs from one shared queue; a
 * thread that finds the queue empty busy-waits ({@link Thread#onSpinWait}) for up to {@code idle-spin} before it
 * parks. Why: a window is a round of messages (clock, component hosts, reports, clock) of a few tens of microseconds,
 * and between two of its mailbox runs a thread is often idle for a few microseconds only. Parked, it must be woken by
 * the thread that sends the next message, which on this VM costs the waker about 10 us of CPU and the woken thread
 * about 20-30 us before it runs (`tlogsim calibrate-host`: futexWakeCallCpu, futexWakeCrossCore), most of a window.
 * A spinning thread takes the mailbox at once and nobody pays a wake-up. Past {@code idle-spin} without work (the run
 * is over, or the model left a thread nothing to do for that long) it parks, and costs nothing until woken: a sender
 * wakes one parked thread only when no thread is spinning. Spinning is idle time: each mailbox run is timed for
 * {@link BusyMeter} (run.threadBusy), not the waits between them.
 *
 * <p>The protocol has no lost wake-up: a thread about to park first lists itself as parked, then stops counting as
 * spinning, then looks at the queue once more; a sender first queues its task, then reads the spinning count, and
 * wakes a listed thread if it is 0. Whichever runs second sees the other's write.
 */
final class SpinningExecutor extends AbstractExecutorService {
  private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedDeque<Worker> parked = new ConcurrentLinkedDeque<>(); // the latest parked first
  private final AtomicInteger spinning = new AtomicInteger();
  private final long spinNanos;
  private final BusyMeter meter;
  private final List<Worker> workers = new ArrayList<>();
  private volatile boolean shutdown;

  SpinningExecutor(int threads, long spinNanos, ThreadFactory threadFactory, BusyMeter meter) {
    this.spinNanos = spinNanos;
    this.meter = meter;
    for (int i = 0; i < threads; i++) workers.add(new Worker(threadFactory));
    for (Worker w : workers) w.thread.start();
  }

  private final class Worker implements Runnable {
    final Thread thread;
    volatile boolean waiting; // listed in parked, not yet woken

    Worker(ThreadFactory threadFactory) {
      thread = threadFactory.newThread(this);
    }

    @Override
    public void run() {
      spinning.incrementAndGet(); // a fresh thread looks for work first
      while (true) {
        Runnable task = queue.poll();
        if (task == null) task = idle();
        if (task == null) return; // shut down and nothing left
        spinning.decrementAndGet();
        // Work left behind and nobody spinning to take it: pass the wake-up on (two messages sent at once by a
        // thread that no other thread was waiting for must not wait for each other).
        if (spinning.get() == 0 && !queue.isEmpty()) wakeOne();
        long start = System.nanoTime();
        try {
          task.run();
        } catch (Throwable t) { // as a thread pool's worker: report, and keep the thread (the pool stays at size)
          Thread.UncaughtExceptionHandler h = thread.getUncaughtExceptionHandler();
          if (h != null) h.uncaughtException(thread, t);
        } finally {
          meter.add(System.nanoTime() - start);
        }
        spinning.incrementAndGet();
      }
    }

    /** Spins, then parks, until a task comes (counted as spinning on return) or the executor is done (null). */
    private Runnable idle() {
      long deadline = System.nanoTime() + spinNanos;
      while (true) {
        Runnable task;
        do {
          Thread.onSpinWait();
          task = queue.poll();
          if (task != null) return task;
        } while (System.nanoTime() - deadline < 0 && !shutdown);
        waiting = true;
        parked.push(this);
        spinning.decrementAndGet();
        task = queue.poll();
        if (task == null && !shutdown) {
          while (waiting && !shutdown) LockSupport.park(this);
        } else if (!parked.remove(this)) {
          while (waiting && !shutdown) LockSupport.park(this); // a sender took us off the list: its unpark comes
        }
        waiting = false;
        spinning.incrementAndGet();
        if (task != null) return task;
        if (shutdown && queue.isEmpty()) {
          spinning.decrementAndGet();
          return null;
        }
        deadline = System.nanoTime() + spinNanos; // woken: spin again before parking
      }
    }
  }

  private void wakeOne() {
    Worker w = parked.poll();
    if (w != null) {
      w.waiting = false;
      LockSupport.unpark(w.thread);
    }
  }

  @Override
  public void execute(Runnable task) {
    if (shutdown) throw new RejectedExecutionException("the run's dispatcher is shut down");
    queue.offer(task);
    if (spinning.get() == 0) wakeOne();
  }

  @Override
  public void shutdown() {
    shutdown = true;
    for (Worker w : workers) LockSupport.unpark(w.thread);
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown();
    List<Runnable> left = new ArrayList<>();
    for (Runnable r; (r = queue.poll()) != null; ) left.add(r);
    return left;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    if (!shutdown) return false;
    for (Worker w : workers) if (w.thread.isAlive()) return false;
    return true;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long end = System.nanoTime() + unit.toNanos(timeout);
    for (Worker w : workers) {
      long left = end - System.nanoTime();
      if (left <= 0) return isTerminated();
      TimeUnit.NANOSECONDS.timedJoin(w.thread, left);
    }
    return isTerminated();
  }

  /**
   * {@code executor = "io.tlogsim.kernel.SpinningExecutor$Configurator"} with a section {@code spinning-executor {
   * threads = N, idle-spin = 100us }} ({@link SimulationHost} writes it from tlogsim.kernel.run-dispatcher).
   */
  public static final class Configurator extends ExecutorServiceConfigurator {
    private final int threads;
    private final long spinNanos;

    public Configurator(Config config, DispatcherPrerequisites prerequisites) {
      super(config, prerequisites);
      Config own = config.getConfig("spinning-executor");
      threads = own.getInt("threads");
      spinNanos = own.getDuration("idle-spin", TimeUnit.NANOSECONDS);
    }

    @Override
    public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory threadFactory) {
      BusyMeter meter = BusyMeter.of(id);
      return () -> new SpinningExecutor(threads, spinNanos, threadFactory, meter);
    }
  }
}
