package io.tlogsim.cli;

import sun.misc.Signal;

/**
 * Ctrl-C on a terminal must run the JVM's shutdown hooks (the stop line, the run directory removed): JLine, under the
 * progress bar, sets SIGINT back to the operating system's default when it opens the terminal, and that kills the JVM
 * at once (exit 130, only "^C", an empty run directory left behind). Put back what the JDK does on SIGINT: exit with
 * 128 + the signal's number, running the hooks, on a thread named "SIGINT handler" (which {@link RunGuard} reads).
 */
final class Interrupts {
  private static final Signal INT = new Signal("INT");

  private Interrupts() {}

  static void keepTheJvmsHandler() {
    try {
      Signal.handle(INT, sig -> Runtime.getRuntime().exit(128 + sig.getNumber()));
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // the signal cannot be handled here (-Xrs, another OS): nothing to put back
    }
  }
}
