package io.tlogsim.database.readers;

import io.tlogsim.kernel.Protocol;

/**
 * Events between a database restarting after a crash and its recovery manager: RECOVER, then the pieces of each
 * phase (every VLF's header; the log analysis reads; the log redo replays; the log undo rolls back), then END; the
 * manager answers DONE when the database is recovered.
 */
public final class RecoveryProtocol {
  private RecoveryProtocol() {}

  /** The manager's input port for requests (its device's completions come on 1). */
  public static final int REQUESTS_PORT = 0;
  public static final int DEVICE_PORT = 1;
  /** The database's input port for the manager's replies. */
  public static final int REPLIES_PORT = 2;

  /** Recover: a = transactions to roll forward, b = to roll back. */
  public static final int RECOVER = 70;
  /** A piece of a phase (payload as {@link BackupProtocol#PIECE}); the kind names the phase. */
  public static final int HEADERS = 71;
  public static final int ANALYSIS = 72;
  public static final int REDO = 73;
  public static final int UNDO = 74;
  public static final int END = 75;
  /** Recovered: a = when recovery ended (ns). */
  public static final int DONE = 76;

  public static final Protocol REQUESTS = Protocol.of("recovery requests", RECOVER, "recover", HEADERS, "headers",
      ANALYSIS, "analysis", REDO, "redo", UNDO, "undo", END, "end");
  public static final Protocol REPLIES = Protocol.of("recovery replies", DONE, "done");
}
