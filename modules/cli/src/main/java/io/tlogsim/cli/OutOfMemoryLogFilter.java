package io.tlogsim.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Keeps log events caused by an OutOfMemoryError off stderr: the command reports running out of memory itself, in one
 * line (Failures.outOfMemory), and fails (exit 1) even when the error hit a thread it does not watch. Without it, an
 * OOM that lands on one of Pekko's threads (not a component's) is also logged by Pekko's fatal-error handler with a
 * stack trace of some 90 lines.
 */
public final class OutOfMemoryLogFilter extends Filter<ILoggingEvent> {
  @Override
  public FilterReply decide(ILoggingEvent event) {
    for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
      if (OutOfMemoryError.class.getName().equals(t.getClassName())) {
        Failures.outOfMemoryElsewhere(); // the command fails with its one line, also if its own thread went on
        return FilterReply.DENY;
      }
    }
    return FilterReply.NEUTRAL;
  }
}
