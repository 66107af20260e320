package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;

class OutOfMemoryLogFilterTest {
  private static FilterReply decide(Throwable t) {
    Logger logger = new LoggerContext().getLogger("pekko");
    return new OutOfMemoryLogFilter().decide(new LoggingEvent("fqcn", logger, Level.ERROR, "Uncaught error", t, null));
  }

  @Test
  void anOutOfMemoryErrorOrOneCausedByItStaysOffStderrAndOtherErrorsDoNot() {
    assertEquals(FilterReply.DENY, decide(new OutOfMemoryError("Java heap space")));
    assertEquals(FilterReply.DENY, decide(new IllegalStateException("wrapped", new OutOfMemoryError("Java heap space"))));
    assertEquals(FilterReply.NEUTRAL, decide(new IllegalStateException("something else")));
    assertEquals(FilterReply.NEUTRAL, decide(null));
  }
}
