package io.tlogsim.cli;

import io.tlogsim.kernel.SimulationException;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/** How a run fails in ways the user can act on: out of memory, or stopped by a signal. */
final class Failures {
  private Failures() {}

  /** The run ran out of heap; the message says how to give it more. */
  static final class OutOfMemory extends RuntimeException {
    OutOfMemory() {
      super(outOfMemoryText());
    }
  }

  /** The run was stopped by SIGINT or SIGTERM; the shutdown hook has told the user, nothing more to say. */
  static final class Interrupted extends RuntimeException {
    Interrupted() {
      super("interrupted");
    }
  }

  /** Set when an OutOfMemoryError was seen on a thread the command does not watch (logged or uncaught). */
  private static final AtomicBoolean OUT_OF_MEMORY_ELSEWHERE = new AtomicBoolean();

  static void outOfMemoryElsewhere() {
    OUT_OF_MEMORY_ELSEWHERE.set(true);
  }

  /** Whether some thread ran out of memory: the command then fails with {@link #outOfMemory()}, even if it ended. */
  static boolean outOfMemorySeen() {
    return OUT_OF_MEMORY_ELSEWHERE.get();
  }

  /** "run failed: out of memory ...", for where no command is there to add "run failed". */
  static String outOfMemory() {
    return "run failed: " + outOfMemoryText();
  }

  private static String outOfMemoryText() {
    long maxMb = Runtime.getRuntime().maxMemory() / (1024 * 1024);
    return String.format(Locale.ROOT, "out of memory (Java heap at most %,d MB); give it more with "
        + "TLOGSIM_JAVA_OPTS, e.g. TLOGSIM_JAVA_OPTS=-Xmx8g", maxMb);
  }

  /**
   * True when {@code t} or one of its causes is an OutOfMemoryError, or the kernel's report that a component ran out
   * of memory on an actor's thread.
   */
  static boolean isOutOfMemory(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof OutOfMemoryError) return true;
      if (c instanceof SimulationException s && s.outOfMemory()) return true;
    }
    return false;
  }
}
