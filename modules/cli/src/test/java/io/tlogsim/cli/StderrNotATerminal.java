package io.tlogsim.cli;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For tests that run tlogsim in-process and read what it prints: its stderr is not a terminal, so no live progress
 * bar is drawn into the output the test reads ({@code @ExtendWith(StderrNotATerminal.class)}).
 */
final class StderrNotATerminal implements BeforeEachCallback, AfterEachCallback {
  @Override
  public void beforeEach(ExtensionContext context) {
    System.setProperty(Progress.STDERR_TTY_PROPERTY, "false");
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.clearProperty(Progress.STDERR_TTY_PROPERTY);
  }
}
