package io.tlogsim.database.logspace;

import java.util.List;

/**
 * Where the log's bytes live, as the log manager sees it (REFERENCE.md 1). The log manager numbers the bytes it writes
 * from 0 (log offsets, whole pages, in the order it writes them); a log space places each write on files and devices
 * (split where it crosses a file or VLF boundary: {@link LogLayout#append} does exactly that) and may make the log
 * wait before it uses more space (growth with zero-fill, or a full log until truncation). The commit path runs on
 * {@link LinearLogSpace}; {@link ManagedLogSpace} is SQL Server's log (VLFs, growth, truncation, 9002).
 *
 * <p>Calls come in log order: {@link #reserve} before a block may use space, {@link #place} once per write, in
 * offset order. A log space that zeroes (growth) asks its {@link Host} to send the requests and is told when each
 * completes; when space it refused becomes available it calls {@link Host#spaceReady()}.
 *
 * <p>A space that {@link #tracksTransactions()} is also told of every transaction (its begin LSN, the bytes it logs,
 * its end) and of every checkpoint: what MinLSN, log reservation and truncation need. The others are not called for
 * them, so a plain log (GCM-1) pays nothing.
 */
public interface LogSpace {

  /** One piece of a write: {@code bytes} at {@code deviceOffset} of device {@code device}, in file {@code fileId}. */
  record Segment(int device, long deviceOffset, int fileId, long bytes) {}

  /**
   * A piece of the log a reader reads (REFERENCE.md 3): {@code bytes} at {@code deviceOffset} of device {@code device},
   * in file {@code fileId}, within the VLF whose header lies at {@code headerOffset} (one piece per VLF: its header
   * is read first).
   */
  record ReadPiece(int device, int fileId, long headerOffset, long deviceOffset, long bytes) {}

  /** A log file as statistics name it. */
  record LogFile(int fileId, String name, int device) {}

  /** Backups and restores, numbered as the backup agent's protocol numbers them. */
  int BACKUP_LOG = 0, BACKUP_FULL = 1, BACKUP_DIFFERENTIAL = 2, RESTORE_DATABASE = 3, RESTORE_LOG = 4;

  /**
   * A file a restore creates: {@code bytes} at {@code offset} of device {@code device}, zeroed (a log file always, a
   * data file unless instant file initialization); {@code position} 0: before anything is copied, else when the
   * replay has copied that many bytes (RESTORE LOG reaching an ADD FILE or a growth).
   */
  record FileZero(int device, int fileId, long offset, long bytes, long position) {}

  /** What a restore copies from the backup device ({@code sourceOffset}) to {@code offset} of a database device. */
  record Copy(long sourceOffset, long bytes, int device, int fileId, long offset) {}

  /**
   * A restore's work (REFERENCE.md 1): the files it creates, what it copies, and the data pages a RESTORE LOG redoes
   * ({@code pages} contiguous pages from {@code pagesOffset} of device {@code pagesDevice}; 0: none).
   */
  record RestorePlan(int type, List<FileZero> zeros, List<Copy> copies, int pagesDevice, int pagesFileId,
      long pagesOffset, long pages) {}

  /** What a log space may ask of its log manager. */
  interface Host {
    long now();

    /** Writes zeros over a range (growth): the completion comes back through {@link LogSpace#onZeroDone}. */
    void zero(int device, long deviceOffset, long bytes, int fileId, long tag);

    /** Space that {@link #reserve} refused is now available: appends go on. */
    void spaceReady();

    /** Records a fact for the journal (log growth, 9002, space samples). */
    default void record(Object fact) {}

    /** The log is hardened up to here (log offsets): what a log backup may read. */
    long hardenedLsn();

    /** Where the next record goes (the end of what was logged, hardened or not). */
    default long appendLsn() {
      return 0;
    }

    /** A session's administrative step ({@link #admin}) that had to wait for the device is done. */
    default void adminDone(int session) {}

