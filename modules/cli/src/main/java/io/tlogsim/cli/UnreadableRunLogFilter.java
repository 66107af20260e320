package io.tlogsim.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Keeps off stderr the stack trace Pekko logs when a run's entity cannot be recovered from the journal (a row written
 * by an earlier tlogsim whose records have changed since, or a corrupt one): the command says so itself, in one line
 * or as the run's "unreadable" status in {@code tlogsim runs}. Some 100 lines per such run otherwise.
 */
public final class UnreadableRunLogFilter extends Filter<ILoggingEvent> {
  static final String RECOVERY_FAILED = "Exception during recovery";

  @Override
  public FilterReply decide(ILoggingEvent event) {
    if (!event.getLoggerName().startsWith("io.tlogsim.journal.")) return FilterReply.NEUTRAL;
    for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().startsWith(RECOVERY_FAILED)) return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }
}
