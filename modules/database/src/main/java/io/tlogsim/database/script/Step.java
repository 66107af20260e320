package io.tlogsim.database.script;

import java.util.Map;

/**
 * One step of a session's script (see {@link Script} for the keys each kind of step takes).
 *
 * @param type what the step does
 * @param name the step's phase name in summary.json (its type unless the script names it)
 * @param rows rows the step touches (statements of one row each, or one large statement); data files an
 *     add-data-file or remove-data-file step adds or drops
 * @param seconds how long the step runs instead (0: until its rows are done)
 * @param commitEvery statements per transaction in a loop of statements; a large-update's statements (one
 *     transaction)
 * @param thinkUs the session's think time (or client round trip) before each statement, or the think step's length
 * @param thinkExponential think times are exponential with mean {@code thinkUs} rather than fixed
 * @param random rows are picked at random rather than walked in order
 * @param mode the session mode a set-log or delayed-durability step sets (a {@code SessionMode});
 *     a backup-database step's type ({@link #FULL} or {@link #DIFFERENTIAL}); a large-update's end ({@link #COMMIT} or
 *     {@link #LEFT_OPEN}); a restore's {@link #WITH_RECOVERY} or {@link #NORECOVERY}
 * @param rollback a large update is rolled back instead of committed
 * @param given the keys and values as the script gave them (shown in summary.json; log administration steps are
 *     carried out from them)
 * @param recordBytes bytes each row's log record takes in this step (0: the kind's row-size model)
 * @param compensationBytes bytes of the compensation record that would undo each row's record (0: the kind's model)
 * @param splitBytes bytes per row logged besides by system transactions (page splits as rows grow): no rollback
 *     reservation, as those commit on their own
 */
public record Step(Type type, String name, long rows, double seconds, int commitEvery, double thinkUs,
    boolean thinkExponential, boolean random, int mode, boolean rollback, Map<String, Object> given,
    int recordBytes, int compensationBytes, int splitBytes) {

  public Step(Type type, String name, long rows, double seconds, int commitEvery, double thinkUs,
      boolean thinkExponential, boolean random, int mode, boolean rollback, Map<String, Object> given) {
    this(type, name, rows, seconds, commitEvery, thinkUs, thinkExponential, random, mode, rollback, given, 0, 0, 0);
  }

  /** Bytes each row of a large update or insert takes more in the data file (0: none; the script's growBytes). */
  public int growBytes() {
    return given.get("growBytes") instanceof Number n ? n.intValue() : 0;
  }

  /** A backup-database step's {@code mode}: BACKUP DATABASE (full) or WITH DIFFERENTIAL. */
  public static final int FULL = 0;
  public static final int DIFFERENTIAL = 1;
  /** A large-update's {@code mode}: its transaction commits, or is left open (the read path's crash then undoes it). */
  public static final int COMMIT = 0;
  public static final int LEFT_OPEN = 1;
  /** A restore's {@code mode}: WITH RECOVERY (the database comes online) or WITH NORECOVERY (more to restore). */
  public static final int WITH_RECOVERY = 0;
  public static final int NORECOVERY = 1;

  public enum Type {
    COMMIT_LOOP("commit-loop"), INSERT("insert"), UPDATE("update"), DELETE("delete"), LARGE_UPDATE("large-update"),
    THINK("think"), SET_LOG("set-log"), DELAYED_DURABILITY("delayed-durability"), CHECKPOINT("checkpoint"),
    FLUSH_LOG("flush-log"), LARGE_INSERT("large-insert"), GROW_LOG("grow-log"), ADD_LOG_FILE("add-log-file"),
    REMOVE_FILE("remove-file"), SHRINK_FILE("shrink-file"), SQLPERF("sqlperf"),
    // the read path's steps (kind read-path): a DBA's commands between the workload's statements
    ADD_DATA_FILE("add-data-file"), REMOVE_DATA_FILE("remove-data-file"), BACKUP_DATABASE("backup-database"),
    BACKUP_LOG("backup-log"), CRASH("crash"), RESTORE_DATABASE("restore-database"), RESTORE_LOG("restore-log");

    public final String word;

    Type(String word) {
      this.word = word;
    }

    public static Type of(String word) {
      for (Type t : values()) if (t.word.equals(word)) return t;
      return null;
    }

    /** A loop of single-row statements. */
    public boolean isRowLoop() {
      return this == INSERT || this == UPDATE || this == DELETE;
    }

    /** A DBA's command of the read path, not a session's statement. */
    public boolean isReadPath() {
      return this == ADD_DATA_FILE || this == REMOVE_DATA_FILE || this == BACKUP_DATABASE || this == BACKUP_LOG
          || this == CRASH || this == RESTORE_DATABASE || this == RESTORE_LOG;
    }

    /** One statement of many rows in its own transaction. */
    public boolean isLarge() {
      return this == LARGE_UPDATE || this == LARGE_INSERT;
    }

    /**
     * A step the log space carries out (ALTER DATABASE ... MODIFY FILE / ADD LOG FILE / REMOVE FILE, DBCC SHRINKFILE,
     * DBCC SQLPERF(LOGSPACE)): only the log-space kind has them.
     */
    public boolean isLogAdmin() {
      return this == GROW_LOG || this == ADD_LOG_FILE || this == REMOVE_FILE || this == SHRINK_FILE || this == SQLPERF;
    }
  }
}
