package io.tlogsim.scenario;

/**
 * Input that tlogsim refuses: an unknown scenario or key, a wrong type, a value out of range, a malformed file.
 * The message is one line naming what is wrong and what is allowed; the command line exits 2 with it.
 */
public final class BadInputException extends RuntimeException {
  private final String key;

  public BadInputException(String message) {
    this(null, message);
  }

  private BadInputException(String key, String message) {
    super(message);
    this.key = key;
  }

  /**
   * A value refused by a check across keys ({@link ScenarioKind#validate}): the message starts with the key; the loader
   * adds where the key's value was set (file:line).
   */
  public static BadInputException about(String key, String message) {
    return new BadInputException(key, key + ": " + message);
  }

  /** The parameter whose value is refused, or null. */
  public String key() {
    return key;
  }
}
