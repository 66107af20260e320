package io.tlogsim.engine.scenario;

/**
 * Input that tlogsim refuses: an unknown scenario or key, a wrong type, a value out of range, a malformed file.
 * The message is one line naming what is wrong and what is allowed; the command line exits 2 with it.
 */
public final class BadInputException extends RuntimeException {
  public BadInputException(String message) {
    super(message);
  }
}
