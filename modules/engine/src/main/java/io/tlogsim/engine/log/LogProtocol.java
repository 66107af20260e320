package io.tlogsim.engine.log;

import io.tlogsim.kernel.Protocol;

/** Event kinds between sessions and the log manager (payload fields of a kernel event). */
public final class LogProtocol {
  private LogProtocol() {}

  /** Log manager input port for commit records from sessions. */
  public static final int COMMITS_PORT = 0;
  /** Log manager input port for answers of its log device. */
  public static final int DEVICE_PORT = 1;
  /** Session pool input port for acknowledgements. */
  public static final int ACKS_PORT = 0;

  /** A commit record reaches the log manager: a = session, b = record bytes. */
  public static final int COMMIT = 10;
  /** A commit is durable: a = session. */
  public static final int ACK = 11;

  public static final Protocol COMMITS = Protocol.of("commits", COMMIT, "commit");
  public static final Protocol ACKS = Protocol.of("acknowledgements", ACK, "ack");
}
