package io.tlogsim.database.log;

import io.tlogsim.kernel.Protocol;

/**
 * Events between sessions and the log manager of their database (payload fields of a kernel event).
 *
 * <p>Sessions send their log records as they produce them and do not wait for them; they wait only for what they
 * asked to wait for: a durable commit's acknowledgement, a flush of the log, a checkpoint. A commit that does not wait
 * for its flush (delayed durability, buffered log, synchronous_commit off, innodb_flush_log_at_trx_commit 0 or 2,
 * COMMIT_WAIT NOWAIT: {@link io.tlogsim.database.log.policy.FlushPolicy#waits}) still waits for its commit record to
 * be appended to the log buffer, where the log reserves its space (REFERENCE.md 1, 2): the log manager answers it
 * {@link #APPENDED} then, or {@link #FAILED} if the log is full (9002).
 */
public final class LogProtocol {
  private LogProtocol() {}

  /** Log manager input port for everything sessions send. */
  public static final int SESSIONS_PORT = 0;
  /** Log manager input port for completions of its devices (log and data). */
  public static final int DEVICE_PORT = 1;
  /** Log manager input port for its backup agent's replies (BACKUP LOG, log-space kind). */
  public static final int BACKUP_PORT = 2;
  /** Log manager input port for its recovery manager's reply (a crash on the log-space kind). */
  public static final int RECOVERY_PORT = 3;
  /** Log manager input port for its replication log reader's reply. */
  public static final int REPLICATION_PORT = 4;
  /** Session pool input port for replies of the log manager. */
  public static final int REPLIES_PORT = 0;

  /**
   * Log records of one statement: a = session | flags << 32 ({@link #FLAG_BEGIN}: the first records of a
   * transaction), b = bytes per record, c = first row touched (-1: none), d = number of records (rows c, c+1, ...).
   */
  public static final int RECORDS = 10;
  /**
   * A commit record: a = session | flags << 32 ({@link #FLAG_BEGIN}: the commit is the transaction's first record;
   * {@link #FLAG_WAITS}: the session waits for it to harden), b = record bytes. (Nothing in c and d: an event that
   * uses them costs two more columns in its batch, and commits are the hot path.) Answered {@link #ACK} when hardened
   * (a commit that waits), {@link #APPENDED} when appended (one that does not), {@link #FAILED} on 9002.
   */
  public static final int COMMIT = 11;
  /** Harden everything logged so far and reply {@link #FLUSHED} (sys.sp_flush_log): a = session. */
  public static final int FLUSH = 12;
  /** Take a checkpoint and reply {@link #CHECKPOINTED}: a = session. */
  public static final int CHECKPOINT = 13;
  /** The session closed its connection (Informix flushes a buffered log then): a = session. */
  public static final int CLOSE = 14;

  /**
   * A log administration step of the session's script (grow, add or remove a log file, shrink, DBCC SQLPERF): a =
   * session, b = the step's index; answered with {@link #ADMIN_DONE}.
   */
  public static final int ADMIN = 15;
  /**
   * A log backup read the log up to a = LSN (the read path's backup agent): in the FULL recovery model the log may be
   * truncated up to it ({@link io.tlogsim.database.logspace.ManagedLogSpace#truncateUpTo}).
   */
  public static final int LOG_BACKUP = 16;
  /**
   * The session's rows take b = bytes more in the data file (a = session; c = rows, the next in key order, each d bytes
   * longer): their pages may split and the file grow, and without instant file initialization every request waits
   * while the growth is zeroed ({@link io.tlogsim.database.data.DataFileGrowth}).
   */
  public static final int DATA_GROW = 17;

  /**
   * The end (abort) record of a transaction recovery rolled back: a = session (the log manager's own request, from its
   * recovery manager's UNDONE; never sent by a session).
   */
  public static final int ABORT = 18;

  /** A commit is hardened: a = session. */
  public static final int ACK = 20;
  /**
   * The unit of the pages an ACK's details count: host costs charge the write system call's CPU per 8 kB written
   * (hostWriteCpuUs, calibrate-host's walWriteCpu writes 8 kB: docs/commit-path-host-costs.md 3), whatever the
   * engine's log page size.
   */
  public static final int HOST_WRITE_UNIT_BYTES = 8192;

