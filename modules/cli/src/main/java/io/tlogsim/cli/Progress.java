package io.tlogsim.cli;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * A progress bar in simulated milliseconds, on stderr, only on a terminal. A daemon thread copies the simulated time
 * the run has reached into the bar while the run blocks the caller.
 */
final class Progress implements AutoCloseable {
  private static final long NS_PER_MS = 1_000_000L;
  private static final Progress NONE = new Progress(null, null, 0, null);

  private final ProgressBar bar;
  private final ScheduledExecutorService ticker;
  private final long maxMs;
  private final AtomicLong reached;

  private Progress(ProgressBar bar, ScheduledExecutorService ticker, long maxMs, AtomicLong reached) {
    this.bar = bar;
    this.ticker = ticker;
    this.maxMs = maxMs;
    this.reached = reached;
  }

  /** True when stdin and stdout are a terminal (never in CI or a pipe). */
  static boolean onTerminal() {
    Console c = System.console();
    if (c == null) return false;
    try { // Java 22+ returns a console even when redirected; it then says whether it is a terminal.
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(c);
    } catch (ReflectiveOperationException e) {
      return true; // Java 17-21: a console exists only on a terminal
    }
  }

  static Progress start(boolean enabled, String task, long endNanos, AtomicLong reached) {
    if (!enabled || endNanos <= 0) return NONE;
    long maxMs = Math.max(1, (endNanos + NS_PER_MS - 1) / NS_PER_MS);
    ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(maxMs).setUnit(" sim ms", 1)
        .setUpdateIntervalMillis(200).build();
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tlogsim-progress");
      t.setDaemon(true);
      return t;
    });
    Progress p = new Progress(bar, ticker, maxMs, reached);
    ticker.scheduleAtFixedRate(p::tick, 0, 100, TimeUnit.MILLISECONDS);
    return p;
  }

  private void tick() {
    bar.stepTo(Math.min(maxMs, reached.get() / NS_PER_MS));
  }

  /** The run reached its end: show the bar full. */
  void finished() {
    if (bar != null) {
      ticker.shutdownNow();
      bar.stepTo(maxMs);
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      ticker.shutdownNow();
      try {
        ticker.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      bar.close();
    }
  }
}
