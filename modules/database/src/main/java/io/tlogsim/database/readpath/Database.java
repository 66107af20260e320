package io.tlogsim.database.readpath;

import io.tlogsim.database.logspace.LogLayout;
import io.tlogsim.database.readers.BackupAgent;
import io.tlogsim.database.readers.BackupHistory;
import io.tlogsim.database.readers.BackupProtocol;
import io.tlogsim.database.readers.RecoveryProtocol;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One SQL Server database of the read path and the one connection that runs its script: statements that log (each
 * transaction's records and commit written at its commit, in log blocks through the log files' VLFs to the log device,
 * the commit waiting for them), checkpoints, data files added and dropped (the backup history's file list), and
 * backups handed to the backup agent. Truncation: at checkpoint (and at 70% full) in the simple recovery model, after
 * each log backup in the full model (REFERENCE.md 1, "Truncation").
 */
public final class Database implements SimComponent {
  static final int TIMER_CPU = 60;
  static final int TIMER_THINK = 61;
  static final int TIMER_CRASH = 62;
  static final int TIMER_REPLICATION = 63;
  /** Input ports: the log device's completions, the replies of the backup agent, recovery manager, log reader. */
  public static final int REPLICATION_PORT = 3;
  /** A log device request's tag: the epoch (crashes so far) << 8 | what it is. */
  static final long WRITE_TAG = 1, ZERO_TAG = 2;

  /**
   * @param full the full recovery model (else simple)
   * @param sectorBytes a commit's flush is rounded up to whole sectors
   * @param blockBytes the largest log write
   * @param dataFileBytes what BACKUP DATABASE reads of the data file
 * @param fullBackupTaken a full backup exists when the script starts: the log chain begins at the log's end
 * @param crashAtNanos a crash (power loss) at this time, whatever the script is doing (0: none)
 * @param crashRandomNanos a crash at a time drawn uniformly below this (0: none)
 * @param replicationIntervalNanos how often the replication log reader reads the new log (0: no replication)
   */
  public record Config(boolean full, int sectorBytes, int blockBytes, int maxOutstandingWrites, long cpuStatementNanos,
      long cpuRowNanos, int insertRowBytes, int updateRowBytes, int deleteRowBytes, int compensationRowBytes,
      int beginBytes, int commitBytes, int checkpointBytes, int fileAddBytes, int fileRemoveBytes, long dataFileBytes,
      int autoCheckpointPercent, boolean traceFlag3001, boolean fullBackupTaken, long crashAtNanos,
      long crashRandomNanos, long replicationIntervalNanos) implements CborSerializable {}

  /** What the database did: phases, its error log, the log's shape at the end and what was written. */
  public record Stats(long[] phaseStart, long[] phaseEnd, List<BackupAgent.Message> errorLog, long scriptEnd,
      long logWrites, long logBytes, long zeroedBytes, long growths, long fullErrors, long commits, long crashes,
      long rolledBack, int vlfs,
      long logSizeBytes, long usedBytes, long endLsn, int filesCreated, int historyEntries, long historyReplaced,
      String reuseWait) implements CborSerializable {}

  private final Config cfg;
  private final Script script;
  private final LogFiles log;
  private final BackupHistory history = new BackupHistory(BackupHistory.MAX_ENTRIES);
  private final int logLink;
  private final int agentLink;
  private final int recoveryLink;
  private final int replicationLink;
  private final long linkNanos;

  // ---- state (snapshot: State) ----
  private int step = -1;
  private long left; // rows or files left in the step
  private long txnRows; // rows (or files) of the transaction being run
  private long txnBeginLsn = -1; // where the open transaction's log begins (-1: none open)
  private long statementsLeft; // statements of a large-update's transaction still to run
  private long hardenedLsn; // every log byte before it is on the device
  private long lastCheckpointLsn; // where redo starts (the database is clean when the script starts)
  private long committedSinceCheckpoint;
  private int epoch; // a crash ends what was under way: timers and completions of an older epoch are dropped
  private boolean recovering;
  private long abandonedBackup = -1;
  private long replicatedLsn = Long.MAX_VALUE; // the log reader has read the log before it (MAX: no replication)
  private long wantedTruncation; // where truncation would go but for the log reader
  private boolean readerBusy;
  private long pendingBytes; // log bytes still to write for the transaction
  private boolean writing; // a transaction's or checkpoint's log is being written
  private int outstanding; // log write segments in flight
  private boolean zeroing;
  private boolean waitingBackup;
  private boolean stopped;
  private long backupRangeStart;
  private long lastLogBackupEnd = -1; // -1: no full backup yet (no log chain)
  private long lastLogBackupBytes;
  private int backups;
  private int filesCreated;
  private int filesLive;
  private long changedSinceFull;
  private long[] phaseStart;
  private long[] phaseEnd;
  private long scriptEnd = -1;
  private long logWrites, logBytes, zeroedBytes, fullErrors, commits, crashes, rolledBack;
  private final List<BackupAgent.Message> errorLog = new ArrayList<>();

  /** @param linkNanos the delay of the links to the log device and the agent (what every send adds) */
  public Database(Config cfg, Script script, LogFiles log, int logLink, int agentLink, int recoveryLink,
      int replicationLink, long linkNanos) {
    this.cfg = cfg;
    this.replicationLink = replicationLink;
    this.recoveryLink = recoveryLink;
    this.linkNanos = linkNanos;
    this.script = script;
    this.log = log;
    this.logLink = logLink;
    this.agentLink = agentLink;
    phaseStart = new long[script.steps().size()];
    phaseEnd = new long[script.steps().size()];
    Arrays.fill(phaseStart, -1);
    Arrays.fill(phaseEnd, -1);
    if (cfg.fullBackupTaken()) lastLogBackupEnd = log.layout().endLsn();
    hardenedLsn = log.layout().endLsn();
    lastCheckpointLsn = hardenedLsn;
    if (cfg.replicationIntervalNanos() > 0) replicatedLsn = hardenedLsn;
  }

  @Override
  public void start(Context ctx) {
    errorLog.add(new BackupAgent.Message(0, "Starting up database 'db'."));
    long crashAt = cfg.crashAtNanos() > 0 ? cfg.crashAtNanos()
        : cfg.crashRandomNanos() > 0 ? 1 + (long) (ctx.rng().nextDouble() * (cfg.crashRandomNanos() - 1)) : 0;
    if (crashAt > 0) ctx.schedule(crashAt, TIMER_CRASH, 0, 0);
    if (cfg.replicationIntervalNanos() > 0) ctx.schedule(cfg.replicationIntervalNanos(), TIMER_REPLICATION, 0, 0);
    next(ctx);
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case DeviceProtocol.DONE -> {
        if ((ev.a() >>> 8) != epoch) return; // a write under way at the crash
        if ((ev.a() & 0xff) == ZERO_TAG) {
          zeroing = false;
        } else {
          outstanding--;
          if (outstanding == 0 && !zeroing) hardenedLsn = log.layout().endLsn();
        }
        pumpLog(ctx);
      }
      case TIMER_CPU, TIMER_THINK -> {
        if (ev.a() != epoch || recovering) return;
        if (ev.kind() == TIMER_CPU) {
          logTransaction(ctx);
        } else {
          endStep(ctx);
        }
      }
      case TIMER_CRASH -> crash(ctx);
      case TIMER_REPLICATION -> replicate(ctx);
      case ReplicationLogReader.DONE -> {
        readerBusy = false;
        replicatedLsn = Math.max(replicatedLsn, ev.a());
        truncate(wantedTruncation); // what the reader held may go now
        pumpLog(ctx); // a log that waited for room may find it
      }
      case BackupProtocol.DONE -> {
        if (ev.a() == abandonedBackup) return; // the backup the crash interrupted
        backupDone(ctx, ev.b(), ev.c());
      }
      case RecoveryProtocol.DONE -> recovered(ctx);
      default -> throw new SimulationException("database: unknown event kind " + ev.kind());
    }
  }

  // ------------------------------------------------------------------------------------------------ the script

  private Step current() {
    return script.steps().get(step);
  }

  /** Starts the next step, or ends the script. */
  private void next(Context ctx) {
    step++;
    if (step >= script.steps().size()) {
      scriptEnd = ctx.now();
      return;
    }
    phaseStart[step] = ctx.now();
    Step s = current();
    switch (s.type()) {
      case INSERT, UPDATE, DELETE, ADD_DATA_FILE, REMOVE_DATA_FILE -> {
        left = s.rows();
        nextTransaction(ctx);
      }
      case LARGE_UPDATE -> {
        left = s.rows();
        statementsLeft = s.commitEvery();
        nextTransaction(ctx);
      }
      case CRASH -> crash(ctx);
      case CHECKPOINT -> {
        txnRows = 0;
        writeLog(ctx, cfg.checkpointBytes());
      }
      case THINK -> ctx.schedule(ctx.now() + VirtualTime.micros(s.thinkUs()), TIMER_THINK, epoch, 0);
      case BACKUP_LOG, BACKUP_DATABASE -> backup(ctx, s);
      case RESTORE_DATABASE, RESTORE_LOG -> restore(ctx, s);
      default -> throw new SimulationException("database: step " + s.type().word + " is not one of the read path's");
    }
  }

  private void endStep(Context ctx) {
    phaseEnd[step] = ctx.now();
    next(ctx);
  }

  /** The next transaction of a loop: its statements' CPU (and think time) first, then its log. */
  private void nextTransaction(Context ctx) {
    Step s = current();
    boolean loop = s.type().isRowLoop();
    long n = loop ? Math.min(left, s.commitEvery()) : s.type() == Step.Type.LARGE_UPDATE ? s.rows() : 1;
    txnRows = n;
    long statements = loop ? n : 1;
    long rows = s.type() == Step.Type.ADD_DATA_FILE || s.type() == Step.Type.REMOVE_DATA_FILE ? 0 : n;
    long cpu = statements * cfg.cpuStatementNanos() + rows * cfg.cpuRowNanos()
        + (loop ? statements * VirtualTime.micros(s.thinkUs()) : 0);
    ctx.schedule(ctx.now() + cpu, TIMER_CPU, epoch, 0);
  }

  /**
   * The transaction's statements ran: its records (and commit) are written, and the commit waits for them. A
   * large-update writes each statement's records when it ends, its commit after the last (unless left open).
   */
  private void logTransaction(Context ctx) {
    Step s = current();
    boolean large = s.type() == Step.Type.LARGE_UPDATE;
    long perRow = switch (s.type()) {
      case INSERT -> cfg.insertRowBytes();
      case UPDATE -> cfg.updateRowBytes();
      case DELETE -> cfg.deleteRowBytes();
      case LARGE_UPDATE -> s.rollback() ? cfg.updateRowBytes() + cfg.compensationRowBytes() : cfg.updateRowBytes();
      case ADD_DATA_FILE -> cfg.fileAddBytes();
      case REMOVE_DATA_FILE -> cfg.fileRemoveBytes();
      default -> 0;
    };
    long bytes = txnRows * perRow;
    if (s.type() != Step.Type.ADD_DATA_FILE && s.type() != Step.Type.REMOVE_DATA_FILE) changedSinceFull += bytes;
    if (txnBeginLsn < 0) {
      txnBeginLsn = log.layout().endLsn();
      bytes += cfg.beginBytes();
    }
    if (large) statementsLeft--;
    if (!large || (statementsLeft == 0 && s.mode() == Step.COMMIT)) bytes += cfg.commitBytes();
    writeLog(ctx, bytes);
  }

  /** The log of the transaction's last statement, or of its commit, or of a checkpoint is hardened. */
  private void logWritten(Context ctx) {
    Step s = current();
    if (s.type() == Step.Type.CHECKPOINT) {
      lastCheckpointLsn = log.layout().endLsn();
      committedSinceCheckpoint = 0;
      if (!cfg.full()) {
        truncate(txnBeginLsn >= 0 ? txnBeginLsn : log.layout().endLsn()); // what no open transaction needs
        history.clear();
      }
      endStep(ctx);
      return;
    }
    if (s.type() == Step.Type.LARGE_UPDATE && statementsLeft > 0) { // the next statement of the transaction
      nextTransaction(ctx);
      return;
    }
    long began = txnBeginLsn;
    boolean leftOpen = s.type() == Step.Type.LARGE_UPDATE && s.mode() == Step.LEFT_OPEN;
    if (!leftOpen) {
      txnBeginLsn = -1;
      commits++;
      committedSinceCheckpoint++;
    }
    if (s.type() == Step.Type.ADD_DATA_FILE) {
      history.fileCreated(++filesCreated + 2, began); // data file ids after the primary data (1) and log (2) files
      filesLive++;
    } else if (s.type() == Step.Type.REMOVE_DATA_FILE) {
      filesLive--;
    }
    left -= s.type() == Step.Type.LARGE_UPDATE ? left : txnRows;
    txnRows = 0;
    if (left > 0) {
      nextTransaction(ctx);
    } else {
      endStep(ctx);
    }
  }

  // ------------------------------------------------------------------------------------------------ the log

  private void writeLog(Context ctx, long bytes) {
    writing = true;
    long sectors = (bytes + cfg.sectorBytes() - 1) / cfg.sectorBytes();
    pendingBytes = sectors * cfg.sectorBytes();
    pumpLog(ctx);
  }

  /** Issues log blocks while writes may be outstanding and the log has room; growing it (zeroed first) when not. */
  private void pumpLog(Context ctx) {
    while (pendingBytes > 0 && !zeroing && !stopped && outstanding < cfg.maxOutstandingWrites()) {
      long block = Math.min(pendingBytes, cfg.blockBytes());
      if (log.layout().room(block) < block && !cfg.full()) automaticCheckpoint();
      if (log.layout().room(block) < block) {
        LogLayout.LogFile f = log.layout().fileToGrow();
        if (f == null) {
          logFull(ctx);
          return;
        }
        LogLayout.Growth g = log.grow(f);
        if (g.zeroFill()) {
          zeroing = true;
          zeroedBytes += g.bytes();
          ctx.send(logLink, ctx.now() + linkNanos, DeviceProtocol.ZERO, (long) epoch << 8 | ZERO_TAG, g.bytes(),
              LogFiles.deviceOffset(g.fileId(), g.offset()), g.fileId());
          return;
        }
        continue;
      }
      for (LogLayout.Segment seg : log.append(block)) {
        ctx.send(logLink, ctx.now() + linkNanos, DeviceProtocol.WRITE, (long) epoch << 8 | WRITE_TAG, seg.bytes(),
            LogFiles.deviceOffset(seg.fileId(), seg.offset()), seg.fileId());
        outstanding++;
      }
      logWrites++;
      logBytes += block;
      pendingBytes -= block;
    }
    if (pendingBytes == 0 && outstanding == 0 && !zeroing && !stopped && !recovering && writing) {
      writing = false;
      logWritten(ctx);
    }
  }

  /** Truncation up to {@code lsn}, held back to what the replication log reader has read (log_reuse_wait). */
  private void truncate(long lsn) {
    wantedTruncation = Math.max(wantedTruncation, lsn);
    log.truncate(Math.min(wantedTruncation, replicatedLsn));
  }

  /** The log reader's schedule: it reads what was hardened since its last pass, one pass at a time. */
  private void replicate(Context ctx) {
    if (scriptEnd < 0) ctx.schedule(ctx.now() + cfg.replicationIntervalNanos(), TIMER_REPLICATION, 0, 0);
    if (readerBusy || recovering || hardenedLsn <= replicatedLsn) return;
    long at = ctx.now() + linkNanos;
    for (LogFiles.Piece p : log.pieces(replicatedLsn, hardenedLsn)) {
      ctx.send(replicationLink, at, ReplicationLogReader.PIECE, p.headerOffset(), p.deviceOffset(), p.bytes(),
          logD(p.fileId()));
    }
    ctx.send(replicationLink, at, ReplicationLogReader.END, hardenedLsn, 0);
    readerBusy = true;
  }

  /** What holds truncation now (sys.databases.log_reuse_wait_desc). */
  private String reuseWait() {
    if (replicatedLsn < wantedTruncation) return "REPLICATION";
    if (cfg.full() && log.layout().endLsn() > Math.max(0, lastLogBackupEnd)) return "LOG_BACKUP";
    return "NOTHING";
  }

  /** Simple recovery model: a checkpoint when the log is 70% full frees what no open transaction needs. */
  private void automaticCheckpoint() {
    long used = log.layout().usedBytes();
    if (used * 100 >= (long) cfg.autoCheckpointPercent() * log.layout().totalSize()) {
      long keep = txnBeginLsn >= 0 ? txnBeginLsn : log.layout().endLsn();
      truncate(keep);
      history.clear();
    }
  }

  private void logFull(Context ctx) {
    fullErrors++;
    stopped = true;
    String reason = cfg.full() ? "LOG_BACKUP" : "ACTIVE_TRANSACTION";
    errorLog.add(new BackupAgent.Message(ctx.now(), "Error: 9002, Severity: 17, State: 2. The transaction log for"
        + " database 'db' is full due to '" + reason + "'."));
    scriptEnd = ctx.now();
  }

  // ------------------------------------------------------------------------------------------------ crash

  /**
   * SHUTDOWN WITH NOWAIT or a power loss: what was under way stops (writes in flight are lost: only the log before
   * {@link #hardenedLsn} survives), and the database restarts at once: the recovery manager reads every VLF header,
   * then analyses and redoes the log from the last checkpoint and undoes the open transaction.
   */
  private void crash(Context ctx) {
    if (recovering || scriptEnd >= 0) return; // already down, or nothing left to crash
    epoch++;
    recovering = true;
    long now = ctx.now();
    crashes++;
    errorLog.add(new BackupAgent.Message(now, "SQL Server is terminating (SHUTDOWN WITH NOWAIT or power loss): "
        + (log.layout().endLsn() - hardenedLsn) + " log bytes not yet hardened are lost."));
    if (waitingBackup) abandonedBackup = backups - 1;
    waitingBackup = false;
    pendingBytes = 0;
    outstanding = 0;
    zeroing = false;
    writing = false;
    long hard = hardenedLsn;
    long undoFrom = txnBeginLsn >= 0 && txnBeginLsn < hard ? txnBeginLsn : -1;
    long redoFrom = Math.min(lastCheckpointLsn, hard);
    long at = now + linkNanos;
    ctx.send(recoveryLink, at, RecoveryProtocol.RECOVER, committedSinceCheckpoint, undoFrom >= 0 ? 1 : 0);
    for (LogLayout.LogFile f : log.layout().files()) { // start-up: every VLF's header, in file order
      for (var v : f.vlfs()) {
        long header = LogFiles.deviceOffset(f.id(), v.offset());
        ctx.send(recoveryLink, at, RecoveryProtocol.HEADERS, header, header, 0, logD(f.id()));
      }
    }
    for (LogFiles.Piece p : log.pieces(redoFrom, hard)) {
      ctx.send(recoveryLink, at, RecoveryProtocol.ANALYSIS, p.headerOffset(), p.deviceOffset(), p.bytes(),
          logD(p.fileId()));
      ctx.send(recoveryLink, at, RecoveryProtocol.REDO, p.headerOffset(), p.deviceOffset(), p.bytes(),
          logD(p.fileId()));
    }
    if (undoFrom >= 0) {
      for (LogFiles.Piece p : log.pieces(undoFrom, hard)) {
        ctx.send(recoveryLink, at, RecoveryProtocol.UNDO, p.headerOffset(), p.deviceOffset(), p.bytes(),
            logD(p.fileId()));
      }
    }
    ctx.send(recoveryLink, at, RecoveryProtocol.END, 0, 0);
    rolledBack += undoFrom >= 0 ? 1 : 0;
    txnBeginLsn = -1;
    txnRows = 0;
  }

  /** Recovery is complete: a crash step ends; a crash that interrupted the script ends the run. */
  private void recovered(Context ctx) {
    recovering = false;
    lastCheckpointLsn = hardenedLsn; // recovery ends with a checkpoint
    committedSinceCheckpoint = 0;
    if (step < script.steps().size() && current().type() == Step.Type.CRASH) {
      endStep(ctx);
    } else {
      stopped = true;
      scriptEnd = ctx.now();
    }
  }

  // ------------------------------------------------------------------------------------------------ backups

  private void backup(Context ctx, Step s) {
    long end = log.layout().endLsn();
    int type;
    List<long[]> pieces = new ArrayList<>(); // header, offset, bytes, d
    if (s.type() == Step.Type.BACKUP_LOG) {
      if (lastLogBackupEnd < 0 || !cfg.full()) {
        errorLog.add(new BackupAgent.Message(ctx.now(), !cfg.full()
            ? "Msg 4208: The statement BACKUP LOG is not allowed while the recovery model is SIMPLE."
            : "Msg 4214: BACKUP LOG cannot be performed because there is no current database backup."));
        endStep(ctx);
        return;
      }
      type = BackupProtocol.LOG;
      backupRangeStart = lastLogBackupEnd;
      for (LogFiles.Piece p : log.pieces(backupRangeStart, end)) {
        pieces.add(new long[] {p.headerOffset(), p.deviceOffset(), p.bytes(), logD(p.fileId())});
      }
    } else {
      boolean differential = s.mode() == Step.DIFFERENTIAL;
      type = differential ? BackupProtocol.DIFFERENTIAL : BackupProtocol.FULL;
      // a full backup reads the data file; a differential the part changed since the full one (approximated by the
      // bytes its row changes logged, at most the file)
      long bytes = differential ? Math.min(cfg.dataFileBytes(), changedSinceFull) : cfg.dataFileBytes();
      if (bytes > 0) {
        pieces.add(new long[] {-1, 0, bytes, 1 | ((long) BackupAgent.DATA_DEVICE << 32)});
      }
      backupRangeStart = end;
    }
    int rows = type == BackupProtocol.LOG ? history.rows() : history.rows() + 1; // a full one lists the data file too
    waitingBackup = true;
    long at = ctx.now() + linkNanos;
    ctx.send(agentLink, at, BackupProtocol.BEGIN, backups, type, cfg.traceFlag3001() ? 0 : rows, 0);
    for (long[] p : pieces) ctx.send(agentLink, at, BackupProtocol.PIECE, p[0], p[1], p[2], p[3]);
    ctx.send(agentLink, at, BackupProtocol.END, backups, 0);
    backups++;
  }

  private static long logD(int fileId) {
    return fileId | ((long) BackupAgent.LOG_DEVICE << 32) | (BackupProtocol.HEADER_FIRST << 40);
  }

  /**
   * RESTORE DATABASE: every log file the database has is zero-initialized, then the full backup's data is copied to
   * the data file; RESTORE LOG: the last log backup is copied into the log and replayed (REFERENCE.md 1).
   */
  private void restore(Context ctx, Step s) {
    long at = ctx.now() + linkNanos;
    boolean database = s.type() == Step.Type.RESTORE_DATABASE;
    int type = database ? BackupProtocol.RESTORE_DATABASE : BackupProtocol.RESTORE_LOG;
    waitingBackup = true;
    ctx.send(agentLink, at, BackupProtocol.BEGIN, backups, type, 0, 0);
    if (database) {
      for (LogLayout.LogFile f : log.layout().files()) {
        ctx.send(agentLink, at, BackupProtocol.ZERO_FILL, LogFiles.deviceOffset(f.id(), 0), f.size(), 0,
            f.id() | ((long) BackupAgent.LOG_DEVICE << 32));
      }
      if (cfg.dataFileBytes() > 0) {
        ctx.send(agentLink, at, BackupProtocol.COPY, 0, cfg.dataFileBytes(), 0, 1 | ((long) BackupAgent.DATA_DEVICE
            << 32));
      }
    } else if (lastLogBackupBytes > 0) {
      int first = log.layout().files().get(0).id();
      ctx.send(agentLink, at, BackupProtocol.COPY, 0, lastLogBackupBytes, LogFiles.deviceOffset(first, 0),
          first | ((long) BackupAgent.LOG_DEVICE << 32));
    }
    ctx.send(agentLink, at, BackupProtocol.END, backups, 0);
    backups++;
  }

  private void backupDone(Context ctx, long pages, long dataDone) {
    waitingBackup = false;
    Step s = current();
    if (s.type() == Step.Type.RESTORE_DATABASE || s.type() == Step.Type.RESTORE_LOG) {
      boolean online = s.mode() == Step.WITH_RECOVERY;
      errorLog.add(new BackupAgent.Message(dataDone, (s.type() == Step.Type.RESTORE_DATABASE ? "Database was restored"
          : "Log was restored") + ": Database: db, pages: " + pages + (online ? ". Recovery is complete; the database"
          + " is online." : ". WITH NORECOVERY: the database is restoring.")));
      endStep(ctx);
      return;
    }
    long end = log.layout().endLsn();
    history.backupCompleted(backupRangeStart);
    if (s.type() == Step.Type.BACKUP_LOG) {
      errorLog.add(new BackupAgent.Message(dataDone, "Log was backed up. Database: db, pages dumped: " + pages + "."));
      lastLogBackupBytes = end - backupRangeStart;
      lastLogBackupEnd = end;
      truncate(end); // the full model's truncation: only a log backup frees the log
    } else {
      errorLog.add(new BackupAgent.Message(dataDone, "Database backed up. Database: db, pages dumped: " + pages + "."));
      if (s.mode() == Step.FULL) {
        changedSinceFull = 0;
        if (lastLogBackupEnd < 0) lastLogBackupEnd = backupRangeStart; // the log chain starts here
      }
    }
    endStep(ctx);
  }

  // ------------------------------------------------------------------------------------------------ kernel

  /** It answers at once: a completion, a reply or a timer may cause a send at the same instant. */
  @Override
  public long inputDelay(int port) {
    return 0;
  }

  @Override
  public Object snapshot() {
    return new State(step, left, txnRows, txnBeginLsn, statementsLeft, hardenedLsn, lastCheckpointLsn,
        committedSinceCheckpoint, epoch, recovering, abandonedBackup, pendingBytes, writing, outstanding, zeroing,
        waitingBackup, stopped, backupRangeStart, lastLogBackupEnd, backups, filesCreated, filesLive, changedSinceFull,
        phaseStart.clone(), phaseEnd.clone(), scriptEnd, new long[] {logWrites, logBytes, zeroedBytes, fullErrors,
        commits, crashes, rolledBack, lastLogBackupBytes, replicatedLsn, wantedTruncation, readerBusy ? 1 : 0},
        List.copyOf(errorLog), log.snapshot(), history.state());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    step = s.step();
    left = s.left();
    txnRows = s.txnRows();
    txnBeginLsn = s.txnBeginLsn();
    statementsLeft = s.statementsLeft();
    hardenedLsn = s.hardenedLsn();
    lastCheckpointLsn = s.lastCheckpointLsn();
    committedSinceCheckpoint = s.committedSinceCheckpoint();
    epoch = s.epoch();
    recovering = s.recovering();
    abandonedBackup = s.abandonedBackup();
    pendingBytes = s.pendingBytes();
    writing = s.writing();
    outstanding = s.outstanding();
    zeroing = s.zeroing();
    waitingBackup = s.waitingBackup();
    stopped = s.stopped();
    backupRangeStart = s.backupRangeStart();
    lastLogBackupEnd = s.lastLogBackupEnd();
    backups = s.backups();
    filesCreated = s.filesCreated();
    filesLive = s.filesLive();
    changedSinceFull = s.changedSinceFull();
    phaseStart = s.phaseStart().clone();
    phaseEnd = s.phaseEnd().clone();
    scriptEnd = s.scriptEnd();
    long[] c = s.counters();
    logWrites = c[0];
    logBytes = c[1];
    zeroedBytes = c[2];
    fullErrors = c[3];
    commits = c[4];
    crashes = c[5];
    rolledBack = c[6];
    lastLogBackupBytes = c[7];
    replicatedLsn = c[8];
    wantedTruncation = c[9];
    readerBusy = c[10] != 0;
    errorLog.clear();
    errorLog.addAll(s.errorLog());
    log.restore(s.logOps());
    history.restore(s.history());
  }

  public record State(int step, long left, long txnRows, long txnBeginLsn, long statementsLeft, long hardenedLsn,
      long lastCheckpointLsn, long committedSinceCheckpoint, int epoch, boolean recovering, long abandonedBackup,
      long pendingBytes, boolean writing, int outstanding, boolean zeroing, boolean waitingBackup, boolean stopped,
      long backupRangeStart, long lastLogBackupEnd, int backups, int filesCreated, int filesLive,
      long changedSinceFull, long[] phaseStart, long[] phaseEnd, long scriptEnd, long[] counters,
      List<BackupAgent.Message> errorLog, long[] logOps, BackupHistory.State history) implements CborSerializable {}

  @Override
  public Object results() {
    LogLayout l = log.layout();
    return new Stats(phaseStart.clone(), phaseEnd.clone(), List.copyOf(errorLog), scriptEnd, logWrites, logBytes,
        zeroedBytes, l.growths(), fullErrors, commits, crashes, rolledBack, l.vlfCount(), l.totalSize(), l.usedBytes(),
        l.endLsn(), filesCreated, history.entries(), history.replaced(), reuseWait());
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