  /**
   * An ACK's b when the run charges host costs: this commit's place among the {@code of} commits one completion
   * acknowledges (0 first, LSN order), and the {@link #HOST_WRITE_UNIT_BYTES} units the completion's writes carried
   * (a count too large for its bits is capped).
   */
  public static long ackDetails(int place, int of, long pages) {
    return 1L << 62 | Math.min(place, 0xFFFFF) | (long) Math.min(of, 0xFFFFF) << 20 | Math.min(pages, 0x3FFFFFL) << 40;
  }

  public static int ackPlace(long b) {
    return (int) (b & 0xFFFFF);
  }

  public static int ackOf(long b) {
    return (int) (b >>> 20 & 0xFFFFF);
  }

  public static long ackPages(long b) {
    return b >>> 40 & 0x3FFFFFL;
  }
  /** The log a session asked to flush is hardened: a = session. */
  public static final int FLUSHED = 21;
  /** A checkpoint a session asked for is complete: a = session. */
  public static final int CHECKPOINTED = 22;

  /** A log administration step is done: a = session. */
  public static final int ADMIN_DONE = 23;
  /** The session's transaction failed (error 9002, the log is full) and was rolled back: a = session. */
  public static final int FAILED = 24;
  /**
   * A commit that does not wait for its flush (no {@link #FLAG_WAITS}) is in the log buffer: its commit record is
   * appended, not hardened; the commit returns (REFERENCE.md 2, delayed durability): a = session.
   */
  public static final int APPENDED = 25;
  /**
   * A statement's records are appended (its last {@link #RECORDS}, with {@link #FLAG_REPLY}): the statement returns,
   * as a client's statement does once its log records are in the log buffer: a = session.
   */
  public static final int LOGGED = 26;

  /** In {@link #RECORDS}' a: the records begin a transaction (a begin record is logged first where the engine has one). */
  public static final long FLAG_BEGIN = 1;
  /** In {@link #RECORDS}' a: compensation records of a rollback. */
  public static final long FLAG_COMPENSATION = 2;
  /** In {@link #COMMIT}'s a: the session waits for the commit to harden. */
  public static final long FLAG_WAITS = 4;
  /**
   * In {@link #RECORDS}' a: the statement's last records: its session waits until they are appended (answered
   * {@link #LOGGED}, or {@link #FAILED} on 9002: the statement fails and its transaction is rolled back).
   */
  public static final long FLAG_REPLY = 8;

  public static final Protocol REQUESTS = Protocol.of("log requests", RECORDS, "records", COMMIT, "commit",
      FLUSH, "flush", CHECKPOINT, "checkpoint", CLOSE, "close", ADMIN, "admin", LOG_BACKUP, "log-backup", DATA_GROW,
      "data-grow");
  public static final Protocol REPLIES = Protocol.of("log replies", ACK, "ack", FLUSHED, "flushed",
      CHECKPOINTED, "checkpointed", ADMIN_DONE, "admin-done", FAILED, "failed", APPENDED, "appended", LOGGED,
      "logged");

  /** The session of a {@link #RECORDS} or {@link #COMMIT} event's a. */
  public static int session(long a) {
    return (int) a;
  }

  /** The flags of a {@link #RECORDS} or {@link #COMMIT} event's a. */
  public static long flags(long a) {
    return (a >>> 32) & 0xff;
  }

  /**
   * The size of the compensation record that would undo each of a {@link #RECORDS} event's records (what a log that
   * reserves space for rollback reserves; 0: none, e.g. page splits logged in system transactions).
   */
  public static long compensationBytes(long a) {
    return a >>> 40;
  }

  public static long recordsA(int session, long flags) {
    return (session & 0xffff_ffffL) | (flags << 32);
  }

  /** {@link #recordsA(int, long)} with each record's compensation size (at most 16 MB). */
  public static long recordsA(int session, long flags, long compensationBytes) {
    if (compensationBytes < 0 || compensationBytes >= 1 << 24) {
      throw new IllegalArgumentException("a compensation record of " + compensationBytes + " B");
    }
    return recordsA(session, flags) | compensationBytes << 40;
  }
}
