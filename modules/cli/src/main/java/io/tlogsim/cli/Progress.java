package io.tlogsim.cli;

import io.tlogsim.scenario.Text;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Progress of a run on stderr: a bar in simulated milliseconds when stderr is a terminal (also when stdout is
 * redirected), followed by the commit rate and p99 latency of the last wall second, else, with {@code --progress S}, a
 * plain line every S wall seconds with the rate and latency since the previous line (as pgbench's -P). A daemon
 * thread reads the simulated time the run has reached while the run blocks the caller.
 */
final class Progress implements AutoCloseable {
  private static final long NS_PER_MS = 1_000_000L;
  /** Set by the launcher: whether stderr is a terminal (the JVM cannot tell for stderr alone). */
  static final String STDERR_TTY_PROPERTY = "tlogsim.stderr.tty";
  private static final Progress NONE = new Progress(null, null, null, 0, null, () -> null, 0);

  private final ProgressBar bar;
  private final PrintWriter lines;
  private final ScheduledExecutorService ticker;
  private final long endNanos;
  private final AtomicLong reached;
  private final Supplier<LiveSeries.Figures> live;
  private final long startNanos;

  private Progress(ProgressBar bar, PrintWriter lines, ScheduledExecutorService ticker, long endNanos,
      AtomicLong reached, Supplier<LiveSeries.Figures> live, long startNanos) {
    this.bar = bar;
    this.lines = lines;
    this.ticker = ticker;
    this.endNanos = endNanos;
    this.reached = reached;
    this.live = live;
    this.startNanos = startNanos;
  }

  /** True when stderr is a terminal: as the launcher says, else as Linux's /proc says, else no. */
  static boolean stderrIsTerminal() {
    String said = System.getProperty(STDERR_TTY_PROPERTY);
    if (said != null) return said.equals("true");
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (Exception e) {
      return false;
    }
  }

  /**
   * Starts the display that fits: the bar on a terminal, lines every {@code everySeconds} (null: none) otherwise.
   *
   * @param live figures of the intervals completed since it was last asked (commit rate, latency), from the models'
   *     interval facts; none for a kind that records none
   */
  static Progress start(boolean quiet, boolean terminal, Double everySeconds, PrintWriter err, String task,
      long endNanos, AtomicLong reached, Supplier<LiveSeries.Figures> live) {
    if (quiet || endNanos <= 0) return NONE;
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tlogsim-progress");
      t.setDaemon(true);
      return t;
    });
    if (terminal) {
      long maxMs = Math.max(1, (endNanos + NS_PER_MS - 1) / NS_PER_MS);
      ProgressBar bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(maxMs).setUnit(" sim ms", 1)
          .setUpdateIntervalMillis(200).build();
      Interrupts.keepTheJvmsHandler();
      Progress p = new Progress(bar, null, ticker, endNanos, reached, live, System.nanoTime());
      ticker.scheduleAtFixedRate(p::tickBar, 0, 100, TimeUnit.MILLISECONDS);
      return p;
    }
    if (everySeconds == null) {
      ticker.shutdown();
      return NONE;
    }
    Progress p = new Progress(null, err, ticker, endNanos, reached, live, System.nanoTime());
    long periodMs = Math.max(1, Math.round(everySeconds * 1000));
    ticker.scheduleAtFixedRate(p::printLine, periodMs, periodMs, TimeUnit.MILLISECONDS);
    return p;
  }

  private int ticks;
  private final AtomicBoolean stopped = new AtomicBoolean();

  /** Every 100 ms: the bar; every second, the live figures after it (those of the last wall second). */
  private void tickBar() {
    if (ticks == 0) Interrupts.keepTheJvmsHandler(); // in case the terminal was made lazily, at the first render
    if (ticks++ % 10 == 9) {
      LiveSeries.Figures f = live.get();
      bar.setExtraMessage(f == null ? "" : " " + f.brief());
    }
    bar.stepTo(Math.min(bar.getMax(), reached.get() / NS_PER_MS));
  }

  private void printLine() {
    lines.println(line(reached.get(), (System.nanoTime() - startNanos) / 1e9));
    lines.flush();
  }

  /** "progress     0.84 of 2 simulated s (42.0%), 3.1 wall s", then the live figures, if any. */
  String line(long reachedNanos, double wallSeconds) {
    long at = Math.min(reachedNanos, endNanos);
    List<String> items = new ArrayList<>();
    items.add(String.format(Locale.ROOT, "%s of %s simulated s (%.1f%%)", Text.number(Math.round(at / 1e6) / 1e3),
        Text.number(endNanos / 1e9), at * 100.0 / endNanos));
    items.add(String.format(Locale.ROOT, "%.1f wall s", wallSeconds));
    LiveSeries.Figures f = live.get();
    if (f != null) items.addAll(f.items());
    return String.join("\n", Text.lines("progress", items));
  }

  /** The run reached its end: show the bar full. */
  void finished() {
    if (bar != null) {
      ticker.shutdownNow();
      bar.stepTo(bar.getMax());
    }
  }

  /**
   * Stops the display for good (a signal stopped the run): the bar is drawn a last time and its line ended, so that
   * the stop line that follows stands on a line of its own and nothing draws over it.
   */
  void stopDisplay() {
    close();
  }

  @Override
  public void close() {
    if (ticker == null || !stopped.compareAndSet(false, true)) return;
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (bar != null) bar.close();
  }
}
