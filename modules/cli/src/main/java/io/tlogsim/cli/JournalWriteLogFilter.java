package io.tlogsim.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.List;

/**
 * Keeps off stderr what the journal's plugin and its connection pool log when the database fails (a full disk, a
 * PostgreSQL stopped): a hundred lines of Slick, HikariCP and Pekko Persistence stack traces for one failed write. The
 * run's writer says it in its own words instead: the command's one line when the run stops ({@code run failed: the H2
 * journal ... could not be written (...)}), and on a node, one warning when writes start to be retried and one when the
 * journal answers again.
 */
public final class JournalWriteLogFilter extends Filter<ILoggingEvent> {
  private static final List<String> PLUGIN = List.of("slick.", "com.zaxxer.hikari.", "org.apache.pekko.persistence.");
  static final String PERSIST_FAILED = "org.apache.pekko.persistence.typed.internal.JournalFailureException";

  @Override
  public FilterReply decide(ILoggingEvent event) {
    String logger = event.getLoggerName();
    for (String p : PLUGIN) if (logger.startsWith(p)) return FilterReply.DENY;
    if (logger.equals("io.tlogsim.journal.RunEntity")) { // the entity's supervisor, on the failure that stopped it
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        if (PERSIST_FAILED.equals(t.getClassName())) return FilterReply.DENY;
      }
    }
    return FilterReply.NEUTRAL;
  }
}
