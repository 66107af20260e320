package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;

class UnreadableRunLogFilterTest {
  private static FilterReply decide(String logger, Throwable t) {
    return new UnreadableRunLogFilter().decide(new LoggingEvent("fqcn", new LoggerContext().getLogger(logger),
        Level.ERROR, "Supervisor StopSupervisor saw failure", t, null));
  }

  @Test
  void aRunThatCannotBeRecoveredIsLeftToTheCommandAndOtherJournalErrorsAreNot() {
    Throwable unreadable = new IllegalStateException("Exception during recovery from snapshot. PersistenceId [Run|r].",
        new IllegalArgumentException("Cannot construct instance"));
    assertEquals(FilterReply.DENY, decide("io.tlogsim.journal.RunEntity", unreadable));
    assertEquals(FilterReply.DENY, decide("io.tlogsim.journal.RunEntity", new RuntimeException("wrapped", unreadable)));
    assertEquals(FilterReply.NEUTRAL, decide("io.tlogsim.journal.RunEntity", new IllegalStateException("persist failed")));
    assertEquals(FilterReply.NEUTRAL, decide("org.apache.pekko.cluster.Cluster", unreadable));
  }
}
