package io.tlogsim.database.readers;

import io.tlogsim.kernel.Protocol;

/**
 * Events between a restarting database's log manager and its recovery manager (REFERENCE.md 3): RECOVER carries the
 * {@link RecoveryPlan}; during undo the manager sends the compensation records it writes (COMPENSATE), the end of each
 * rolled-back transaction (UNDONE) and, at the end, asks for them to be hardened (HARDEN, answered HARDENED); DONE
 * when recovery is complete (the log manager then takes the checkpoint that ends it).
 */
public final class RecoveryProtocol {
  private RecoveryProtocol() {}

  /** The manager's input port for requests (its devices' completions come on 1). */
  public static final int REQUESTS_PORT = 0;
  public static final int DEVICE_PORT = 1;
  /** The database's input port for the manager's replies. */
  public static final int REPLIES_PORT = 2;

  /** Recover: the payload is the {@link RecoveryPlan}. (71 to 75 were the former protocol's pieces: not reused.) */
  public static final int RECOVER = 70;
  /** Recovered: a = when recovery ended (ns), b = the plan's purpose (RecoveryPlan.CRASH, RESTORE, ROLLBACK). */
  public static final int DONE = 76;
  /**
   * Compensation records undo writes: a = the session whose transaction it rolls back (| {@link #OF_ROLLBACK} from a
   * rollback after 9002), b = bytes each, c = the first row they change (-1: none), d = how many (rows c .. c+d-1).
   */
  public static final int COMPENSATE = 77;
  /** In COMPENSATE's a: sent by a rollback after 9002 (one that a crash ended is told apart from recovery's own). */
  public static final long OF_ROLLBACK = 1L << 32;
  /**
   * The session's transaction is rolled back: a = session (its end record is logged, its reservation released), b = 1
   * from a rollback after 9002, 0 from recovery.
   */
  public static final int UNDONE = 78;
  /** Harden everything logged so far; answered with HARDENED. */
  public static final int HARDEN = 79;
  public static final int HARDENED = 80;

  public static final Protocol REQUESTS = Protocol.of("recovery requests", RECOVER, "recover", HARDENED,
      "hardened");
  public static final Protocol REPLIES = Protocol.of("recovery replies", DONE, "done", COMPENSATE, "compensate",
      UNDONE, "undone", HARDEN, "harden");
}
