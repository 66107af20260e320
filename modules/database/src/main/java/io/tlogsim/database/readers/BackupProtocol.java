package io.tlogsim.database.readers;

import io.tlogsim.kernel.Protocol;

/**
 * Events between a database and its backup agent. A backup is asked for as BEGIN, then one PIECE per part of a VLF
 * (or of a data file) to read, in reading order, then END; the agent answers DONE when the backup set is written and,
 * unless trace flag 3001 is on, its msdb history rows too.
 */
public final class BackupProtocol {
  private BackupProtocol() {}

  /** The agent's input port for requests (its devices' completions come on 1). */
  public static final int REQUESTS_PORT = 0;
  public static final int DEVICE_PORT = 1;
  /** The database's input port for the agent's replies (its devices' completions come on 0). */
  public static final int REPLIES_PORT = 1;

  /** a = backup number, b = {@link #LOG} | {@link #FULL} | {@link #DIFFERENTIAL}, c = msdb.backupfile rows to write. */
  public static final int BEGIN = 40;
  /**
   * What to read: a = where the VLF's header lies (device offset; -1: no header, a data file), b = device offset of the
   * piece, c = bytes, d = file id | device << 32 ({@link BackupAgent#LOG_DEVICE}, {@link BackupAgent#DATA_DEVICE}) |
   * {@link #HEADER_FIRST} << 40.
   */
  public static final int PIECE = 41;
  /** The pieces are complete: a = backup number. */
  public static final int END = 42;
  /** The backup is done: a = backup number, b = pages, c = when its data was written (ns), d = history ns. */
  public static final int DONE = 43;

  /** In a PIECE's d: the piece begins a VLF (or a file): its header is read first, after the reads before it. */
  public static final long HEADER_FIRST = 1;

  /**
   * A restore's work: ZERO_FILL (a = device offset, b = bytes, d = file id | device << 32): zero-initialize a log file
   * before anything is copied; COPY (a = offset on the backup device, b = bytes, c = destination offset, d = file id |
   * device << 32): copy from the backup device.
   */
  public static final int ZERO_FILL = 44;
  public static final int COPY = 45;

  public static final int LOG = 0;
  public static final int FULL = 1;
  public static final int DIFFERENTIAL = 2;
  public static final int RESTORE_DATABASE = 3;
  public static final int RESTORE_LOG = 4;

  public static final Protocol REQUESTS = Protocol.of("backup requests", BEGIN, "begin", PIECE, "piece", END, "end",
      ZERO_FILL, "zero-fill", COPY, "copy");
  public static final Protocol REPLIES = Protocol.of("backup replies", DONE, "done");

  /** BACKUP LOG, BACKUP DATABASE, ... as the completion message names it. */
  public static String command(int type) {
    return switch (type) {
      case LOG -> "BACKUP LOG";
      case FULL -> "BACKUP DATABASE";
      case DIFFERENTIAL -> "BACKUP DATABASE WITH DIFFERENTIAL";
      case RESTORE_DATABASE -> "RESTORE DATABASE";
      case RESTORE_LOG -> "RESTORE LOG";
      default -> throw new IllegalArgumentException("backup type " + type);
    };
  }

  public static String typeName(int type) {
    return switch (type) {
      case LOG -> "log";
      case FULL -> "full";
      case DIFFERENTIAL -> "differential";
      case RESTORE_DATABASE -> "restore-database";
      case RESTORE_LOG -> "restore-log";
      default -> throw new IllegalArgumentException("backup type " + type);
    };
  }
}