    /**
     * BACKUP LOG: has the log's {@code pieces} read and written to the backup device; the space is told when the
     * backup set is written ({@link LogSpace#onLogBackupDone}).
     */
    default void backupLog(List<ReadPiece> pieces) {
      throw new UnsupportedOperationException("this log manager has no backup agent");
    }

    /**
     * A backup of {@code type} ({@link #BACKUP_LOG}, {@link #BACKUP_FULL}, {@link #BACKUP_DIFFERENTIAL}): has its
     * {@code pieces} read and written to the backup device, then {@code historyRows} msdb.backupfile rows written; the
     * space is told when the command returns ({@link LogSpace#onLogBackupDone}).
     */
    default void backup(int type, List<ReadPiece> pieces, long historyRows) {
      backupLog(pieces);
    }

    /** A restore: the backup agent carries the plan out; the space is told when it is done (onLogBackupDone). */
    default void restore(RestorePlan plan) {
      throw new UnsupportedOperationException("this log manager has no backup agent");
    }

    /**
     * A restore WITH RECOVERY has replayed the log up to {@code endLsn}: the database starts and recovers that log as
     * after a crash (REFERENCE.md 3), analysis from the checkpoint record {@code analysisFromLsn} the backup holds, the
     * undo of every transaction open at {@code endLsn}; then {@code session}'s step is done ({@link #adminDone}).
     * Without a recovery manager it is done at once.
     */
    default void recoverRestored(int session, long endLsn, long analysisFromLsn) {
      adminDone(session);
    }

    /** The data file's device (the index the log manager uses; -1: no data file). */
    default int dataDevice() {
      return -1;
    }

    /** Where the data file starts on its device. */
    default long dataBaseOffset() {
      return 0;
    }

    /** The data file's size now (what a full backup lists). */
    default long dataFileBytes() {
      return 0;
    }

    /** What the data file's pages take now (what a full backup reads). */
    default long dataUsedBytes() {
      return 0;
    }

    /**
     * The data pages a record logged in [fromLsn, toLsn) changed, as {first page's device offset, count} of a
     * contiguous range (what a RESTORE LOG of that range redoes); {0, 0} when none or no data file.
     */
    default long[] dataPagesChanged(long fromLsn, long toLsn) {
      return new long[] {0, 0};
    }
  }

  /**
   * Where the write of {@code bytes} at {@code logOffset} lands: one segment, or several where it crosses a file or
   * VLF boundary (the log manager sends one request per segment; the write is hardened when all complete).
   */
  List<Segment> place(long logOffset, long bytes);

  /**
   * The log is about to use bytes up to {@code logEnd}: true if it may now; false if appends must wait until the space
   * calls {@link Host#spaceReady()} (while it grows and zeroes, or until the log is truncated), or, when {@link #full()}
   * says so, the request that asked must fail (error 9002).
   */
  boolean reserve(Host host, long logEnd);

  /**
   * {@link #reserve(Host, long)} for a block that a rollback's own write opens (a compensation record or the end record
   * of {@code session}'s rollback, after a 9002 or in recovery's undo): what that transaction holds in reservation
   * covers it (REFERENCE.md 1: the reservation is what makes the rollback possible in a full log). Only its own
   * reservation: another transaction's is not this rollback's to use.
   */
  default boolean reserve(Host host, long logEnd, int rollbackSession) {
    return reserve(host, logEnd);
  }

  /** The log backup it asked its host for ({@link Host#backupLog}) is written. */
  default void onLogBackupDone(Host host) {}

  /** A zero-fill the space asked for completed. */
  default void onZeroDone(Host host, long tag) {}

  /**
   * Log bytes below {@code logOffset} are no longer needed by a log backup (FULL recovery model: the hook a backup agent
   * calls through the log manager, see {@link ManagedLogSpace#truncateUpTo}).
   */
  default void release(long logOffset) {}

  /** The log's files, for per-file statistics. */
  List<LogFile> files();

  Object snapshot();

  void restore(Object snapshot);

  // ---- transactions and checkpoints (only for a space that tracks them) ----

  default boolean tracksTransactions() {
    return false;
  }

