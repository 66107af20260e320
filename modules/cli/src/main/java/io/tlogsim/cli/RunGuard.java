package io.tlogsim.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Stops a run cleanly on Ctrl-C or SIGTERM: a JVM shutdown hook, installed for the run only, says so on stderr and
 * removes the run directory if the run made it and it is still empty; the JVM then halts, which stops the simulation
 * wherever it is, and exits with the signal's code (130 or 143), never 0. (The hook does not interrupt the run's
 * thread: an interrupt while Pekko starts makes Pekko print stack traces, and halting is enough.)
 *
 * <p>Either the hook or the run wins, never both: once the run has started writing its results the hook lets it
 * finish (the results are whole), and once the hook has fired the run writes nothing.
 */
final class RunGuard implements AutoCloseable {
  /** How long the hook waits for results being written to be whole (the JVM stops right after). */
  private static final long STOP_WAIT_MS = 3_000;

  private enum State { RUNNING, STOPPING, WRITING, DONE }

  private final AtomicReference<State> state = new AtomicReference<>(State.RUNNING);
  private final CountDownLatch settled = new CountDownLatch(1);
  private final PrintWriter err;
  private final Supplier<String> where;
  private final Thread hook;
  private Path madeDir; // guarded by this
  private volatile String noteOnStop = "nothing was written";
  private volatile Runnable beforeStopLine = () -> {};

  /**
   * @param where what the user reads about where the run was stopped ("at 0.84 of 2 simulated s")
   */
  RunGuard(PrintWriter err, Supplier<String> where) {
    this.err = err;
    this.where = where;
    this.hook = new Thread(this::onSignal, "tlogsim-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Makes the run's directory: the directory it made, or null when it existed before (then never removed). */
  interface DirectoryMaker {
    Path make() throws IOException;
  }

  /**
   * Makes the run's directory unless a signal came first (then {@link Failures.Interrupted}); a directory the run made
   * is removed if a signal stops the run while it is empty. Atomic with the hook, so none is left behind.
   */
  synchronized void makeDirectory(DirectoryMaker maker) throws IOException {
    if (state.get() != State.RUNNING) throw new Failures.Interrupted();
    madeDir = maker.make();
  }

  /**
   * What the stop line says after where the run was (by default "nothing was written"): a journaled run says how to
   * resume it.
   */
  void onStop(String note) {
    noteOnStop = "no summary was written; " + note;
  }

  /** What must stop before the stop line is printed (the progress bar, which would draw over it). */
  void beforeStopLine(Runnable action) {
    beforeStopLine = action;
  }

  /** The directory the run made, or null. */
  synchronized Path madeDir() {
    return madeDir;
  }

  /** The run is over and its results are about to be written: false if a signal stopped it first. */
  boolean startWriting() {
    return state.compareAndSet(State.RUNNING, State.WRITING);
  }

  boolean stopped() {
    return state.get() == State.STOPPING;
  }

  private void onSignal() {
    synchronized (this) {
      if (state.compareAndSet(State.RUNNING, State.STOPPING)) {
        try {
          beforeStopLine.run();
        } catch (RuntimeException ignored) {
          // the display could not be stopped: the stop line is still said
        }
        err.println("tlogsim: stopped by " + cause() + " " + where.get() + "; " + noteOnStop);
        err.flush();
        removeIfEmpty(madeDir);
        linger();
        return;
      }
    }
    await(); // the results are being written: let them be whole
  }

  /**
   * What is stopping the JVM: the JDK handles SIGINT and SIGTERM on a thread named "SIGINT handler" or "SIGTERM
   * handler", which waits for the hooks; else some code called System.exit (Pekko does on a fatal error).
   */
  private static String cause() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("SIGINT handler")) return "Ctrl-C (SIGINT)";
      if (t.getName().equals("SIGTERM handler")) return "SIGTERM";
      if (t.getName().equals("SIGHUP handler")) return "SIGHUP";
    }
    return "a fatal error (the JVM is exiting)";
  }

  /**
   * Tests hold the JVM this long after the stop line ({@code tlogsim.stop.lingerMs}, 0 by default), so that anything
   * that would still draw over it (the progress bar) has the time to.
   */
  private static void linger() {
    long ms = Long.getLong("tlogsim.stop.lingerMs", 0);
    if (ms <= 0) return;
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void await() {
    try {
      settled.await(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Removes {@code dir} if it exists and is empty. */
  static void removeIfEmpty(Path dir) {
    if (dir == null) return;
    try (var entries = Files.list(dir)) {
      if (entries.findAny().isEmpty()) Files.delete(dir);
    } catch (IOException | UncheckedIOException ignored) {
      // gone already, or not ours to empty
    }
  }

  /** The run has stopped (finished, failed or interrupted): the hook need not wait; uninstalled unless firing. */
  @Override
  public void close() {
    state.compareAndSet(State.WRITING, State.DONE);
    state.compareAndSet(State.RUNNING, State.DONE);
    settled.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or about to: it finds the run settled
    }
  }
}
