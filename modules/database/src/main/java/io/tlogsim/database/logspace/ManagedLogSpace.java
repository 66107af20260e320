package io.tlogsim.database.logspace;

import io.tlogsim.database.script.Step;
import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SQL Server's log space (REFERENCE.md 1) behind the log manager: a {@link LogLayout} of log files and VLFs, each file
 * on its device; growth by the files' increments with zero-initialization on the device while the log waits (wait
 * type PREEMPTIVE_OS_WRITEFILEGATHER; SQL Server 2022 and Azure skip it for growths of at most 64 MB); MinLSN and
 * truncation (SIMPLE: at checkpoint, with an automatic checkpoint at 70% full; FULL: only up to what a log backup
 * read, through {@link #truncateUpTo}); log reservation for rollback; log_reuse_wait; error 9002 when the log can
 * neither be reused nor grown; ADD LOG FILE, REMOVE FILE, DBCC SHRINKFILE and DBCC SQLPERF(LOGSPACE) as script steps.
 *
 * <p>Log offsets are LSNs here: the log-space kind writes pages without headers and starts every flush on a new page,
 * so the log manager's record bytes and its log offsets are the same numbers.
 *
 * <p><b>Hook for log backups (the read path).</b> A backup agent reads the active log from {@link #activeStartLsn()}
 * to the hardened end (VLF boundaries: {@link #logInfo()}), then tells the log manager (event
 * {@code LogProtocol.LOG_BACKUP}, a = the LSN it read up to), which calls {@link #release}: in FULL the log is then
 * truncated up to min(that LSN, the last checkpoint, the oldest open transaction, a replication reader).
 */
public final class ManagedLogSpace implements LogSpace {
  public enum RecoveryModel { SIMPLE, FULL }

  /** log_reuse_wait_desc values. */
  public static final String NOTHING = "NOTHING", CHECKPOINT = "CHECKPOINT", LOG_BACKUP = "LOG_BACKUP",
      ACTIVE_TRANSACTION = "ACTIVE_TRANSACTION", REPLICATION = "REPLICATION";

  /** Messages kept for the report (the first ones; the rest are counted). */
  public static final int MAX_MESSAGES = 40;

  /** Where the files of one device start: a file's base offset is stride x the files already on its device. */
  public static final long FILE_STRIDE = 64L << 30;

  /**
   * @param database the database's name in messages
   * @param devices the log devices' names, by the device index the log manager uses (the data device may be among
   *     them: only those named by files matter)
   * @param reservationFactor rollback reservation: bytes reserved per byte of the compensation records that would
   *     undo what a transaction logged (REFERENCE.md 1)
   * @param autoCheckpointPercent SIMPLE: an automatic checkpoint when this much of the log is used (0: none, TF 3505)
   * @param replicationReader a replication log reader that has read nothing yet holds the log (REPLICATION)
   * @param sessions sessions of the database (transactions are tracked per session)
   * @param steps the script's steps (administration steps are carried out here)
   * @param statementNanos how long an administration statement, or a statement that fails with 9002, takes
   * @param sampleNanos how often the time series of log size, space used and VLF count is sampled (0: never)
   */
  public record Config(String database, VlfRule rule, List<LogFileSpec> files, List<String> devices,
      RecoveryModel recoveryModel, double reservationFactor, double autoCheckpointPercent, boolean replicationReader,
      int sessions, List<Step> steps, long firstFseqNo, long sampleNanos, long statementNanos) {}

  private final Config cfg;
  private LogLayout layout;
  private int[] deviceOf = new int[8]; // by file id
  private long[] baseOf = new long[8];
  private long[] txnBegin; // by session, -1: none open
  private long[] txnReserved;
  private boolean[] rollingBack; // by session: its transaction is being rolled back after 9002 (failing)
  private TransactionTable txns; // what recovery needs of each session's transactions
  private long checkpointRecordLsn; // the last completed checkpoint's record: analysis reads from here
  private long reserved;
  private double reserveRatio; // bytes reserved per byte logged by the last records that reserved (see reserve)
  private long reservedUpTo; // the log up to here has its records' reservations in `reserved`
  private long lastCheckpointLsn;
  private long backupLsn;
  private BackupChain chain; // backups and the database's files
  private BackupChain.Files files = BackupChain.Files.DEFAULT;
  private long replicatedLsn;
  private int growthZeroes; // zero-fills of growths still on the device
  private boolean waiting; // reserve refused; spaceReady owed
  private long stallStart;
  private boolean full;
  private boolean checkpointWanted;
  private boolean checkpointAsked; // an automatic checkpoint is on its way
  private int[] adminZeroes; // by session: zero-fills its step still waits for
  private long growthStalls;
  private long growthStallNanos;
  private long growthStallMaxNanos;
  private long zeroedBytes;
  private long fullErrors;
  private long rollbackWritesNotLogged; // a rollback's writes the full log could not place (0 unless the model fails)
  private long firstFullAt = -1;
  private String lastFullReason = NOTHING;
  private long peakUsed; // used + reserved, highest since the last DBCC SQLPERF
  private final List<String> messages = new ArrayList<>();
  private final List<SqlPerf> sqlPerf = new ArrayList<>();
  private Host host; // the log manager (the same object on every call)

  /** One DBCC SQLPERF(LOGSPACE) a script took: the log's size, the percent used now and the most since the last. */
  public record SqlPerf(String name, long atNanos, long sizeBytes, double usedPercent, double peakUsedPercent,
      String reuseWait, int vlfs) implements CborSerializable {}

  /** A fact: the log grew (file, bytes, VLFs added, whether zeroed) to sizeBytes and vlfs. */
  public record LogGrew(int fileId, long bytes, int vlfsAdded, boolean zeroed, long sizeBytes, int vlfs)
      implements io.tlogsim.kernel.EventFact {}

  /**
   * A fact of the time series: the log's size, the space used (with reservations), the reservations, the VLFs. An
   * interval fact, so the journal keeps it at every trace level and the report charts it (log-space-sample-...).
   */
  public record LogSpaceSample(long sizeBytes, long usedBytes, long reservedBytes, int vlfs)
      implements io.tlogsim.kernel.IntervalFact {}

  /** A fact: error 9002 for a session's transaction, with log_reuse_wait. */
  public record LogFull(int session, String reuseWait) implements io.tlogsim.kernel.EventFact {}

  /** Data files added by ADD FILE are numbered from here (the log files come before them). */
  public static final int FIRST_ADDED_DATA_FILE_ID = 100;

  /** What creating and dropping the database's files costs, and whether a log chain exists at the start. */
  public ManagedLogSpace withFiles(BackupChain.Files f) {
    files = f;
    chain = new BackupChain(f.fullBackupTaken(), FIRST_ADDED_DATA_FILE_ID);
    return this;
  }

  public ManagedLogSpace(Config cfg) {
    this.cfg = cfg;
    this.layout = new LogLayout(cfg.rule(), cfg.files(), cfg.firstFseqNo());
    for (LogLayout.LogFile f : layout.files()) placeFile(f);
    txnBegin = new long[cfg.sessions()];
    txnReserved = new long[cfg.sessions()];
    rollingBack = new boolean[cfg.sessions()];
    Arrays.fill(txnBegin, -1);
    txns = new TransactionTable(cfg.sessions());
    chain = new BackupChain(true, FIRST_ADDED_DATA_FILE_ID);
    adminZeroes = new int[cfg.sessions()];
  }

  private void placeFile(LogLayout.LogFile f) {
    int device = cfg.devices().indexOf(f.spec().device());
    if (device < 0) throw new IllegalArgumentException("log file " + f.spec().name() + ": no device '"
        + f.spec().device() + "'; devices: " + cfg.devices());
    if (f.id() >= deviceOf.length) {
      deviceOf = Arrays.copyOf(deviceOf, f.id() + 8);
      baseOf = Arrays.copyOf(baseOf, f.id() + 8);
    }
    int before = 0;
    for (LogLayout.LogFile g : layout.files()) if (g != f && g.id() < f.id() && deviceOf[g.id()] == device) before++;
    deviceOf[f.id()] = device;
    baseOf[f.id()] = before * FILE_STRIDE;
  }

  // ------------------------------------------------------------------------------------------------ placing writes

  @Override
  public List<Segment> place(long logOffset, long bytes) {
    if (logOffset != layout.endLsn()) {
      throw new IllegalStateException("log write at " + logOffset + ", the log ends at " + layout.endLsn()
          + " (a managed log needs writes in order without rewrites)");
    }
    List<LogLayout.Segment> parts = layout.append(bytes);
    List<Segment> out = new ArrayList<>(parts.size());
    for (LogLayout.Segment s : parts) {
      out.add(new Segment(deviceOf[s.fileId()], baseOf[s.fileId()] + s.offset(), s.fileId(), s.bytes()));
    }
    notePeak();
    return out;
  }

  @Override
  public boolean reserve(Host host, long logEnd) {
    return reserve(host, logEnd, -1);
  }

  @Override
  public boolean reserve(Host host, long logEnd, int rollbackSession) {
    this.host = host;
    full = false;
    if (growthZeroes > 0) return refuse(host);
    for (int guard = 0; guard < 1_000_000; guard++) {
      // A reservation is a use of the log like a record (REFERENCE.md 1): the log grows when what it writes does not
      // fit, and also when the active log, the block about to be filled and the reservations (those held and what
      // the block's records will add at the rate the last records reserved) exceed the files' size. A log that can
      // neither be reused nor grown refuses: the statement fails with 9002. So the space used never exceeds 100%.
      // REFERENCE.md 1 says what is reserved (space for the compensation records of a rollback, counted as used until
      // the transaction ends), not how much per record: that is rollbackReservationFactor, calibrated on its one
      // measurement. Only the new block's records are still to reserve: the blocks logged before it and not yet
      // written (the log buffers, the writes in flight) reserved theirs as they were logged (logged()); counting
      // them again here made a 9002 come at some 78% used (log-full-9002-open-transaction: 4 MB of buffers). What is
      // still to reserve begins where the last reservation was made (reservedUpTo), not at the new block: a statement's
      // records may fill several blocks before the log manager reports them.
      long need = logEnd - layout.endLsn();
      boolean placeable = layout.room(need) >= need;
      long newBytes = Math.min(need, Math.max(0, logEnd - reservedUpTo));
      // a rollback's compensation records go into the space its own transaction's reservation holds: that much of
      // the new block is already counted (REFERENCE.md 1: the reservation is what makes a rollback possible in a full
      // log). Only a block the rollback itself opens, and only its own reservation: counting every rollback's for any
      // block let another session's records, and another rollback, use it (two sessions failing at once peaked at
      // 101.9% used and the second rollback found no room). The log manager keeps other records with a reservation
      // out of such a block (LogManager.openCovered).
      long covered = rollbackSession >= 0 && rollbackSession < txnReserved.length
          ? Math.min(newBytes, Math.max(0, txnReserved[rollbackSession])) : 0;
      // nothing is reserved ahead for a rollback's block: only its compensation records and its end record go into
      // it, and they reserve nothing (they use the reservation). Counting the rest of the block as records that
      // would reserve at the last records' rate (3.6 x 60 KB) refused a small transaction's rollback in a log that
      // had room for it (log-full-9002 with delayed durability FORCED: its 9002 comes inside a transaction)
      long ahead = rollbackSession >= 0 ? 0 : (long) Math.ceil((newBytes - covered) * reserveRatio);
      boolean accounted = layout.totalSize() - (logEnd - layout.activeStartLsn()) - (reserved - covered) - ahead >= 0;
      if (placeable && accounted) {
        autoCheckpointIfDue(logEnd);
        return true;
      }
      if (truncate() > 0) continue;
      LogLayout.LogFile f = layout.fileToGrow();
      if (f == null) {
        full = true;
        // what holds the log; when nothing holds a VLF, it is the open transactions' reservations that do not fit
        String why = reuseWait();
        lastFullReason = why.equals(NOTHING) && reserved > 0 ? ACTIVE_TRANSACTION : why;
        return false;
      }
      LogLayout.Growth g = layout.grow(f);
      grew(host, g, 0);
      if (growthZeroes > 0) return refuse(host);
    }
    throw new IllegalStateException("the log cannot place " + (logEnd - layout.endLsn()) + " bytes");
  }

  private boolean refuse(Host host) {
    if (!waiting) {
      waiting = true;
      stallStart = host.now();
    }
    return false;
  }

  /** A growth happened: zero its bytes on the device (unless exempt), record it. {@code session} 0: the log's own. */
  private void grew(Host host, LogLayout.Growth g, int adminSession) {
    if (g.zeroFill()) {
      host.zero(deviceOf[g.fileId()], baseOf[g.fileId()] + g.offset(), g.bytes(), g.fileId(), adminSession);
      zeroedBytes += g.bytes();
      if (adminSession == 0) growthZeroes++;
      else adminZeroes[adminSession - 1]++;
    }
    host.record(new LogGrew(g.fileId(), g.bytes(), g.vlfs(), g.zeroFill(), layout.totalSize(), layout.vlfCount()));
  }

  @Override
  public void onZeroDone(Host host, long tag) {
    this.host = host;
    if (tag == 0) {
      if (--growthZeroes == 0) ready(host);
    } else {
      int s = (int) tag - 1;
      if (--adminZeroes[s] == 0) host.adminDone(s);
    }
  }

  private void ready(Host host) {
    if (!waiting) return;
    waiting = false;
    long stalled = host.now() - stallStart;
    growthStalls++;
    growthStallNanos += stalled;
    growthStallMaxNanos = Math.max(growthStallMaxNanos, stalled);
    host.spaceReady();
  }

  // ------------------------------------------------------------------------------------------------ truncation

  /** MinLSN: the oldest LSN the log still needs, whatever the recovery model. */
  private long minLsn() {
    long min = Math.min(lastCheckpointLsn, oldestTransaction());
    if (cfg.replicationReader()) min = Math.min(min, replicatedLsn);
    return min;
  }

  private long oldestTransaction() {
    long min = Long.MAX_VALUE;
    for (long b : txnBegin) if (b >= 0 && b < min) min = b;
    return min;
  }

  /** Truncates what may be truncated now; returns the VLFs freed. */
  private int truncate() {
    long upTo = minLsn();
    if (cfg.recoveryModel() == RecoveryModel.FULL) upTo = Math.min(upTo, backupLsn);
    return layout.truncate(upTo);
  }

  /**
   * log_reuse_wait_desc: why the oldest active VLF cannot be reused now (NOTHING when only the current VLF is active).
   * An open transaction that began there comes first, then a log backup not taken (FULL), a replication reader, a
   * checkpoint not taken.
   */
  public String reuseWait() {
    long start = layout.activeStartLsn();
    if (layout.current().startLsn() == start) return NOTHING; // only the current VLF is active
    long firstEnd = firstActiveEnd();
    if (oldestTransaction() < firstEnd) return ACTIVE_TRANSACTION;
    if (cfg.recoveryModel() == RecoveryModel.FULL && backupLsn < firstEnd) return LOG_BACKUP;
    if (cfg.replicationReader() && replicatedLsn < firstEnd) return REPLICATION;
    if (lastCheckpointLsn < firstEnd) return CHECKPOINT;
    return NOTHING;
  }

  private long firstActiveEnd() {
    long start = layout.activeStartLsn();
    for (LogLayout.LogFile f : layout.files()) {
      for (Vlf v : f.vlfs()) if (v.active && v.startLsn == start) return v.endLsn();
    }
    return start;
  }

  /**
   * The log-backup hook: a log backup has read the log up to {@code lsn}; in FULL the log is truncated up to it (and
   * MinLSN). Returns the VLFs freed. Appends that waited for space go on.
   */
  public int truncateUpTo(long lsn) {
    backupLsn = Math.max(backupLsn, lsn);
    int freed = truncate();
    if (freed > 0 && waiting && growthZeroes == 0 && host != null) {
      waiting = false;
      host.spaceReady();
    }
    return freed;
  }

  @Override
  public void release(long logOffset) {
    truncateUpTo(logOffset);
  }

  /** A replication log reader has read up to {@code lsn}: what it held may be truncated now. */
  public void replicated(long lsn) {
    replicatedLsn = Math.max(replicatedLsn, lsn);
    int freed = truncate();
    if (freed > 0 && waiting && growthZeroes == 0 && host != null) {
      waiting = false;
      host.spaceReady();
    }
  }

  @Override
  public boolean isCrashStep(int step) {
    return step >= 0 && step < cfg.steps().size() && cfg.steps().get(step).type() == Step.Type.CRASH;
  }

  @Override
  public void onCheckpoint(Host host, long lsn) {
    this.host = host;
    // the checkpoint's redo start (REFERENCE.md 3): its record, or the oldest transaction still open, if older
    lastCheckpointLsn = Math.max(lastCheckpointLsn, Math.min(lsn, oldestTransaction()));
    checkpointRecordLsn = Math.max(checkpointRecordLsn, lsn);
    checkpointAsked = false;
    if (cfg.recoveryModel() == RecoveryModel.SIMPLE) {
      chain.history.clear(); // REFERENCE.md 3: the simple model clears the file list at checkpoint
      truncate();
      if (waiting && growthZeroes == 0) {
        waiting = false;
        host.spaceReady();
      }
    }
  }

  private void autoCheckpointIfDue(long logEnd) {
    if (cfg.recoveryModel() != RecoveryModel.SIMPLE || cfg.autoCheckpointPercent() <= 0 || checkpointAsked) return;
    double used = 100.0 * (logEnd - layout.activeStartLsn() + reserved) / layout.totalSize();
    if (used >= cfg.autoCheckpointPercent()) {
      checkpointWanted = true;
      checkpointAsked = true;
    }
  }

  @Override
  public boolean takeCheckpointRequest() {
    boolean w = checkpointWanted;
    checkpointWanted = false;
    return w;
  }

  // ------------------------------------------------------------------------------------------------ transactions

  @Override
  public boolean tracksTransactions() {
    return true;
  }

  @Override
  public void begin(int session, long lsn) {
    begin(session, lsn, 0);
  }

  @Override
  public void begin(int session, long lsn, long endBytes) {
    if (txnBegin[session] < 0) {
      txnBegin[session] = lsn;
      // what its rollback writes besides its compensation records, reserved once (REFERENCE.md 1: the reservation is
      // space for the rollback's records); the log manager may ask again for the same begin while the log grows
      txnReserved[session] += endBytes;
      reserved += endBytes;
    }
    txns.begin(session, lsn);
  }

  @Override
  public long rollbackReserved(int session) {
    return session >= 0 && session < txnReserved.length ? Math.max(0, txnReserved[session]) : 0;
  }

  @Override
  public void padded(int session, long bytes) {
    long r = Math.min(bytes, rollbackReserved(session)); // the padding is the log's now, no longer reserved
    txnReserved[session] -= r;
    reserved -= r;
    notePeak();
  }

  @Override
  public void changed(int session, long firstRow, long count, int clrBytes) {
    txns.changed(session, firstRow, count, clrBytes);
  }

  @Override
  public void logged(int session, long bytes, boolean compensation, long undoBytes) {
    long r = compensation ? -Math.min(bytes, txnReserved[session]) : Math.round(undoBytes * cfg.reservationFactor());
    if (r > 0 && bytes > 0) reserveRatio = r / (double) bytes;
    if (host != null) txns.logged(session, host.appendLsn());
    if (host != null) reservedUpTo = Math.max(reservedUpTo, host.appendLsn());
    if (!compensation) chain.changedSinceFull += bytes;
    txnReserved[session] += r;
    reserved += r;
    notePeak();
  }

  @Override
  public void compensated(int session, long count, long lsnAfter) {
    txns.compensated(session, count, lsnAfter);
  }

  @Override
  public void end(int session) {
    reserved -= txnReserved[session];
    txnReserved[session] = 0;
    txnBegin[session] = -1;
    txns.end(session, host == null ? 0 : host.appendLsn(), host == null ? 0 : host.hardenedLsn());
  }

  @Override
  public boolean full() {
    return full;
  }

  @Override
  public void failed(Host host, int session) {
    fullErrors++;
    if (firstFullAt < 0) firstFullAt = host.now();
    if (messages.size() < MAX_MESSAGES) {
      messages.add(String.format(Locale.ROOT, "%.3f s: Msg 9002: The transaction log for database '%s' is full due"
          + " to '%s'.", host.now() / 1e9, cfg.database(), lastFullReason));
    }
    host.record(new LogFull(session, lastFullReason));
    end(session); // the statement fails and its transaction is rolled back: its reservation covers the undo
    txns.forget(session);
  }

  /**
   * A rollback's write that the full log could not place (see LogManager.rollbackWrite): counted
   * ({@code log.rollbackWritesNotLogged}) and said once per rollback in the messages, so a run shows where the model's
   * reservation fell short.
   */
  public void rollbackNotLogged(Host host, int session, int compensation) {
    if (!rollingBack[session]) return;
    rollbackWritesNotLogged++;
    if (messages.size() >= MAX_MESSAGES) return;
    String said = "the rollback of session " + session + "'s transaction";
    if (!messages.isEmpty() && messages.get(messages.size() - 1).contains(said)) return;
    messages.add(String.format(Locale.ROOT, "%.3f s: %s found no room for %s (its reservation did not cover it):"
        + " not logged.", host.now() / 1e9, said, compensation > 0 ? "its compensation records"
        : "its end record"));
  }

  /** Error 9002 for {@code session}; its transaction stays (with its reservation) until its rollback has been undone. */
  @Override
  public void failing(Host host, int session) {
    fullErrors++;
    if (firstFullAt < 0) firstFullAt = host.now();
    if (messages.size() < MAX_MESSAGES) {
      messages.add(String.format(Locale.ROOT, "%.3f s: Msg 9002: The transaction log for database '%s' is full due"
          + " to '%s'.", host.now() / 1e9, cfg.database(), lastFullReason));
    }
    host.record(new LogFull(session, lastFullReason));
    rollingBack[session] = true;
  }

  // ------------------------------------------------------------------------------------------------ administration

  @Override
  public boolean admin(Host host, int session, int stepIndex) {
    this.host = host;
    Step st = cfg.steps().get(stepIndex);
    Map<String, Object> g = st.given();
    return switch (st.type()) {
      case GROW_LOG -> {
        LogLayout.LogFile f = layout.file(intKey(g, "file", LogLayout.FIRST_LOG_FILE_ID));
        if (f == null) {
          messages.add(time(host) + "MODIFY FILE: no log file " + g.get("file"));
          yield true;
        }
        long bytes = mb(g, "mb", 0);
        int times = intKey(g, "times", 1);
        for (int k = 0; k < times; k++) {
          long by = bytes > 0 ? bytes : f.spec().nextGrowth(f.size());
          if (by <= 0) break;
          grew(host, layout.growBy(f, by), session + 1);
        }
        yield adminZeroes[session] == 0;
      }
      case ADD_LOG_FILE -> {
        String device = cfg.devices().get(Math.min(intKey(g, "device", 1) - 1, cfg.devices().size() - 1));
        LogFileSpec spec = new LogFileSpec(String.valueOf(g.getOrDefault("file", "log" + (layout.files().size() + 1))),
            mb(g, "sizeMB", 1), mb(g, "growthMB", 0), dbl(g, "growthPercent"), mb(g, "maxSizeMB", 0), device);
        LogLayout.LogFile f = layout.addFile(spec);
        placeFile(f);
        // a new log file is zero-initialized like a growth (REFERENCE.md 1)
        grew(host, new LogLayout.Growth(f.id(), 0, f.size(), f.vlfs().size(), cfg.rule().zeroesGrowth(f.size())),
            session + 1);
        yield adminZeroes[session] == 0;
      }
      case REMOVE_FILE -> {
        int id = intKey(g, "file", 0);
        String refusal = layout.removeFile(id);
        messages.add(time(host) + "ALTER DATABASE " + cfg.database() + " REMOVE FILE " + id + ": "
            + (refusal == null ? "The file was removed." : refusal));
        yield true;
      }
      case SHRINK_FILE -> {
        int id = intKey(g, "file", LogLayout.FIRST_LOG_FILE_ID);
        truncate();
        String refusal = layout.shrink(id, mb(g, "targetMB", 0));
        LogLayout.LogFile f = layout.file(id);
        messages.add(time(host) + "DBCC SHRINKFILE (" + id + ", " + g.getOrDefault("targetMB", 0) + "): "
            + (refusal == null ? "file " + id + " is now " + (f.size() >> 20) + " MB in " + f.vlfs().size()
                + " VLFs." : refusal));
        yield true;
      }
      case BACKUP_LOG -> backupLog(host, session);
      case BACKUP_DATABASE -> backupDatabase(host, session, st.mode() == Step.DIFFERENTIAL);
      case RESTORE_DATABASE -> restoreDatabase(host, session, st.mode() == Step.WITH_RECOVERY);
      case RESTORE_LOG -> restoreLog(host, session, st.mode() == Step.WITH_RECOVERY);
      case ADD_DATA_FILE -> addDataFile(host, session);
      case REMOVE_DATA_FILE -> removeDataFile(host, session);
      case SQLPERF -> {
        long size = layout.totalSize();
        sqlPerf.add(new SqlPerf(st.name(), host.now(), size, percent(usedNow()), percent(Math.max(peakUsed,
            usedNow())), reuseWait(), layout.vlfCount()));
        peakUsed = usedNow();
        yield true;
      }
      default -> throw new IllegalArgumentException("not a log administration step: " + st.type().word);
    };
  }

  /**
   * BACKUP LOG (REFERENCE.md 1, 3): reads the log from where the last log backup ended to the end of what is hardened,
   * through the host's backup agent; when the backup set is written, the log is truncated up to there
   * ({@link #truncateUpTo}). Backups of one database run one at a time (SQL Server's error 3023 for another); without a
   * full backup there is no log chain (Msg 4214).
   */
  private boolean backupLog(Host host, int session) {
    if (refusedWhileBusy(host)) return true;
    if (!chain.chain) {
      messages.add(time(host) + "Msg 4214: BACKUP LOG cannot be performed because there is no current database"
          + " backup.");
      return true;
    }
    long from = Math.max(backupLsn, layout.activeStartLsn());
    long to = Math.max(from, Math.min(layout.endLsn(), host.hardenedLsn()));
    running(BACKUP_LOG, session, from, to);
    host.backup(BACKUP_LOG, pieces(from, to), chain.history.rows());
    return false;
  }

  private boolean refusedWhileBusy(Host host) {
    if (chain.running < 0) return false;
    messages.add(time(host) + "Msg 3023: Backup, file manipulation operations (such as ALTER DATABASE ADD FILE) and"
        + " encryption changes on a database must be serialized.");
    return true;
  }

  private void running(int type, int session, long from, long to) {
    chain.running = type;
    chain.runningSession = session;
    chain.runningFrom = from;
    chain.runningTo = to;
    // the last completed checkpoint's record is hardened, so it lies within what the backup reads (up to `to`)
    chain.runningCheckpointLsn = checkpointRecordLsn;
  }

  /**
   * BACKUP DATABASE [WITH DIFFERENTIAL] (REFERENCE.md 3): the data file's pages (a differential: those changed since
   * the full backup, at most the file) and the log that makes them consistent (from the oldest open transaction to the
   * hardened end), one row of history more than a log backup (the data file). A full backup begins the log chain and
   * records the files it lists, for RESTORE DATABASE.
   */
  private boolean backupDatabase(Host host, int session, boolean differential) {
    if (refusedWhileBusy(host)) return true;
    List<ReadPiece> read = new ArrayList<>();
    int device = dataDevice(host);
    long used = host.dataUsedBytes();
    long dataBytes = differential ? Math.min(used, chain.changedSinceFull) : used;
    if (device >= 0 && dataBytes > 0) {
      read.add(new ReadPiece(device, DATA_FILE_ID, -1, dataBaseOffset(host), dataBytes));
    }
    long to = Math.min(layout.endLsn(), host.hardenedLsn());
    long from = Math.max(layout.activeStartLsn(), Math.min(to, oldestTransaction()));
    read.addAll(pieces(from, to));
    running(differential ? BACKUP_DIFFERENTIAL : BACKUP_FULL, session, to, to);
    if (!differential) { // what RESTORE DATABASE will create: the files as they are now
      chain.fullFiles.clear();
      for (LogLayout.LogFile f : layout.files()) {
        chain.fullFiles.add(new BackupChain.ListedFile(f.id(), f.size(), deviceOf[f.id()], baseOf[f.id()], true));
      }
      if (device >= 0) {
        chain.fullFiles.add(new BackupChain.ListedFile(DATA_FILE_ID, host.dataFileBytes(), device,
            dataBaseOffset(host), false));
      }
      chain.fullDataBytes = dataBytes;
    }
    host.backup(differential ? BACKUP_DIFFERENTIAL : BACKUP_FULL, read, chain.history.rows() + 1);
    return false;
  }

  /**
   * RESTORE DATABASE (REFERENCE.md 1): creates the files the last full backup lists at the sizes it lists, the log files
   * zero-initialized always, the data file unless instant file initialization, then copies the backup's pages back.
   */
  private boolean restoreDatabase(Host host, int session, boolean recovery) {
    if (refusedWhileBusy(host)) return true;
    if (chain.fullFiles.isEmpty()) {
      messages.add(time(host) + "Msg 3201: there is no full backup of database '" + cfg.database() + "' to restore.");
      return true;
    }
    List<FileZero> zeros = new ArrayList<>();
    List<Copy> copies = new ArrayList<>();
    for (BackupChain.ListedFile f : chain.fullFiles) {
      if (f.log() || !files.instantFileInitialization()) {
        zeros.add(new FileZero(f.device(), f.fileId(), f.baseOffset(), f.bytes(), 0));
      }
      if (!f.log() && chain.fullDataBytes > 0) {
        copies.add(new Copy(0, chain.fullDataBytes, f.device(), f.fileId(), f.baseOffset()));
      }
    }
    running(RESTORE_DATABASE, session, 0, 0);
    chain.recoverTo = recovery ? Math.max(0, chain.fullStartLsn) : -1; // the log the full backup holds ends there
    chain.recoverFrom = chain.fullCheckpointLsn;
    host.restore(new RestorePlan(RESTORE_DATABASE, zeros, copies, 0, 0, 0, 0));
    return false;
  }

  /**
   * RESTORE LOG (REFERENCE.md 1): copies the last log backup into the log files and replays it; each growth its range
   * (since the full backup) holds grows the file again, zeroed, and a file added after the full backup, which the
   * backup did not list, is created and zeroed when the replay reaches its ADD FILE; the data pages its records
   * changed are read and written back.
   */
  private boolean restoreLog(Host host, int session, boolean recovery) {
    if (refusedWhileBusy(host)) return true;
    if (chain.logBackupFrom < 0) {
      messages.add(time(host) + "Msg 3201: there is no log backup of database '" + cfg.database() + "' to restore.");
      return true;
    }
    long from = chain.logBackupFrom, to = chain.logBackupTo;
    long since = Math.max(0, Math.min(from, chain.fullStartLsn < 0 ? from : chain.fullStartLsn));
    List<FileZero> zeros = new ArrayList<>();
    for (LogLayout.LogFile f : layout.files()) {
      List<Vlf> vlfs = f.vlfs();
      for (int i = 0; i < vlfs.size(); ) { // VLFs made together (one growth, or the file's creation) zeroed together
        long created = vlfs.get(i).createLsn();
        long offset = vlfs.get(i).offset(), bytes = 0;
        int j = i;
        for (; j < vlfs.size() && vlfs.get(j).createLsn() == created; j++) bytes += vlfs.get(j).size();
        boolean listed = listed(f.id());
        boolean made = created > since && created <= to && (i > 0 || !listed);
        if (made) {
          zeros.add(new FileZero(deviceOf[f.id()], f.id(), baseOf[f.id()] + offset, bytes,
              Math.max(1, created - from)));
        }
        i = j;
      }
    }
    LogLayout.LogFile first = layout.files().get(0);
    List<Copy> copies = List.of(new Copy(0, to - from, deviceOf[first.id()], first.id(), baseOf[first.id()]));
    long[] pages = host.dataPagesChanged(from, to);
    int device = dataDevice(host);
    running(RESTORE_LOG, session, from, to);
    chain.recoverTo = recovery ? to : -1;
    chain.recoverFrom = chain.logBackupCheckpointLsn;
    host.restore(new RestorePlan(RESTORE_LOG, zeros, copies, Math.max(0, device), DATA_FILE_ID, pages[0], pages[1]));
    return false;
  }

  private boolean listed(int fileId) {
    for (BackupChain.ListedFile f : chain.fullFiles) if (f.fileId() == fileId) return true;
    return false;
  }

  /**
   * ALTER DATABASE ... ADD FILE (REFERENCE.md 3, 5.4): the file is created on the data device, zeroed unless instant
   * file initialization, its file system records written; the backup history's file list gets an entry.
   */
  private boolean addDataFile(Host host, int session) {
    int id = chain.nextDataFileId++;
    int n = chain.dataFilesCreated++;
    int device = Math.max(0, dataDevice(host));
    long stride = Math.max(1L << 20, (files.addedFileBytes() + (1L << 20) - 1) >> 20 << 20);
    long at = dataBaseOffset(host) + BackupChain.ADDED_FILES_OFFSET + n * stride;
    if (!files.instantFileInitialization() && files.addedFileBytes() > 0) {
      host.zero(device, at, files.addedFileBytes(), id, session + 1);
      zeroedBytes += files.addedFileBytes();
      adminZeroes[session]++;
    }
    metadataWrites(host, device, id, session);
    chain.history.fileCreated(id, host.appendLsn());
    return adminZeroes[session] == 0;
  }

  /** ALTER DATABASE ... REMOVE FILE: the file system's records of the drop (the file's entry stays in the list). */
  private boolean removeDataFile(Host host, int session) {
    int device = Math.max(0, dataDevice(host));
    metadataWrites(host, device, chain.nextDataFileId, session);
    return adminZeroes[session] == 0;
  }

  /** The file system's records of a create or a drop: small writes where its metadata lies (before the files). */
  private void metadataWrites(Host host, int device, int fileId, int session) {
    long at = dataBaseOffset(host) + BackupChain.ADDED_FILES_OFFSET - (64L << 20);
    for (int k = 0; k < files.metadataWrites(); k++) {
      host.zero(device, at + (long) k * files.metadataBytes(), files.metadataBytes(), fileId, session + 1);
      adminZeroes[session]++;
    }
  }

  /** SQL Server's primary data file. */
  static final int DATA_FILE_ID = 1;

  private int dataDevice(Host host) {
    int d = host.dataDevice();
    if (d >= 0) return d;
    int named = cfg.devices().indexOf("data-device");
    return named;
  }

  private long dataBaseOffset(Host host) {
    return host.dataDevice() >= 0 ? host.dataBaseOffset() : 0;
  }

  /** The active log in [from, to) as pieces, one per VLF, on its devices. */
  private List<ReadPiece> pieces(long from, long to) {
    List<ReadPiece> out = new ArrayList<>();
    if (to <= from) return out;
    for (LogLayout.ActivePiece a : layout.activePieces(from, to)) {
      Vlf v = a.vlf();
      out.add(new ReadPiece(deviceOf[v.fileId()], v.fileId(), baseOf[v.fileId()] + v.offset(),
          baseOf[v.fileId()] + v.offset() + a.offsetInVlf(), a.bytes()));
    }
    return out;
  }

  /** The backup or restore the space asked its host for is done (the command returns). */
  @Override
  public void onLogBackupDone(Host host) {
    this.host = host;
    int type = chain.running;
    long from = chain.runningFrom, to = chain.runningTo;
    switch (type) {
      case BACKUP_LOG -> {
        int freed = truncateUpTo(to);
        chain.history.backupCompleted(from);
        chain.logBackupFrom = from;
        chain.logBackupTo = to;
        chain.logBackupCheckpointLsn = chain.runningCheckpointLsn;
        messages.add(time(host) + "BACKUP LOG: log backed up to LSN " + to + ", " + freed + " VLFs freed"
            + (freed > 0 ? "." : " (log_reuse_wait " + reuseWait() + ")."));
      }
      case BACKUP_FULL, BACKUP_DIFFERENTIAL -> {
        chain.history.backupCompleted(from);
        if (type == BACKUP_FULL) {
          if (!chain.chain) backupLsn = Math.max(backupLsn, from); // the log chain begins: log backups read from here
          chain.chain = true;
          chain.fullStartLsn = from;
          chain.fullCheckpointLsn = chain.runningCheckpointLsn;
          chain.changedSinceFull = 0;
        }
        messages.add(time(host) + (type == BACKUP_FULL ? "BACKUP DATABASE" : "BACKUP DATABASE WITH DIFFERENTIAL")
            + ": the backup set is written.");
      }
      case RESTORE_DATABASE -> messages.add(time(host) + "RESTORE DATABASE: the files are created and the pages"
          + " copied.");
      case RESTORE_LOG -> messages.add(time(host) + "RESTORE LOG: the log is replayed up to LSN " + to + ".");
      default -> throw new IllegalStateException("log space: a backup completed, but none was running");
    }
    int session = chain.runningSession;
    chain.running = -1;
    chain.runningSession = -1;
    long recoverTo = chain.recoverTo;
    chain.recoverTo = -1;
    if (recoverTo >= 0 && (type == RESTORE_DATABASE || type == RESTORE_LOG)) {
      // WITH RECOVERY (REFERENCE.md 3): the replay was the restore's redo; the database now starts and recovers the
      // restored log like a crashed one, undoing what was open at its end; the step is done when that is
      messages.add(time(host) + "WITH RECOVERY: the database recovers the log restored up to LSN " + recoverTo + ".");
      host.recoverRestored(session, recoverTo, chain.recoverFrom);
      return;
    }
    host.adminDone(session);
  }

  private static String time(Host host) {
    return String.format(Locale.ROOT, "%.3f s: ", host.now() / 1e9);
  }

  private static int intKey(Map<String, Object> g, String key, int dflt) {
    Object v = g.get(key);
    return v instanceof Number n ? n.intValue() : dflt;
  }

  private static long mb(Map<String, Object> g, String key, long dflt) {
    Object v = g.get(key);
    return v instanceof Number n ? Math.round(n.doubleValue() * (1 << 20)) : dflt;
  }

  private static double dbl(Map<String, Object> g, String key) {
    Object v = g.get(key);
    return v instanceof Number n ? n.doubleValue() : 0;
  }

  // ------------------------------------------------------------------------------------------------ recovery

  /** Where analysis starts after a crash: the last completed checkpoint's record (REFERENCE.md 3). */
  public long analysisFromLsn(long hardenedLsn) {
    return Math.min(hardenedLsn, Math.max(layout.activeStartLsn(), checkpointRecordLsn));
  }

  /** Where redo starts: MinLSN as the last checkpoint recorded it (the older of its record and the oldest open transaction). */
  public long redoFromLsn(long hardenedLsn) {
    return Math.min(hardenedLsn, Math.max(layout.activeStartLsn(), lastCheckpointLsn));
  }

  /** Every VLF's header, file by file, as start-up reads them. */
  public List<ReadPiece> headerPieces() {
    List<ReadPiece> headers = new ArrayList<>();
    for (LogLayout.LogFile f : layout.files()) {
      for (Vlf v : f.vlfs()) {
        long at = baseOf[f.id()] + v.offset();
        headers.add(new ReadPiece(deviceOf[f.id()], f.id(), at, at, 0));
      }
    }
    return headers;
  }

  /** The active log in [from, to) as pieces, one per VLF, on its devices (each VLF's header read first). */
  public List<ReadPiece> readPieces(long from, long to) {
    return pieces(from, to);
  }

  /** The transactions a crash with the log hardened up to {@code hardenedLsn} leaves to roll back. */
  public List<TransactionTable.Txn> losers(long hardenedLsn) {
    return txns.losers(hardenedLsn);
  }

  /**
   * The server lost what was not hardened: the log ends at {@code hardenedLsn} again (the VLFs entered by lost writes
   * are not active), and the transactions whose end records were lost are to be rolled back.
   */
  public void crashed(long hardenedLsn) {
    layout.rewindTo(hardenedLsn);
    txns.crashed(hardenedLsn); // compensation records not hardened are lost: recovery's undo writes them again
    Arrays.fill(rollingBack, false); // a rollback under way is recovery's now (its transaction is a loser)
    reservedUpTo = Math.min(reservedUpTo, hardenedLsn);
  }

  /** Recovery rolled the session's transactions back: their end record is logged, nothing of them is left. */
  @Override
  public void rolledBack(int session) {
    boolean afterFull = rollingBack[session];
    rollingBack[session] = false;
    reserved -= txnReserved[session];
    txnReserved[session] = 0;
    txnBegin[session] = -1;
    if (afterFull && host != null) { // its end record may not be hardened yet: a crash still finds it
      txns.rolledBack(session, host.appendLsn(), host.hardenedLsn());
    } else {
      txns.forgetAll(session); // recovery's: it hardens what it wrote before the database is online
    }
  }

  // ------------------------------------------------------------------------------------------------ what DBAs see

  /** Log space used as DBCC SQLPERF(LOGSPACE) counts it: the active log and the rollback reservations. */
  public long usedNow() {
    return layout.usedBytes() + reserved;
  }

  private double percent(long bytes) {
    return Math.round(1e5 * bytes / (double) layout.totalSize()) / 1e3;
  }

  private void notePeak() {
    long u = layout.usedBytes() + reserved;
    if (u > peakUsed) peakUsed = u;
  }

  public long activeStartLsn() {
    return layout.activeStartLsn();
  }

  public List<LogLayout.LogInfoRow> logInfo() {
    return layout.logInfo();
  }

  public LogLayout layout() {
    return layout;
  }

  @Override
  public long statementNanos() {
    return cfg.statementNanos();
  }

  @Override
  public long sampleIntervalNanos() {
    return cfg.sampleNanos();
  }

  @Override
  public Object sampleFact() {
    return new LogSpaceSample(layout.totalSize(), usedNow(), reserved, layout.vlfCount());
  }

  @Override
  public List<LogFile> files() {
    List<LogFile> out = new ArrayList<>();
    for (LogLayout.LogFile f : layout.files()) out.add(new LogFile(f.id(), f.spec().name(), deviceOf[f.id()]));
    return out;
  }

  /** What the run ends with, for summary.json and the tables. */
  public Report report() {
    return new Report(layout.vlfCount(), layout.totalSize(), usedNow(), percent(usedNow()), layout.growths(),
        zeroedBytes, fullErrors, firstFullAt, reuseWait(), lastFullReason, growthStalls, growthStallNanos, growthStallMaxNanos,
        List.copyOf(messages), List.copyOf(sqlPerf), layout.logInfo(), fileSizes(), rollbackWritesNotLogged);
  }

  private List<long[]> fileSizes() {
    List<long[]> out = new ArrayList<>();
    for (LogLayout.LogFile f : layout.files()) out.add(new long[] {f.id(), f.size(), f.vlfs().size()});
    return out;
  }

  /**
   * @param firstFullNanos when the first 9002 happened (-1: never)
   * @param files per file: id, size, VLFs
   */
  public record Report(int vlfs, long sizeBytes, long usedBytes, double usedPercent, long growths, long zeroedBytes,
      long fullErrors, long firstFullNanos, String reuseWait, String lastFullReason, long growthStalls, long growthStallNanos,
      long growthStallMaxNanos, List<String> messages, List<SqlPerf> sqlPerf, List<LogLayout.LogInfoRow> logInfo,
      List<long[]> files, long rollbackWritesNotLogged) implements CborSerializable {}

  // ------------------------------------------------------------------------------------------------ checkpoints

  @Override
  public Object snapshot() {
    return new State(layout.snapshot(), deviceOf.clone(), baseOf.clone(), txnBegin.clone(), txnReserved.clone(),
        new long[] {reserved, lastCheckpointLsn, backupLsn, replicatedLsn, growthZeroes, waiting ? 1 : 0, stallStart,
            full ? 1 : 0, checkpointWanted ? 1 : 0, checkpointAsked ? 1 : 0, growthStalls, growthStallNanos,
            growthStallMaxNanos, zeroedBytes, fullErrors, peakUsed, firstFullAt, reservedUpTo, rollbackWritesNotLogged,
            Double.doubleToRawLongBits(reserveRatio), checkpointRecordLsn},
        adminZeroes.clone(), lastFullReason, List.copyOf(messages), List.copyOf(sqlPerf), txns.snapshot(),
        chain.snapshot(), rollingBack.clone());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    layout = LogLayout.restore(s.layout());
    deviceOf = s.deviceOf().clone();
    baseOf = s.baseOf().clone();
    txnBegin = s.txnBegin().clone();
    txnReserved = s.txnReserved().clone();
    rollingBack = s.rollingBack().clone();
    long[] c = s.counters();
    reserved = c[0];
    lastCheckpointLsn = c[1];
    backupLsn = c[2];
    replicatedLsn = c[3];
    growthZeroes = (int) c[4];
    waiting = c[5] != 0;
    stallStart = c[6];
    full = c[7] != 0;
    checkpointWanted = c[8] != 0;
    checkpointAsked = c[9] != 0;
    growthStalls = c[10];
    growthStallNanos = c[11];
    growthStallMaxNanos = c[12];
    zeroedBytes = c[13];
    fullErrors = c[14];
    peakUsed = c[15];
    firstFullAt = c[16];
    reservedUpTo = c[17];
    rollbackWritesNotLogged = c[18]; // 0 in a checkpoint from before it was counted
    reserveRatio = Double.longBitsToDouble(c[19]);
    checkpointRecordLsn = c[20];
    txns.restore(s.txns());
    chain.restore(s.chain());
    adminZeroes = s.adminZeroes().clone();
    lastFullReason = s.lastFullReason();
    messages.clear();
    messages.addAll(s.messages());
    sqlPerf.clear();
    sqlPerf.addAll(s.sqlPerf());
  }

  public record State(LogLayout.State layout, int[] deviceOf, long[] baseOf, long[] txnBegin, long[] txnReserved,
      long[] counters, int[] adminZeroes, String lastFullReason, List<String> messages, List<SqlPerf> sqlPerf,
      TransactionTable.State txns, BackupChain.State chain, boolean[] rollingBack) implements CborSerializable {}
}
