package io.tlogsim.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C on a terminal must run the JVM's shutdown hooks (the stop line, the run directory removed): JLine, under the
 * progress bar, sets SIGINT back to the operating system's default when it opens the terminal, and that kills the JVM
 * at once (exit 130, only "^C", an empty run directory left behind). Put back what the JDK does on SIGINT: exit with
 * 128 + the signal's number, running the hooks, on a thread named "SIGINT handler" (which {@link RunGuard} reads).
 */
final class Interrupts {
  private static final Signal INT = new Signal("INT");
  private static final SignalHandler EXIT = sig -> Runtime.getRuntime().exit(128 + sig.getNumber());

  private Interrupts() {}

  /**
   * Puts the JDK's behaviour back (one sigaction: cheap enough to call on every redraw of the bar, which is what
   * the progress bar does): its terminal may be opened on the bar's own thread after the first redraw, and its
   * handler then replaces ours (the likely cause of a CI run under load where Ctrl-C did not stop the run).
   */
  static void keepTheJvmsHandler() {
    try {
      Signal.handle(INT, EXIT);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // the signal cannot be handled here (-Xrs, another OS): nothing to put back
    }
  }
}
