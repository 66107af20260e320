package io.tlogsim.engine.log;

/** Event kinds between sessions and the log manager (payload fields a and b of a kernel event). */
public final class LogProtocol {
  private LogProtocol() {}

  /** Log manager input port for commit records from sessions. */
  public static final int COMMITS = 0;
  /** Log manager input port for answers of its log device. */
  public static final int DEVICE = 1;
  /** Session pool input port for acknowledgements. */
  public static final int ACKS = 0;

  /** A commit record reaches the log manager: a = session, b = record bytes. */
  public static final int COMMIT = 10;
  /** A commit is durable: a = session. */
  public static final int ACK = 11;
}