  /** Session {@code session} began a transaction whose first record is at {@code lsn}. */
  default void begin(int session, long lsn) {}

  /**
   * {@link #begin(int, long)}, and the transaction reserves {@code endBytes} from its first record: what its rollback
   * writes besides its compensation records (its end record, the padding of its last log block), so that even a
   * transaction that has logged no change can be rolled back in a full log (REFERENCE.md 1).
   */
  default void begin(int session, long lsn, long endBytes) {
    begin(session, lsn);
  }

  /**
   * What {@code session}'s transaction still holds in reservation for its rollback: the most a block its rollback
   * opens may take of the log (the log manager sizes such a block to it when the log has no other room).
   */
  default long rollbackReserved(int session) {
    return 0;
  }

  /**
   * A block of {@code session}'s rollback was closed with {@code bytes} of padding (the rest of its last page): log
   * its reservation pays for, as it pays for the compensation records.
   */
  default void padded(int session, long bytes) {}

  /**
   * The session's transaction logged {@code bytes} more, records whose undo would log {@code undoBytes}; compensation
   * records use up its rollback reservation.
   */
  default void logged(int session, long bytes, boolean compensation, long undoBytes) {}

  /**
   * The session's transaction changed rows {@code firstRow .. firstRow+count-1} (-1: records of no row), each undone by
   * a compensation record of {@code clrBytes} (what recovery's undo writes).
   */
  default void changed(int session, long firstRow, long count, int clrBytes) {}

  /** The session's transaction ended (committed or rolled back): its reservation is released. */
  default void end(int session) {}

  /** A checkpoint whose record is at {@code lsn} completed (SIMPLE recovery model: the log is truncated). */
  default void onCheckpoint(Host host, long lsn) {}

  /** True once when the space wants an automatic checkpoint (SIMPLE at 70% full). */
  default boolean takeCheckpointRequest() {
    return false;
  }

  /** After {@link #reserve} refused: true if the log is full (9002) rather than waiting for a growth. */
  default boolean full() {
    return false;
  }

  /** Session {@code session}'s transaction fails with 9002 (counted, its message kept). */
  default void failed(Host host, int session) {}

  /**
   * The same 9002, but the transaction is rolled back as SQL Server does it, by the recovery manager's undo: it keeps
   * its reservation, which its compensation records use, until {@link #rolledBack}.
   */
  default void failing(Host host, int session) {
    failed(host, session);
  }

  /**
   * {@code count} compensation records of {@code session}'s rollback are appended, ending at {@code lsnAfter} (before
   * {@link #logged} reports their bytes): a crash that keeps them in the log leaves less for recovery's undo.
   */
  default void compensated(int session, long count, long lsnAfter) {}

  /** Recovery rolled the session's transaction back: its end record is logged, its reservation released. */
  default void rolledBack(int session) {
    end(session);
  }

  /** True if step {@code step} of the script is a crash (SHUTDOWN WITH NOWAIT), which the log manager carries out. */
  default boolean isCrashStep(int step) {
    return false;
  }

  /** What the space reports at the end of a run (null: nothing beyond the files' statistics). */
  default Object report() {
    return null;
  }

  /**
   * How long a log administration statement (or a statement failing with 9002) takes to answer, besides the reply's
   * delay; the log manager promises its sessions no reply sooner than that after a request.
   */
  default long statementNanos() {
    return 0;
  }

  /** How often the log manager records {@link #sampleFact()} while sessions are open (0: never). */
  default long sampleIntervalNanos() {
    return 0;
  }

  /** A fact for the time series of log size, space used and VLF count. */
  default Object sampleFact() {
    return null;
  }

  /**
   * Carries out step {@code step} of the script (grow, add or remove a log file, shrink, DBCC SQLPERF) for a session;
   * true when done now, false when the space calls {@link Host#adminDone} later (after zeroing).
   */
  default boolean admin(Host host, int session, int step) {
    throw new UnsupportedOperationException("this log has no administration steps");
  }
}
