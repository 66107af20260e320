package io.tlogsim.database.log;

import io.tlogsim.database.data.DataConfig;
import io.tlogsim.database.data.DataFileGrowth;
import io.tlogsim.database.data.DataFiles;
import io.tlogsim.database.data.DataStats;
import io.tlogsim.database.log.policy.FlushControl;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.database.logspace.LogSpace;
import io.tlogsim.database.readers.BackupProtocol;
import io.tlogsim.database.readers.RecoveryPlan;
import io.tlogsim.database.readers.RecoveryProtocol;
import io.tlogsim.database.readers.ReplicationLogReader;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The log manager of one database (REFERENCE.md 2), and the writer of its data file.
 *
 * <p><b>Log buffer and blocks.</b> Records go into the open log block; LSNs count record bytes. A block holds at most
 * {@link LogConfig#maxBlockPages} pages; when the next record does not fit, the block is closed ("full") and written
 * regardless of any commit. A flush closes the open block too, at the moment its write is issued, so a write carries
 * every record logged up to then (while writes are held back by the outstanding-write limit, records keep joining the
 * open block: group commit by nature). With {@link LogConfig#flushClosesPage} the next block starts on a new page
 * (the rest of the page is padding); otherwise the next write rewrites that page. At most
 * {@link LogConfig#logBuffers} blocks are in memory (open, waiting, in flight); beyond that, records wait (LOGBUFFER).
 *
 * <p><b>Flush policy.</b> When to flush and which commits wait for it: a {@link FlushPolicy}. A commit that waits is
 * acknowledged when the write holding it completes (WRITELOG is that wait); one that does not is answered when its
 * commit record is appended ({@link LogProtocol#APPENDED}, or FAILED on 9002: the append is where the log reserves)
 * and counted as acknowledged and not hardened until then.
 *
 * <p><b>Where the log goes.</b> A {@link LogSpace} maps log offsets to files and device offsets and may make appends
 * wait (log growth, log full): the log-space issue plugs in there.
 *
 * <p><b>Data file.</b> Every change a record logs dirties its page ({@link DataFiles}); the lazy writer and checkpoints
 * write them to the data file's device, possibly the log's own.
 *
 * <p><b>Promises.</b> To a session pool: a reply follows a device completion by one reply delay; a session's request
 * causes one at once only for a flush of an already hardened log (only if the scenario has such steps) or for a
 * commit that does not wait (answered when appended, only if its sessions have such a mode), and a timer never does.
 * To a device: a session's request causes a write only while the outstanding-write limit has room; a completion or a
 * timer may at once.
 */
public final class LogManager implements SimComponent, FlushControl, LogSpace.Host, DataFiles.Host,
    DataFileGrowth.Host {
  /** This component's own timers: a = which ({@link #TIMER_POLICY}, ...), b = the policy's code. */
  public static final int TIMER = 30;
  static final long TIMER_POLICY = 1;
  static final long TIMER_LAZY_WRITER = 2;
  static final long TIMER_CHECKPOINT = 3;
  static final long TIMER_SPACE_SAMPLE = 4;
  static final long TIMER_CRASH = 5;
  static final long TIMER_REPLICATION = 6;
  static final long TIMER_DATA_HOLD = 7;

  /**
   * Device request tags: a log write's segments are (write number << 8 | segment), data-page writes and log zero-fills
   * have their own ranges.
   */
  static final int SEGMENT_BITS = 8;
  public static final long DATA_TAGS = 1L << 40;
  public static final long SPACE_TAGS = 1L << 41;
  /** Tags of the zeroes of a data file's growth (above every other kind). */
  static final long DATA_GROWTH_TAGS = 1L << 42;

  // pending request kinds (the session events, queued while the log cannot take them)
  private static final int P_KIND = 0, P_A = 1, P_B = 2, P_C = 3, P_D = 4, P_ARRIVAL = 5;
  // waiting durable commits
  private static final int W_SESSION = 0, W_LSN = 1, W_ARRIVAL = 2;
  // closed blocks waiting for their write
  private static final int Q_START = 0, Q_END = 1;
  // writes in flight, in issue order: number, end LSN, bytes, when issued, segments not yet completed
  private static final int F_TAG = 0, F_END = 1, F_BYTES = 2, F_ISSUED = 3, F_PARTS = 4;

  private final LogConfig cfg;
  private final FlushPolicy policy;
  private boolean policyChanged; // restored from a checkpoint of another policy's run: switched at its next event
  // The flush policy's epoch: 0 from a run's start, one more at each switch (run --branch with another policy or other
  // settings of it). Each policy timer carries the epoch that set it: one set by a policy switched away from is void.
  private long policyEpoch;
  private final LogSpace space;
  private final DataFiles data; // null: no data file
  private final DataFileGrowth dataGrowth; // null: the data file does not grow
  private final int[] deviceLinks; // by device index
  private final int[] poolLinks;
  private final int sessionsPerPool;
  private final int sessions;
  private final boolean immediateReplies;
  private final long usable; // record bytes per page
  private final int pageBytes;
  private FileStats[] files; // by file id (null where none)
  private final boolean managed; // the log space tracks transactions and checkpoints (SQL Server's log space)
  private final long sampleNanos; // how often the log space is sampled for the time series (0: never)

  private Context ctx;
  private long crashNanos; // a power loss at this time (0: none)
  private int backupLink = -1; // to the backup agent that takes BACKUP LOG (-1: none)
  private int recoveryLink = -1; // to the recovery manager that reads the log after the crash (-1: none)
  private int replicationLink = -1; // to the replication log reader (-1: none)
  private long replicationNanos; // ... which reads the new log this often

  // ---- state (snapshot: State) ----
  private long appendLsn;
  private long openStart; // LSN where the open block starts
  private long openCap; // the open block ends before this LSN
  private boolean haveOpen;
  private boolean openCovered; // the open block was opened by a rollback's write, its reservation counted for it
  private int openCoverer = -1; // ... that rollback's session (-1: none, or a checkpoint from before it was kept)
  private int coverFor = -1; // while a rollback's own write is admitted: its session (a block it opens is covered)
  private long hardenedLsn;
  private long flushTarget;
  private long writeTag;
  private int inflight;
  private long inflightBytes;
  private int activeTxns;
  private int openSessions;
  private boolean spaceWaiting;
  private boolean pendingBegun; // the oldest pending request's begin record is logged
  private long pendingDone; // ... and this many of its records
  private LongRing pending = new LongRing(6, 16);
  private LongRing waiters = new LongRing(3, 1024);
  private boolean ackDetails; // configuration: ACKs carry LogProtocol.ackDetails
  private boolean lazyCommitsSent; // configuration: sessions may send commits that do not wait (answered APPENDED)
  private boolean statementReplies; // configuration: sessions send statements that wait for their append (LOGGED)
  private long hardenedBytes; // bytes of the writes of the completion being acknowledged (with ackDetails)
  private LongRing lazy = new LongRing(2, 64); // commits that did not wait, not hardened: LSN, when told
  private LongRing closed = new LongRing(2, 16);
  private LongRing writing = new LongRing(5, 64);
  private LongRing flushRequests = new LongRing(2, 4); // session, target LSN
  private LongRing checkpoints = new LongRing(2, 4); // session (-1: automatic), LSN of its record
  private boolean checkpointWriting; // the oldest checkpoint is writing data pages
  private long lazyTimer = -1;
  private long checkpointTimer = -1;
  private long sampleTimer = -1;
  private boolean[] failedTxn; // by session: its transaction failed with 9002 (managed log space only)
  private int[] rollback; // by session: ROLLING_BACK after a 9002, | FAILED_OWED: its FAILED reply waits for the end
  // requests of sessions whose rollback after a 9002 is under way, held until it ends (P_KIND .. P_ARRIVAL columns)
  private LongRing held = new LongRing(6, 4);
  private boolean released; // a rollback ended and its session's held requests went to `pending`
  private CrashLedger ledger; // what a crash would leave (null: the run has no crash)
  private boolean down; // crashed: every later event is ignored
  private LogCrash crashed;
  // statistics
  private long records;
  private long recordBytes;
  private long writes;
  private final WriteIntervals writeIntervals = new WriteIntervals(); // per report interval, for the report
  private long pagesWritten;
  private long bytesWritten;
  private long durableCommits;
  private long lazyCommits;
  private long maxUnhardened;
  private long writelogCount;
  private long writelogNanos;
  private long writelogMaxNanos;
  private long logBufferWaits;
  private long logBufferWaitNanos;
  private long flushes; // sp_flush_log requests
  private long checkpointsDone;
  private long logBackups; // BACKUP LOGs asked of the agent
  private boolean heldByGrowth; // the requests waiting now were held by a data-file growth
  // LOGBUFFER is one wait per waiting session: since its first request queued until its last is taken
  private int[] queuedOf; // by session: its requests waiting
  private long[] queuedSince; // by session: since when
  // a restart after a crash (crash step or power loss), while the recovery manager recovers
  private boolean recovering;
  private boolean sessionsGone; // a power loss: nothing more comes from the sessions
  private int crashStepSession = -1; // the session whose crash or restore step waits for recovery (-1: none)
  private long lostWritesUpTo; // log writes numbered up to here were lost in a crash: their completions are ignored
  private long lostDataTagsBelow; // ... and data writes below this tag
  private long hardenFor = -1; // the recovery manager waits for the log hardened up to here (-1: no)
  private long replicationSent; // the log handed to the replication reader up to here
  private boolean replicationBusy;
  private long replicationTimer = -1;

  /**
   * @param deviceLinks link to each device, by the device index that placements ({@link LogSpace}, {@link DataFiles})
   *     use
   * @param poolLinks link to each session pool; session s belongs to pool s / sessionsPerPool
   * @param immediateReplies true if a session may ask for a flush (sys.sp_flush_log): the one request answered without
   *     waiting for a device, when the log is already hardened
   */
  public LogManager(LogConfig cfg, FlushPolicy policy, LogSpace space, DataFiles data, int[] deviceLinks,
      int[] poolLinks, int sessionsPerPool, int sessions, boolean immediateReplies) {
    this.cfg = cfg;
    this.policy = policy;
    this.space = space;
    this.data = data;
    this.deviceLinks = deviceLinks.clone();
    this.poolLinks = poolLinks.clone();
    this.sessionsPerPool = sessionsPerPool;
    this.sessions = sessions;
    this.immediateReplies = immediateReplies;
    this.usable = cfg.usableBytes();
    this.pageBytes = cfg.pageBytes();
    int maxId = 0;
    for (LogSpace.LogFile f : space.files()) maxId = Math.max(maxId, f.fileId());
    if (data != null) maxId = Math.max(maxId, data.config().fileId());
    files = new FileStats[maxId + 1];
    for (LogSpace.LogFile f : space.files()) files[f.fileId()] = new FileStats(f.fileId(), f.name(), "LOG");
    if (data != null) files[data.config().fileId()] = new FileStats(data.config().fileId(), data.config().name(), "ROWS");
    this.openSessions = sessions;
    this.managed = space.tracksTransactions();
    this.sampleNanos = space.sampleIntervalNanos();
    this.failedTxn = managed ? new boolean[sessions] : null;
    this.rollback = new int[sessions];
    this.queuedOf = new int[sessions];
    this.queuedSince = new long[sessions];
    DataConfig dc = data == null ? null : data.config();
    this.dataGrowth = dc == null || dc.growth() == null ? null
        : new DataFileGrowth(dc.growth(), (long) dc.pages() * dc.pageBytes(), dc.baseOffset())
            .withTable(dc.rows(), dc.rowsPerPage());
  }

  /**
   * The server loses power at {@code nanos} (0: never): writes in flight are lost, only the log hardened by then
   * survives, and the log manager takes nothing more.
   */
  public LogManager withCrashAt(long nanos) {
    crashNanos = nanos;
    ledger = nanos > 0 ? new CrashLedger(sessions) : null;
    return this;
  }

  /**
   * Each ACK tells its pool what the session pool's host costs need (docs/commit-path-host-costs.md 5): its place among
   * the commits the same completion acknowledges, how many they are, and the 8 kB pages written for them
   * ({@link LogProtocol#ackDetails}). Off (b = 0) unless the run charges host costs.
   */
  public LogManager withAckDetails() {
    ackDetails = true;
    return this;
  }

  /**
   * The sessions may send commits that do not wait for their flush (a mode their policy does not make wait): each is
   * answered {@link LogProtocol#APPENDED} when its record is appended, which may be as it arrives (the promise to the
   * pools on the sessions' link is then one reply delay).
   */
  public LogManager withLazyCommits() {
    lazyCommitsSent = true;
    return this;
  }

  /**
   * The sessions send statements that wait until their records are appended ({@link LogProtocol#FLAG_REPLY}, answered
   * {@link LogProtocol#LOGGED}): the promise to the pools on the sessions' link is then one reply delay.
   */
  public LogManager withStatementReplies() {
    statementReplies = true;
    return this;
  }

  /** BACKUP LOG steps go to the backup agent at the end of {@code link} (its replies come on {@link LogProtocol#BACKUP_PORT}). */
  public LogManager withBackupAgent(int link) {
    backupLink = link;
    return this;
  }

  /** After the crash, the recovery manager at the end of {@code link} recovers the database (a managed log space). */
  public LogManager withRecoveryManager(int link) {
    if (!managed) throw new SimulationException("log manager: recovery needs the managed log space (its VLFs, MinLSN)");
    recoveryLink = link;
    if (ledger == null && managed) ledger = new CrashLedger(sessions); // what a crash step leaves
    return this;
  }

  /** A replication log reader at the end of {@code link} reads the hardened log every {@code intervalNanos}. */
  public LogManager withReplicationReader(int link, long intervalNanos) {
    replicationLink = link;
    replicationNanos = intervalNanos;
    return this;
  }

  // ------------------------------------------------------------------------------------------------- events

  @Override
  public void start(Context ctx) {
    this.ctx = ctx;
    writeIntervals.start(ctx.endTime());
    policy.start(this);
    if (crashNanos > 0 && crashNanos <= ctx.endTime()) ctx.schedule(crashNanos, TIMER, TIMER_CRASH, 0);
    if (data != null) {
      if (data.config().lazyWriterIntervalNanos() > 0) {
        lazyTimer = ctx.schedule(data.config().lazyWriterIntervalNanos(), TIMER, TIMER_LAZY_WRITER, 0);
      }
      if (data.config().checkpointIntervalNanos() > 0) {
        checkpointTimer = ctx.schedule(data.config().checkpointIntervalNanos(), TIMER, TIMER_CHECKPOINT, 0);
      }
    }
    if (sampleNanos > 0) {
      ctx.record(space.sampleFact());
      sampleTimer = ctx.schedule(sampleNanos, TIMER, TIMER_SPACE_SAMPLE, 0);
    }
    if (replicationLink >= 0) replicationTimer = ctx.schedule(replicationNanos, TIMER, TIMER_REPLICATION, 0);
    pump();
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    this.ctx = ctx;
    if (policyChanged) { // at the first event after the branch's T: the new policy takes over the log as it is
      policyChanged = false;
      switchPolicy();
    }
    if (down) return; // a crashed server takes nothing: completions of lost writes, requests sent before the crash
    if (sessionsGone && ev.port() == LogProtocol.SESSIONS_PORT) return; // sent by sessions before the power loss
    writeIntervals.advance(ctx, ctx.now());
    switch (ev.kind()) {
      case LogProtocol.RECORDS, LogProtocol.COMMIT, LogProtocol.FLUSH, LogProtocol.CHECKPOINT, LogProtocol.CLOSE,
          LogProtocol.DATA_GROW -> offer(ev.kind(), ev.a(), ev.b(), ev.c(), ev.d());
      case LogProtocol.ADMIN -> {
        if (managed && space.isCrashStep((int) ev.b())) {
          crashStep((int) ev.a()); // SHUTDOWN WITH NOWAIT: the server stops and restarts at once
        } else {
          offer(ev.kind(), ev.a(), ev.b(), ev.c(), ev.d());
        }
      }
      case LogProtocol.LOG_BACKUP -> space.release(ev.a());
      case DeviceProtocol.DONE -> completed(ev.a(), ev.b(), (int) ev.c(), (int) ev.d());
      case BackupProtocol.DONE -> space.onLogBackupDone(this);
      case RecoveryProtocol.COMPENSATE -> {
        // a rollback's, sent before a crash ended it, is not the recovery's: dropped
        if ((ev.a() & RecoveryProtocol.OF_ROLLBACK) != 0 && rollback[(int) ev.a()] == 0) break;
        offer(LogProtocol.RECORDS, LogProtocol.recordsA((int) ev.a(), LogProtocol.FLAG_COMPENSATION), ev.b(), ev.c(),
            ev.d());
      }
      case RecoveryProtocol.UNDONE -> {
        if (ev.b() == 1 && rollback[(int) ev.a()] == 0) break; // the same
        offer(LogProtocol.ABORT, ev.a(), rollback[(int) ev.a()] != 0 ? 1 : 0, 0, 0);
      }
      case RecoveryProtocol.HARDEN -> {
        hardenFor = appendLsn;
        flushTo(appendLsn);
        answerHarden();
      }
      case RecoveryProtocol.DONE -> { // recovered: the checkpoint that ends recovery, then the database is online
        if (ev.b() == RecoveryPlan.ROLLBACK) break; // a rollback: its end record is logged (UNDONE), nothing more
        recovering = false;
        offer(LogProtocol.CHECKPOINT, RECOVERY_CHECKPOINT, 0, 0, 0);
        admitPending();
      }
      case ReplicationLogReader.DONE -> {
        replicationBusy = false;
        if (space instanceof ManagedLogSpace m) m.replicated(ev.a()); // what it has read may be truncated
      }
      case TIMER -> {
        if (ev.a() != TIMER_POLICY || ev.c() == policyEpoch) timer(ev.a(), ev.b()); // else the old policy's: void
      }
      default -> throw new SimulationException("log manager: unknown event kind " + ev.kind());
    }
    if (released) { // a rollback ended: what its session sent meanwhile goes on
      released = false;
      admitPending();
    }
    if (managed && space.takeCheckpointRequest()) offer(LogProtocol.CHECKPOINT, -1, 0, 0, 0); // SIMPLE at 70% full
    pump();
  }

  /** A session's request: taken now, or queued behind earlier ones that wait for log buffers or log space. */
  private void offer(int kind, long a, long b, long c, long d) {
    if (pending.isEmpty()) {
      pendingBegun = false;
      pendingDone = 0;
      if (admit(kind, a, b, c, d)) return;
    }
    int session = waiter(kind, a);
    if (session >= 0 && queuedOf[session]++ == 0) queuedSince[session] = now(); // the session starts to wait
    int row = pending.add();
    pending.set(row, P_KIND, kind);
    pending.set(row, P_A, a);
    pending.set(row, P_B, b);
    pending.set(row, P_C, c);
    pending.set(row, P_D, d);
    pending.set(row, P_ARRIVAL, now());
  }

  /** The session a queued request makes wait (-1: none, e.g. an automatic checkpoint). */
  private int waiter(int kind, long a) {
    int session = kind == LogProtocol.RECORDS || kind == LogProtocol.COMMIT ? LogProtocol.session(a)
        : kind == LogProtocol.CHECKPOINT || kind == LogProtocol.ABORT ? -1 : (int) a;
    return session >= 0 && session < queuedOf.length ? session : -1;
  }

  /** Takes the oldest pending requests while the log can. */
  private void admitPending() {
    while (!pending.isEmpty()) {
      if (!admit((int) pending.first(P_KIND), pending.first(P_A), pending.first(P_B), pending.first(P_C),
          pending.first(P_D))) {
        return;
      }
      int session = waiter((int) pending.first(P_KIND), pending.first(P_A));
      if (session >= 0 && --queuedOf[session] == 0 && !heldByGrowth) {
        // one LOGBUFFER wait per session and wait: from its first request queued to its last taken (a data-file
        // growth's wait is data.growthStallMs instead)
        logBufferWaits++;
        logBufferWaitNanos += now() - queuedSince[session];
      }
      pending.removeFirst();
      pendingBegun = false;
      pendingDone = 0;
    }
    heldByGrowth = false;
  }

  /**
   * Carries out a request, resuming where it stopped ({@link #pendingBegun}, {@link #pendingDone}); false if it must
   * wait (no free log buffer, or the log space refused), with the progress kept.
   */
  private boolean admit(int kind, long a, long b, long c, long d) {
    if (dataGrowth != null && dataGrowth.stalled()) { // a data-file growth is being zeroed
      heldByGrowth = true;
      return false;
    }
    if (managed) {
      if (heldBehindRollback(kind, a, b, c, d)) return true;
      if ((kind == LogProtocol.RECORDS || kind == LogProtocol.COMMIT) && droppedAfterFailure(kind, a)) return true;
      if (admitting(kind, a, b, c, d)) return true;
      if (!space.full()) return false;
      if (rollbackWrite(kind, a, b)) return true;
      fail(kind, a); // error 9002: the statement fails, the run goes on
      return true;
    }
    return admitting(kind, a, b, c, d);
  }

  /**
   * A request of a transaction that failed with 9002 is dropped (its session sent it before it learnt); a commit ends
   * the failed transaction and tells the session. A request that begins a transaction starts afresh.
   */
  private boolean droppedAfterFailure(int kind, long a) {
    int session = LogProtocol.session(a);
    if (!failedTxn[session]) return false;
    long flags = LogProtocol.flags(a);
    if ((flags & LogProtocol.FLAG_COMPENSATION) != 0 && rollback[session] != 0) return false; // its rollback's
    if ((flags & LogProtocol.FLAG_BEGIN) != 0) { // its next transaction (a commit alone may begin one)
      failedTxn[session] = false;
      return false;
    }
    // a commit waits for its flush or for its append, a statement for its append: either way it is told, and the
    // failed transaction is over (a session told at its statement sends no commit for it). What its statement sent
    // after it (a large update's page splits, stamped with its last records) is still the failed one's: dropped until
    // the session's next transaction begins
    if (kind == LogProtocol.COMMIT || (flags & LogProtocol.FLAG_REPLY) != 0) {
      failedTxn[session] = kind != LogProtocol.COMMIT;
      activeTxns--;
      if (rollback[session] != 0) {
        rollback[session] |= FAILED_OWED; // told when its rollback is done
      } else {
        replyStatement(session, LogProtocol.FAILED);
      }
    }
    return true;
  }

  /**
   * A rollback's own write (a compensation record, its end record) that a full log refused although its reservation
   * should have made room (a block no larger than the reservation, {@link #openBlock}): only when the reservation
   * falls short of what the rollback writes (rollbackReservationFactor below 1, or a rollback's blocks padded more
   * than its slack). It is not logged (counted, and said in the space's messages); the rollback ends as it would.
   * False: not a rollback's.
   */
  private boolean rollbackWrite(int kind, long a, long b) {
    int session = kind == LogProtocol.ABORT ? (int) a : LogProtocol.session(a);
    boolean compensation = kind == LogProtocol.RECORDS && (LogProtocol.flags(a) & LogProtocol.FLAG_COMPENSATION) != 0;
    if (session < 0 || session >= rollback.length || rollback[session] == 0) return false;
    if (!(compensation || kind == LogProtocol.ABORT && b == 1)) return false;
    spaceWaiting = false;
    if (space instanceof ManagedLogSpace m) m.rollbackNotLogged(this, session, compensation ? 1 : 0);
    if (kind == LogProtocol.ABORT) rolledBackAfterFull(session);
    return true;
  }

  /**
   * The rollback after a 9002 is done: its end record is logged; a commit that waited is told it failed; what its
   * session sent meanwhile goes on, in order, behind the requests already waiting.
   */
  private void rolledBackAfterFull(int session) {
    space.rolledBack(session);
    if ((rollback[session] & FAILED_OWED) != 0) replyStatement(session, LogProtocol.FAILED);
    rollback[session] = 0;
    LongRing keep = new LongRing(6, 4);
    while (!held.isEmpty()) {
      long[] row = new long[6];
      for (int k = 0; k < 6; k++) row[k] = held.first(k);
      held.removeFirst();
      LongRing to = requester((int) row[P_KIND], row[P_A]) == session ? pending : keep;
      int r = to.add();
      for (int k = 0; k < 6; k++) to.set(r, k, row[k]);
      if (to == pending) {
        int w = waiter((int) row[P_KIND], row[P_A]);
        if (w >= 0 && queuedOf[w]++ == 0) queuedSince[w] = now();
        released = true;
      }
    }
    held = keep;
  }

  /**
   * A session is busy while its statement is rolled back after a 9002 (SQL Server: the session's next batch runs
   * when the rollback is done): what it sends meanwhile that is not of the failed transaction (a new transaction, an
   * administration step, a flush, its close) is held, in order, until the rollback ends ({@link
   * #rolledBackAfterFull}). The failed transaction's own requests still go to {@link #droppedAfterFailure}; the
   * rollback's compensation and end records are the log manager's to write. True: held.
   */
  private boolean heldBehindRollback(int kind, long a, long b, long c, long d) {
    int session = requester(kind, a);
    if (session < 0 || session >= rollback.length || rollback[session] == 0) return false;
    boolean holding = false;
    for (int r = 0; r < held.size() && !holding; r++) {
      holding = requester((int) held.get(r, P_KIND), held.get(r, P_A)) == session;
    }
    if (!holding) {
      if (kind == LogProtocol.RECORDS || kind == LogProtocol.COMMIT) {
        long flags = LogProtocol.flags(a);
        if ((flags & LogProtocol.FLAG_COMPENSATION) != 0) return false; // the rollback's own
        boolean newTxn = (flags & LogProtocol.FLAG_BEGIN) != 0; // (a commit alone may begin one)
        if (failedTxn[session] && !newTxn) return false; // the failed transaction's: dropped, or its commit ends it
      }
    }
    int r = held.add();
    held.set(r, P_KIND, kind);
    held.set(r, P_A, a);
    held.set(r, P_B, b);
    held.set(r, P_C, c);
    held.set(r, P_D, d);
    held.set(r, P_ARRIVAL, pendingArrival());
    return true;
  }

  /** The session that sent a request (-1: none, e.g. an automatic checkpoint, a data-file growth, an end record). */
  private static int requester(int kind, long a) {
    return switch (kind) {
      case LogProtocol.RECORDS, LogProtocol.COMMIT -> LogProtocol.session(a);
      case LogProtocol.ADMIN, LogProtocol.FLUSH, LogProtocol.CLOSE -> (int) a;
      case LogProtocol.CHECKPOINT -> a >= 0 ? (int) a : -1;
      default -> -1;
    };
  }

  /**
   * The log is full: the request that asked for space fails (9002); its transaction is rolled back. With a recovery
   * manager, as SQL Server rolls back (REFERENCE.md 1, 3): the transaction's log read backward, a compensation record
   * per change written through this log manager into the space its reservation holds, then its end record; the
   * commit (one that waits for its flush or only for its append) is told FAILED only then. Without one, at once.
   */
  private void fail(int kind, long a) {
    spaceWaiting = false; // the next request asks again (a truncation may have freed space by then)
    if ((kind == LogProtocol.RECORDS || kind == LogProtocol.COMMIT) && rollback[LogProtocol.session(a)] != 0) {
      // a request of a session whose rollback is under way: its own writes are rollbackWrite's, the failed
      // transaction's are dropped, anything else is held until the rollback ends (heldBehindRollback): none comes here
      throw new SimulationException("log manager: the rollback of session " + LogProtocol.session(a)
          + "'s transaction after 9002 found no log space (its reservation did not cover it): request " + kind
          + " flags " + LogProtocol.flags(a) + " at " + now() + ", " + space.sampleFact());
    }
    switch (kind) {
      case LogProtocol.RECORDS, LogProtocol.COMMIT -> {
        int session = LogProtocol.session(a);
        boolean undo = recoveryLink >= 0 && space instanceof ManagedLogSpace;
        if (undo) {
          space.failing(this, session);
          // the statement that failed began the transaction and none of its records is in the log: its rollback has
          // nothing to undo and no end record to log (assumption, REFERENCE.md does not say: SQL Server logs a
          // transaction's begin with its first change)
          boolean nothing = (LogProtocol.flags(a) & LogProtocol.FLAG_BEGIN) != 0 && pendingDone == 0
              && (!pendingBegun || cfg.beginRecordBytes() <= 0);
          rollback[session] = ROLLING_BACK | (nothing ? NOTHING_LOGGED : 0);
          ctx.send(recoveryLink, now() + cfg.deviceLinkNanos(), RecoveryProtocol.RECOVER, 0, 0, 0, 0,
              RecoveryPlan.ofRollback((ManagedLogSpace) space, session));
        } else {
          space.failed(this, session);
        }
        if (ledger != null) ledger.rolledBack(session);
        if (!pendingBegun && (LogProtocol.flags(a) & LogProtocol.FLAG_BEGIN) != 0) activeTxns++; // counted as begun
        // a commit (waiting for its flush or only for its append) or a statement waiting for its append: told
        if (kind == LogProtocol.COMMIT || (LogProtocol.flags(a) & LogProtocol.FLAG_REPLY) != 0) {
          activeTxns--;
          if (undo) {
            rollback[session] |= FAILED_OWED;
          } else {
            replyStatement(session, LogProtocol.FAILED);
          }
        }
        // what a statement sent after the records that failed (its later chunks, its page splits) is dropped, until
        // the session's next transaction begins
        if (kind != LogProtocol.COMMIT) failedTxn[session] = true;
      }
      case LogProtocol.CHECKPOINT -> {
        if (a >= 0) replyStatement((int) a, LogProtocol.CHECKPOINTED);
      }
      default -> throw new SimulationException("log manager: request " + kind + " cannot fail for log space");
    }
  }

  private boolean admitting(int kind, long a, long b, long c, long d) {
    switch (kind) {
      case LogProtocol.RECORDS -> {
        long flags = LogProtocol.flags(a);
        if (!begin(flags, a)) return false;
        boolean compensation = (flags & LogProtocol.FLAG_COMPENSATION) != 0;
        if (managed && !compensation && LogProtocol.compensationBytes(a) > 0 && haveOpen && openCovered) {
          // records that reserve do not go into a block a rollback's reservation paid for (its accounting counted no
          // reservation for them): the block is closed, the next one is reserved as any other
          if (appendLsn == openStart) haveOpen = false; else closeOpen();
        }
        while (pendingDone < d) {
          coverFor = managed && compensation ? LogProtocol.session(a) : -1;
          long left;
          try {
            left = append(b, d - pendingDone);
          } finally {
            coverFor = -1;
          }
          long done = d - pendingDone - left;
          if (managed && done > 0) {
            if (compensation) space.compensated(LogProtocol.session(a), done, appendLsn);
            space.logged(LogProtocol.session(a), done * b, (flags & LogProtocol.FLAG_COMPENSATION) != 0,
                done * LogProtocol.compensationBytes(a));
            if ((flags & LogProtocol.FLAG_COMPENSATION) == 0 && LogProtocol.compensationBytes(a) > 0) {
              space.changed(LogProtocol.session(a), c >= 0 ? c + pendingDone : -1, done,
                  (int) LogProtocol.compensationBytes(a));
            }
          }
          if (data != null && c >= 0 && done > 0) data.changed(c + pendingDone, done, appendLsn);
          pendingDone += done;
          if (left > 0) return false;
        }
        if ((flags & LogProtocol.FLAG_REPLY) != 0) reply(LogProtocol.session(a), LogProtocol.LOGGED);
        return true;
      }
      case LogProtocol.COMMIT -> {
        long flags = LogProtocol.flags(a);
        if (!begin(flags, a)) return false;
        if (append(b, 1) != 0) return false;
        if (managed) space.end(LogProtocol.session(a));
        commit(LogProtocol.session(a), (flags & LogProtocol.FLAG_WAITS) != 0);
        return true;
      }
      case LogProtocol.CHECKPOINT -> {
        // a checkpoint always logs a record and waits for its write: so it completes on a device completion (the
        // promise to the sessions), and its record follows every change whose page it writes
        if (append(Math.max(1, cfg.checkpointRecordBytes()), 1) != 0) return false;
        checkpoints.add(a, appendLsn);
        if (ledger != null) ledger.checkpointLogged();
        flushTo(appendLsn);
        return true;
      }
      case LogProtocol.FLUSH -> {
        flushes++;
        if (hardenedLsn >= appendLsn) {
          reply((int) a, LogProtocol.FLUSHED);
        } else {
          flushRequests.add(a, appendLsn);
          flushTo(appendLsn);
        }
        return true;
      }
      case LogProtocol.DATA_GROW -> {
        if (dataGrowth != null && c > 0) {
          dataGrowth.grow(this, c, d); // the rows' pages split, the file may grow
        } else if (dataGrowth != null) {
          dataGrowth.use(this, b);
        }
        return true;
      }
      case LogProtocol.ABORT -> { // recovery rolled the session's transaction back: its end record
        if (b == 1 && (rollback[(int) a] & NOTHING_LOGGED) != 0) { // nothing of it in the log: nothing to end there
          rolledBackAfterFull((int) a);
          return true;
        }
        coverFor = (int) a; // the end record of the rollback is in its reservation too
        long left;
        try {
          left = append(Math.max(1, cfg.beginRecordBytes()), 1);
        } finally {
          coverFor = -1;
        }
        if (left != 0) return false;
        if (b == 1) { // the rollback after a 9002: the transaction was already counted as ended
          rolledBackAfterFull((int) a);
          return true;
        }
        space.rolledBack((int) a);
        if (ledger != null) ledger.rolledBack((int) a);
        activeTxns = Math.max(0, activeTxns - 1);
        return true;
      }
      case LogProtocol.CLOSE -> {
        openSessions--;
        if (cfg.flushOnClose()) flushTo(appendLsn);
        if (openSessions == 0) { // the database goes quiet: no more automatic checkpoints or lazy writing
          if (checkpointTimer >= 0) ctx.cancel(checkpointTimer);
          if (lazyTimer >= 0) ctx.cancel(lazyTimer);
          if (sampleTimer >= 0) ctx.cancel(sampleTimer);
          sampleTimer = -1;
          if (sampleNanos > 0) ctx.record(space.sampleFact());
          checkpointTimer = -1;
          lazyTimer = -1;
        }
        return true;
      }
      case LogProtocol.ADMIN -> {
        if (space.admin(this, (int) a, (int) b)) replyStatement((int) a, LogProtocol.ADMIN_DONE);
        return true;
      }
      default -> throw new SimulationException("log manager: unknown request " + kind);
    }
  }

  /** The begin record of a transaction (once, if the request begins one and the engine logs one). */
  private boolean begin(long flags, long a) {
    if ((flags & LogProtocol.FLAG_BEGIN) == 0 || pendingBegun) return true;
    if (managed) {
      // the transaction's rollback would write its end record (as long as a begin record) and pad its last block to
      // a whole page (REFERENCE.md 2: a log block is whole 512 B sectors): reserved with its first record
      space.begin(LogProtocol.session(a), appendLsn, Math.max(1, cfg.beginRecordBytes()) + pageBytes);
      // a transaction that reserves does not begin in a block a rollback's reservation paid for (as its records do
      // not: below); its begin record there used the rollback's room, a page per failed statement in a full log
      if (haveOpen && openCovered && (LogProtocol.flags(a) & LogProtocol.FLAG_COMPENSATION) == 0) {
        if (appendLsn == openStart) haveOpen = false; else closeOpen();
      }
    }
    if (ledger != null) ledger.begin(LogProtocol.session(a), appendLsn);
    if (cfg.beginRecordBytes() > 0 && append(cfg.beginRecordBytes(), 1) != 0) return false;
    activeTxns++;
    pendingBegun = true;
    return true;
  }

  /**
   * A commit record is appended: a commit that waits is acknowledged when it is hardened; one that does not is
   * answered now (its commit returns once its record is in the log buffer, REFERENCE.md 2), and its session learns
   * of it one reply delay later.
   */
  private void commit(int session, boolean waits) {
    if (ledger != null) ledger.committed(session, appendLsn);
    if (waits) {
      waiters.add(session, appendLsn, pendingArrival());
      durableCommits++;
    } else {
      long told = now() + cfg.replyNanos();
      ctx.send(poolLinks[session / sessionsPerPool], told, LogProtocol.APPENDED, session, 0);
      lazy.add(appendLsn, told);
      lazyCommits++;
      activeTxns--;
      if (lazy.size() > maxUnhardened) maxUnhardened = lazy.size();
    }
    policy.onCommit(this, waits);
  }

  /** When the request being admitted arrived: now, or when it was queued. */
  private long pendingArrival() {
    return pending.isEmpty() ? now() : pending.first(P_ARRIVAL);
  }

  // ------------------------------------------------------------------------------------------------- blocks

  /** Appends {@code n} records of {@code bytes} each; returns how many did not fit (no free buffer or no space). */
  private long append(long bytes, long n) {
    long done = 0;
    while (done < n) {
      if (!haveOpen && !openBlock()) break;
      long fit = (openCap - appendLsn) / bytes;
      if (fit == 0) {
        if (appendLsn == openStart) {
          throw new SimulationException("log manager: a record of " + bytes + " B does not fit in a log block of "
              + (openCap - openStart) + " B");
        }
        closeOpen();
        continue;
      }
      long take = Math.min(fit, n - done);
      appendLsn += take * bytes;
      done += take;
    }
    records += done;
    recordBytes += done * bytes;
    return n - done;
  }

  /** Opens a block at {@link #appendLsn} if a log buffer is free and the log space allows it. */
  private boolean openBlock() {
    // a rollback's own write asks even while others wait for space: its reservation may cover it
    if ((spaceWaiting && coverFor < 0) || closed.size() + inflight + 1 > cfg.logBuffers()) return false;
    long firstPage = openStart / usable;
    long pages = cfg.maxBlockPages();
    boolean room = coverFor >= 0 ? space.reserve(this, (firstPage + pages) * pageBytes, coverFor)
        : space.reserve(this, (firstPage + pages) * pageBytes);
    if (!room && coverFor >= 0 && space.full()) {
      // a full log: a rollback's block takes no more than its reservation holds (a log block is 512 B to 60 KB), so
      // the reservation alone makes room for it. Asking a whole 60 KB block of a full log refused a small
      // transaction's rollback, whose reservation is a few pages
      long held = Math.max(1, space.rollbackReserved(coverFor) / pageBytes);
      if (held < pages) {
        pages = held;
        room = space.reserve(this, (firstPage + pages) * pageBytes, coverFor);
      }
    }
    if (!room) {
      spaceWaiting = true;
      return false;
    }
    if (coverFor >= 0) spaceWaiting = false;
    openCap = (firstPage + pages) * usable;
    haveOpen = true;
    openCovered = coverFor >= 0;
    openCoverer = coverFor;
    return true;
  }

  /** Closes the open block (it waits for its write); the next records go into a new block, when a buffer is free. */
  private void closeOpen() {
    long recordsEnd = appendLsn;
    if (cfg.flushClosesPage()) appendLsn = ceilDiv(appendLsn, usable) * usable; // the rest of the page is padding
    // a rollback's block: its padding is log the rollback uses, out of its reservation like its records (else the
    // used log and the reservations would outgrow the log by a page per block); once the rollback is done its
    // reservation is gone, and the session may have begun a new transaction whose reservation is not the rollback's
    if (openCovered && openCoverer >= 0 && rollback[openCoverer] != 0 && appendLsn > recordsEnd) {
      space.padded(openCoverer, appendLsn - recordsEnd);
    }
    closed.add(openStart, appendLsn); // the padding is the block's: once written, everything before the next is hard
    openStart = appendLsn;
    haveOpen = false;
    openCovered = false;
    openCoverer = -1;
    openBlock();
  }

  /** Issues writes while the outstanding-write limit allows: waiting blocks first, then the open one if flushed. */
  private void pump() {
    while (inflight < cfg.maxOutstandingWrites()) {
      if (closed.isEmpty()) {
        if (!haveOpen || flushTarget <= openStart || appendLsn == openStart) return;
        if (!fits(blockBytes(openStart, appendLsn))) return;
        closeOpen();
      }
      long start = closed.first(Q_START), end = closed.first(Q_END);
      if (!fits(blockBytes(start, end))) return;
      closed.removeFirst();
      write(start, end);
    }
  }

  private boolean fits(long bytes) {
    return inflight == 0 || inflightBytes + bytes <= cfg.maxOutstandingBytes();
  }

  private long blockBytes(long start, long end) {
    return (ceilDiv(end, usable) - start / usable) * pageBytes;
  }

  private void write(long start, long end) {
    long firstPage = start / usable;
    long pages = ceilDiv(end, usable) - firstPage;
    long bytes = pages * pageBytes;
    List<LogSpace.Segment> segments = space.place(firstPage * pageBytes, bytes);
    if (segments.isEmpty() || segments.size() >= 1 << SEGMENT_BITS) {
      throw new SimulationException("log manager: a write placed in " + segments.size() + " segments");
    }
    long tag = ++writeTag;
    long now = now();
    int parts = segments.size();
    for (int k = 0; k < segments.size(); k++) {
      LogSpace.Segment seg = segments.get(k);
      ctx.send(deviceLinks[seg.device()], now + cfg.deviceLinkNanos(), DeviceProtocol.WRITE,
          tag << SEGMENT_BITS | k, seg.bytes(), seg.deviceOffset(), seg.fileId());
    }
    if (cfg.flushAfterWrite()) { // fsync: a flush of every device written, sent with the writes; the device orders it
      for (int k = 0; k < segments.size(); k++) {
        LogSpace.Segment seg = segments.get(k);
        boolean first = true;
        for (int j = 0; j < k; j++) first &= segments.get(j).device() != seg.device();
        if (!first) continue;
        ctx.send(deviceLinks[seg.device()], now + cfg.deviceLinkNanos(), DeviceProtocol.FLUSH,
            tag << SEGMENT_BITS | parts, 0, seg.deviceOffset(), seg.fileId());
        parts++;
      }
      if (parts >= 1 << SEGMENT_BITS) throw new SimulationException("log manager: a write of " + parts + " requests");
    }
    int row = writing.add();
    writing.set(row, F_TAG, tag);
    writing.set(row, F_END, end);
    writing.set(row, F_BYTES, bytes);
    writing.set(row, F_ISSUED, now);
    writing.set(row, F_PARTS, parts);
    inflight++;
    inflightBytes += bytes;
    writes++;
    pagesWritten += pages;
    bytesWritten += bytes;
    writeIntervals.wrote(pages, bytes);
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }

  // ------------------------------------------------------------------------------------------------- completions

  private void completed(long tag, long bytes, int requestKind, int fileId) {
    if (tag < SPACE_TAGS && tag >= DATA_TAGS && tag < lostDataTagsBelow) return; // a data write lost in a crash
    if (tag < DATA_TAGS && (tag >>> SEGMENT_BITS) <= lostWritesUpTo) return; // a log write lost in a crash
    if (tag >= DATA_GROWTH_TAGS) {
      if (dataGrowth.zeroed(this)) admitPending(); // the growth is zeroed: what waited goes on
      return;
    }
    if (tag >= SPACE_TAGS) {
      space.onZeroDone(this, tag - SPACE_TAGS);
      return;
    }
    if (tag >= DATA_TAGS) {
      dataWriteDone(tag);
      return;
    }
    long write = tag >>> SEGMENT_BITS;
    if (writing.isEmpty() || write < writing.first(F_TAG) || write - writing.first(F_TAG) >= writing.size()
        || writing.get((int) (write - writing.first(F_TAG)), F_PARTS) <= 0) {
      throw new SimulationException("log manager: unexpected completion of log write " + write);
    }
    int row = (int) (write - writing.first(F_TAG));
    if (requestKind == DeviceProtocol.WRITE) fileStats(fileId).wrote(bytes, now() - writing.get(row, F_ISSUED));
    long parts = writing.get(row, F_PARTS) - 1;
    writing.set(row, F_PARTS, parts);
    if (parts > 0) return; // other segments of the write are still on their way
    inflight--;
    inflightBytes -= writing.get(row, F_BYTES);
    long before = hardenedLsn;
    hardenedBytes = 0;
    while (!writing.isEmpty() && writing.first(F_PARTS) == 0) {
      hardenedLsn = Math.max(hardenedLsn, writing.first(F_END));
      hardenedBytes += writing.first(F_BYTES);
      writing.removeFirst();
    }
    if (hardenedLsn > before) hardened();
    answerHarden();
    admitPending(); // a log buffer is free again
    policy.onHardened(this);
  }

  /** The log is hardened up to {@link #hardenedLsn}: acknowledge, answer and go on with what waited for it. */
  private void hardened() {
    long now = now();
    int acked = 0;
    int toAck = 0;
    if (ackDetails) while (toAck < waiters.size() && waiters.get(toAck, W_LSN) <= hardenedLsn) toAck++;
    long writeUnits = ackDetails ? ceilDiv(hardenedBytes, LogProtocol.HOST_WRITE_UNIT_BYTES) : 0; // host costs
    while (!waiters.isEmpty() && waiters.first(W_LSN) <= hardenedLsn) {
      int session = (int) waiters.first(W_SESSION);
      long waited = now - waiters.first(W_ARRIVAL);
      writelogCount++;
      writelogNanos += waited;
      if (waited > writelogMaxNanos) writelogMaxNanos = waited;
      ctx.send(poolLinks[session / sessionsPerPool], now + cfg.replyNanos(), LogProtocol.ACK, session,
          ackDetails ? LogProtocol.ackDetails(acked, toAck, writeUnits) : 0);
      activeTxns--;
      waiters.removeFirst();
      acked++;
    }
    int lazyHardened = 0;
    while (!lazy.isEmpty() && lazy.first(0) <= hardenedLsn) {
      lazy.removeFirst();
      lazyHardened++;
    }
    while (!flushRequests.isEmpty() && flushRequests.first(1) <= hardenedLsn) {
      int session = (int) flushRequests.first(0);
      // with host costs the flusher's pages (its write's CPU), as an ACK's details
      ctx.send(poolLinks[session / sessionsPerPool], now + cfg.replyNanos(), LogProtocol.FLUSHED, session,
          ackDetails ? LogProtocol.ackDetails(0, 0, writeUnits) : 0);
      flushRequests.removeFirst();
    }
    if (ledger != null) ledger.hardened(hardenedLsn);
    ctx.record(new LogHardened(hardenedLsn, acked, lazyHardened, lazy.size()));
    startCheckpointIfHardened();
  }

  /** A log file's statistics (a file the log space added later gets its own). */
  private FileStats fileStats(int fileId) {
    if (fileId >= files.length) files = Arrays.copyOf(files, fileId + 1);
    if (files[fileId] == null) files[fileId] = new FileStats(fileId, "log-" + fileId, "LOG");
    return files[fileId];
  }

  private void reply(int session, int kind) {
    ctx.send(poolLinks[session / sessionsPerPool], now() + cfg.replyNanos(), kind, session, 0);
  }

  /** The answer to a log administration statement or a statement failing with 9002: it takes the statement's time. */
  private void replyStatement(int session, int kind) {
    ctx.send(poolLinks[session / sessionsPerPool], now() + cfg.replyNanos() + space.statementNanos(), kind, session,
        0);
  }

  // ------------------------------------------------------------------------------------------------- checkpoints

  /** The oldest checkpoint's record is hardened: write the dirty pages (write-ahead logging holds for them all). */
  private void startCheckpointIfHardened() {
    if (checkpointWriting || checkpoints.isEmpty() || checkpoints.first(1) > hardenedLsn) return;
    if (data == null) {
      checkpointDone();
      return;
    }
    checkpointWriting = true;
    data.startCheckpoint(this);
    if (data.finishIfEmpty()) checkpointDone();
  }

  private void checkpointDone() {
    long session = checkpoints.first(0);
    if (managed) space.onCheckpoint(this, checkpoints.first(1));
    checkpoints.removeFirst();
    checkpointWriting = false;
    checkpointsDone++;
    ctx.record(new CheckpointCompleted(session, hardenedLsn));
    if (ledger != null) ledger.checkpointed();
    if (session >= 0) reply((int) session, LogProtocol.CHECKPOINTED);
    if (session == RECOVERY_CHECKPOINT && crashStepSession >= 0) { // recovered: the crash step is done
      replyStatement(crashStepSession, LogProtocol.ADMIN_DONE);
      crashStepSession = -1;
    }
    startCheckpointIfHardened();
  }

  /** {@link #rollback}'s flags. */
  static final int ROLLING_BACK = 1, FAILED_OWED = 2, NOTHING_LOGGED = 4;

  /** The checkpoint that ends recovery (its requester). */
  static final long RECOVERY_CHECKPOINT = -2;

  private void dataWriteDone(long tag) {
    if (data == null || !data.owns(tag)) throw new SimulationException("log manager: unexpected data write " + tag);
    if (data.onWriteDone(this, tag)) checkpointDone();
  }

  // ------------------------------------------------------------------------------------------------- timers

  private void timer(long which, long code) {
    if (which == TIMER_CRASH) {
      crash();
    } else if (which == TIMER_REPLICATION) {
      replicate();
    } else if (which == TIMER_DATA_HOLD) {
      if (dataGrowth.held(this)) admitPending(); // the growth is over: what waited goes on
    } else if (which == TIMER_POLICY) {
      policy.onTimer(this, code);
    } else if (which == TIMER_LAZY_WRITER) {
      lazyTimer = -1;
      data.lazyWrite(this);
      if (openSessions > 0 || data.dirtyPages() > data.config().lazyWriterThresholdPages()) {
        lazyTimer = ctx.schedule(now() + data.config().lazyWriterIntervalNanos(), TIMER, TIMER_LAZY_WRITER, 0);
      }
    } else if (which == TIMER_SPACE_SAMPLE) {
      sampleTimer = -1;
      ctx.record(space.sampleFact());
      if (openSessions > 0) sampleTimer = ctx.schedule(now() + sampleNanos, TIMER, TIMER_SPACE_SAMPLE, 0);
    } else if (which == TIMER_CHECKPOINT) {
      checkpointTimer = -1;
      offer(LogProtocol.CHECKPOINT, -1, 0, 0, 0);
      if (openSessions > 0) {
        checkpointTimer = ctx.schedule(now() + data.config().checkpointIntervalNanos(), TIMER, TIMER_CHECKPOINT, 0);
      }
    }
  }

  /**
   * Power loss: what is in the log buffers and in flight is gone; the ledger says what recovery will find in the
   * hardened log. The requests waiting for a buffer were never logged. With a recovery manager the server restarts at
   * once and recovers (the sessions are gone); without one, nothing more happens.
   */
  private void crash() {
    int pendingCommits = 0, pendingLazy = 0;
    for (int r = 0; r < pending.size(); r++) {
      if (pending.get(r, P_KIND) != LogProtocol.COMMIT) continue;
      pendingCommits++;
      if ((LogProtocol.flags(pending.get(r, P_A)) & LogProtocol.FLAG_WAITS) == 0) pendingLazy++;
    }
    // a commit that did not wait is acknowledged when its APPENDED reaches its session: one due by now has (a
    // component takes what arrives at an instant before its own timers: the pool's crash is one), a later one not
    int told = 0;
    for (int r = 0; r < lazy.size(); r++) if (lazy.get(r, 1) <= now()) told++;
    crashed = ledger.crash(now(), hardenedLsn, appendLsn, pendingCommits, pendingLazy, told, lazy.size() - told);
    ctx.record(crashed.withoutSessions());
    if (recoveryLink >= 0) { // the server restarts at once and recovers (the sessions are gone)
      sessionsGone = true;
      restart(crashed.rolledForward());
      return;
    }
    ctx.crash();
    down = true;
  }

  /**
   * SHUTDOWN WITH NOWAIT (a crash step of {@code session}'s script): the server stops as on a power loss, restarts at
   * once and recovers; the step ends when recovery's checkpoint is done.
   */
  private void crashStep(int session) {
    long rolledForward = ledger == null ? 0 : ledger.crash(now(), hardenedLsn, appendLsn, 0, 0, 0, 0).rolledForward();
    crashStepSession = session;
    restart(rolledForward);
  }

  /**
   * The server restarts after a crash (REFERENCE.md 3): the log buffers, the writes in flight and the requests waiting
   * are lost, the log ends where it was hardened, and the recovery manager gets the plan: every VLF's header, analysis
   * from the last checkpoint, redo from MinLSN with the data pages it compares, the transactions to roll back. Until
   * it is done, the log manager takes only what recovery writes.
   */
  private void restart(long rolledForward) {
    appendLsn = hardenedLsn;
    openStart = hardenedLsn;
    haveOpen = false;
    openCovered = false;
    openCoverer = -1;
    flushTarget = hardenedLsn;
    closed = new LongRing(2, 16);
    writing = new LongRing(5, 64);
    inflight = 0;
    inflightBytes = 0;
    waiters = new LongRing(3, 1024);
    lazy = new LongRing(2, 64);
    flushRequests = new LongRing(2, 4);
    checkpoints = new LongRing(2, 4);
    checkpointWriting = false;
    pending = new LongRing(6, 16);
    java.util.Arrays.fill(queuedOf, 0);
    pendingBegun = false;
    pendingDone = 0;
    spaceWaiting = false;
    lostWritesUpTo = writeTag;
    java.util.Arrays.fill(rollback, 0); // a rollback under way is recovery's now: its transaction is a loser
    held = new LongRing(6, 4); // the sessions' requests are lost with the server, as those waiting
    released = false;
    if (data != null) lostDataTagsBelow = data.crashed();
    if (ledger != null) ledger.restarted();
    ManagedLogSpace m = (ManagedLogSpace) space;
    m.crashed(hardenedLsn);
    recover(RecoveryPlan.of(m, data, data == null ? -1 : data.config().device(), hardenedLsn, rolledForward,
        pageScale()));
  }

  /** The table's pages as its rows' splits left them (the data file tracks the pages it was loaded with). */
  private double pageScale() {
    return data == null || dataGrowth == null ? 1 : Math.max(1, dataGrowth.pages() / (double) data.config().pages());
  }

  /** The recovery manager carries the plan out; the database has the plan's losers open until it rolls them back. */
  private void recover(RecoveryPlan plan) {
    activeTxns = plan.losers().size();
    recovering = true;
    ctx.send(recoveryLink, now() + cfg.deviceLinkNanos(), RecoveryProtocol.RECOVER, 0, 0, 0, 0, plan);
  }

  /**
   * A restore WITH RECOVERY has replayed the log up to {@code endLsn} (REFERENCE.md 3): the recovery manager recovers
   * it with the same phases as after a crash ({@link RecoveryPlan#ofRestore}), its compensation records written here;
   * the restore step is done when the checkpoint that ends recovery is. The database the restore replaced is gone, so
   * its open transactions are those of the backup's log: the plan's.
   */
  @Override
  public void recoverRestored(int session, long endLsn, long analysisFromLsn) {
    if (recoveryLink < 0) {
      adminDone(session);
      return;
    }
    crashStepSession = session;
    recover(RecoveryPlan.ofRestore((ManagedLogSpace) space, data, data == null ? -1 : data.config().device(), endLsn,
        analysisFromLsn, pageScale()));
  }

  /** The recovery manager waits for its compensation records: answered once they are hardened. */
  private void answerHarden() {
    if (hardenFor < 0 || hardenedLsn < hardenFor) return;
    hardenFor = -1;
    ctx.send(recoveryLink, now() + cfg.deviceLinkNanos(), RecoveryProtocol.HARDENED, hardenedLsn, 0);
  }

  /** The replication log reader's schedule: it reads what was hardened since its last pass, one pass at a time. */
  private void replicate() {
    replicationTimer = openSessions > 0 ? ctx.schedule(now() + replicationNanos, TIMER, TIMER_REPLICATION, 0) : -1;
    if (replicationBusy || recovering || !(space instanceof ManagedLogSpace m)) return;
    long from = Math.max(replicationSent, m.activeStartLsn());
    long to = Math.min(hardenedLsn, m.layout().endLsn());
    if (to <= from) return;
    long at = now() + cfg.deviceLinkNanos();
    for (LogSpace.ReadPiece p : m.readPieces(from, to)) send(at, ReplicationLogReader.PIECE, p, replicationLink);
    ctx.send(replicationLink, at, ReplicationLogReader.END, to, 0);
    replicationSent = to;
    replicationBusy = true;
  }

  // ------------------------------------------------------------------------------------------------- promises

  @Override
  public long inputDelay(int port) {
    return Math.min(cfg.replyNanos(), cfg.deviceLinkNanos());
  }

  @Override
  public long inputDelay(int port, int outLink) {
    if (outLink == backupLink) return cfg.deviceLinkNanos(); // a BACKUP LOG step may be admitted on any event
    if (outLink == recoveryLink) return cfg.deviceLinkNanos(); // the crash (a timer) starts recovery
    if (outLink == replicationLink) return cfg.deviceLinkNanos(); // its schedule (a timer)
    boolean toDevice = false;
    for (int l : deviceLinks) toDevice |= l == outLink;
    if (!toDevice) { // a session pool: replies come from completions (and flushes of a hardened log)
      if (port == LogProtocol.DEVICE_PORT || port == LogProtocol.BACKUP_PORT || port == LogProtocol.RECOVERY_PORT
          || port == LogProtocol.REPLICATION_PORT) {
        return cfg.replyNanos();
      }
      // a commit that does not wait is answered when appended: at once if nothing waits before it; a session's request
      // may also admit what waits (a log administration step that makes room)
      if (port == LogProtocol.SESSIONS_PORT && (immediateReplies || lazyCommitsSent || statementReplies)) {
        return cfg.replyNanos();
      }
      if (port == LogProtocol.SESSIONS_PORT && managed) return cfg.replyNanos() + space.statementNanos();
      if (port == io.tlogsim.kernel.Context.SELF_PORT && (managed || dataGrowth != null)) return cfg.replyNanos();
      return VirtualTime.NEVER;
    }
    if (port == LogProtocol.SESSIONS_PORT) { // a managed log space may zero (grow) on any request
      return managed || dataGrowth != null || inflight < cfg.maxOutstandingWrites() ? cfg.deviceLinkNanos()
          : VirtualTime.NEVER;
    }
    return cfg.deviceLinkNanos();
  }

  // ------------------------------------------------------------------------------------------------- FlushControl

  @Override
  public long now() {
    return ctx.now();
  }

  @Override
  public long appendLsn() {
    return appendLsn;
  }

  @Override
  public long hardenedLsn() {
    return hardenedLsn;
  }

  @Override
  public void flushTo(long lsn) {
    if (lsn > flushTarget) flushTarget = lsn;
  }

  @Override
  public boolean flushing() {
    return inflight > 0 || flushTarget > hardenedLsn;
  }

  @Override
  public int waitingCommits() {
    return waiters.size();
  }

  @Override
  public int lazyCommits() {
    return lazy.size();
  }

  @Override
  public int activeTransactions() {
    return activeTxns;
  }

  @Override
  public boolean sessionsOpen() {
    return openSessions > 0;
  }

  @Override
  public long schedule(long at, long code) {
    return ctx.schedule(at, TIMER, TIMER_POLICY, code, policyEpoch, 0, null);
  }

  /**
   * A branch's switch of flush policy (restored from a state another policy, or other settings of it, left), at the
   * first event after T, before that event is handled. Nothing of the old policy goes on: its timers are void (a new
   * epoch), its state is dropped. The new one starts as at a run's start ({@link FlushPolicy#start}: a periodic
   * flusher's timer on its grid from time 0, where a run that had it from the start has it), and the commits that
   * wait for a flush nobody has asked for yet (the old policy's pending group: LSN beyond the flush target) are handed
   * to it as commits arriving now, in their order. Commits a flush already covers keep waiting for it.
   */
  private void switchPolicy() {
    policyEpoch++;
    policy.start(this);
    for (int i = 0; i < waiters.size(); i++) {
      if (waiters.get(i, W_LSN) > flushTarget) policy.onCommit(this, true);
    }
  }

  @Override
  public boolean cancel(long handle) {
    return ctx.cancel(handle);
  }

  // ------------------------------------------------------------------------------------------------- hosts

  @Override
  public void zero(int device, long deviceOffset, long bytes, int fileId, long tag) {
    ctx.send(deviceLinks[device], now() + cfg.deviceLinkNanos(), DeviceProtocol.ZERO, SPACE_TAGS + tag, bytes,
        deviceOffset, fileId);
  }

  @Override
  public void holdData(long nanos) {
    ctx.schedule(now() + nanos, TIMER, TIMER_DATA_HOLD, 0);
  }

  @Override
  public void zeroData(long deviceOffset, long bytes, long tag) {
    ctx.send(deviceLinks[data.config().device()], now() + cfg.deviceLinkNanos(), DeviceProtocol.ZERO,
        DATA_GROWTH_TAGS + tag, bytes, deviceOffset, data.config().fileId());
  }

  @Override
  public void record(Object fact) {
    ctx.record(fact);
  }

  /** BACKUP LOG: the pieces of the log to read, each with its VLF's header first, as the read path sends them. */
  @Override
  public void backupLog(List<LogSpace.ReadPiece> pieces) {
    if (backupLink < 0) throw new SimulationException("log manager: BACKUP LOG, but the run has no backup agent");
    long at = now() + cfg.deviceLinkNanos();
    ctx.send(backupLink, at, BackupProtocol.BEGIN, logBackups, BackupProtocol.LOG, 0, 0);
    for (LogSpace.ReadPiece p : pieces) send(at, BackupProtocol.PIECE, p, backupLink);
    ctx.send(backupLink, at, BackupProtocol.END, logBackups, 0);
    logBackups++;
  }

  /** A backup of {@code type} with its history rows: the pieces to read, as {@link #backupLog} sends them. */
  @Override
  public void backup(int type, List<LogSpace.ReadPiece> pieces, long historyRows) {
    if (backupLink < 0) throw new SimulationException("log manager: a backup, but the run has no backup agent");
    long at = now() + cfg.deviceLinkNanos();
    ctx.send(backupLink, at, BackupProtocol.BEGIN, logBackups, type, historyRows, 0);
    for (LogSpace.ReadPiece p : pieces) {
      if (p.headerOffset() < 0) { // the data file: no VLF header
        ctx.send(backupLink, at, BackupProtocol.PIECE, -1, p.deviceOffset(), p.bytes(),
            p.fileId() | ((long) p.device() << 32));
      } else {
        send(at, BackupProtocol.PIECE, p, backupLink);
      }
    }
    ctx.send(backupLink, at, BackupProtocol.END, logBackups, 0);
    logBackups++;
  }

  /** A restore: its steps to the backup agent (REFERENCE.md 1). */
  @Override
  public void restore(LogSpace.RestorePlan plan) {
    if (backupLink < 0) throw new SimulationException("log manager: a restore, but the run has no backup agent");
    long at = now() + cfg.deviceLinkNanos();
    ctx.send(backupLink, at, BackupProtocol.BEGIN, logBackups, plan.type(), 0, 0);
    for (LogSpace.FileZero z : plan.zeros()) {
      ctx.send(backupLink, at, BackupProtocol.ZERO_FILL, z.offset(), z.bytes(), z.position(),
          z.fileId() | ((long) z.device() << 32));
    }
    for (LogSpace.Copy c : plan.copies()) {
      ctx.send(backupLink, at, BackupProtocol.COPY, c.sourceOffset(), c.bytes(), c.offset(),
          c.fileId() | ((long) c.device() << 32));
    }
    if (plan.pages() > 0) {
      ctx.send(backupLink, at, BackupProtocol.PAGES, plan.pagesOffset(), plan.pages(), 0,
          plan.pagesFileId() | ((long) plan.pagesDevice() << 32));
    }
    ctx.send(backupLink, at, BackupProtocol.END, logBackups, 0);
    logBackups++;
  }

  @Override
  public int dataDevice() {
    return data == null ? -1 : data.config().device();
  }

  @Override
  public long dataBaseOffset() {
    return data == null ? 0 : data.config().baseOffset();
  }

  @Override
  public long dataFileBytes() {
    if (data == null) return 0;
    return dataGrowth != null ? dataGrowth.stats().sizeBytes() : (long) data.config().pages() * data.config().pageBytes();
  }

  @Override
  public long dataUsedBytes() {
    if (data == null) return 0;
    return dataGrowth != null ? dataGrowth.stats().usedBytes() : (long) data.config().pages() * data.config().pageBytes();
  }

  @Override
  public long[] dataPagesChanged(long fromLsn, long toLsn) {
    return data == null ? new long[] {0, 0} : new long[] {data.pageOffset(0), data.pagesChanged(fromLsn, toLsn)};
  }

  /** A piece of the log for a reader (payload as {@link BackupProtocol#PIECE}), its VLF's header read first. */
  private void send(long at, int kind, LogSpace.ReadPiece p, int link) {
    ctx.send(link, at, kind, p.headerOffset(), p.deviceOffset(), p.bytes(),
        p.fileId() | ((long) p.device() << 32) | (BackupProtocol.HEADER_FIRST << 40));
  }

  @Override
  public void adminDone(int session) {
    replyStatement(session, LogProtocol.ADMIN_DONE);
  }

  @Override
  public void spaceReady() {
    spaceWaiting = false;
    admitPending();
  }

  @Override
  public Rng rng() {
    return ctx.rng();
  }

  @Override
  public void writePage(int device, long deviceOffset, int bytes, int fileId, long tag) {
    ctx.send(deviceLinks[device], now() + cfg.deviceLinkNanos(), DeviceProtocol.WRITE, tag, bytes, deviceOffset,
        fileId);
  }

  // ------------------------------------------------------------------------------------------------- results

  /** The run is over: the last interval's writes. */
  @Override
  public void finish(Context ctx) {
    writeIntervals.finish(ctx);
  }

  @Override
  public Object results() {
    List<FileStats.Snapshot> fileList = new ArrayList<>();
    DataStats d = data == null ? null : data.stats();
    for (FileStats f : files) {
      if (f == null) continue;
      if (d != null && f.fileId() == d.fileId()) { // data writes are counted by their writer
        fileList.add(new FileStats.Snapshot(f.fileId(), f.name(), f.type(), 0, 0, 0, d.writesCompleted(),
            d.bytesWritten(), d.writeStallNanos()));
      } else {
        fileList.add(f.freeze());
      }
    }
    return new LogStats(records, writes, pagesWritten, bytesWritten, recordBytes, pageBytes, cfg.maxBlockPages(),
        cfg.logBuffers(), durableCommits, lazyCommits, lazy.size(), maxUnhardened, writelogCount, writelogNanos,
        writelogMaxNanos, logBufferWaits, logBufferWaitNanos, flushes, checkpointsDone, policy.name(), fileList, d,
        space.report(), crashed, dataGrowth == null ? null : dataGrowth.stats());
  }

  /** Commits acknowledged and not hardened now: what a crash at this instant would lose. */
  public long acknowledgedNotHardened() {
    return lazy.size();
  }

  @Override
  public Object snapshot() {
    long[][] fileRows = new long[files.length][];
    for (int i = 0; i < files.length; i++) fileRows[i] = files[i] == null ? new long[0] : files[i].counters();
    return new State(appendLsn, openStart, openCap, haveOpen, hardenedLsn, flushTarget, writeTag, inflight,
        inflightBytes, activeTxns, openSessions, spaceWaiting, pendingBegun, pendingDone, pending.toArray(), waiters.toArray(),
        lazy.toArray(), closed.toArray(), writing.toArray(), flushRequests.toArray(), checkpoints.toArray(),
        checkpointWriting, lazyTimer, checkpointTimer, sampleTimer, failedTxn == null ? null : failedTxn.clone(),
        new long[] {records, recordBytes, writes, pagesWritten,
            bytesWritten, durableCommits, lazyCommits, maxUnhardened, writelogCount, writelogNanos, writelogMaxNanos,
            logBufferWaits, logBufferWaitNanos, flushes, checkpointsDone, logBackups, heldByGrowth ? 1 : 0,
            recovering ? 1 : 0, sessionsGone ? 1 : 0, crashStepSession, lostWritesUpTo, lostDataTagsBelow, hardenFor,
            replicationSent, replicationBusy ? 1 : 0, replicationTimer, policyChanged ? 1 : 0, policyEpoch,
            openCoverer + 1},
        fileRows, policy.settings(), policy.snapshot(), space.snapshot(), data == null ? null : data.snapshot(), writeIntervals.state(),
        ledger == null ? null : ledger.snapshot(), down, crashed,
        dataGrowth == null ? null : dataGrowth.snapshot(), queuedOf.clone(), queuedSince.clone(), rollback.clone(),
        openCovered, held.toArray(), coverFor, released);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    appendLsn = s.appendLsn();
    openStart = s.openStart();
    openCap = s.openCap();
    haveOpen = s.haveOpen();
    hardenedLsn = s.hardenedLsn();
    flushTarget = s.flushTarget();
    writeTag = s.writeTag();
    inflight = s.inflight();
    inflightBytes = s.inflightBytes();
    activeTxns = s.activeTxns();
    openSessions = s.openSessions();
    spaceWaiting = s.spaceWaiting();
    pendingBegun = s.pendingBegun();
    pendingDone = s.pendingDone();
    pending = LongRing.of(6, s.pending());
    waiters = LongRing.of(3, s.waiters());
    lazy = LongRing.of(2, s.lazy());
    closed = LongRing.of(2, s.closed());
    writing = LongRing.of(5, s.writing());
    flushRequests = LongRing.of(2, s.flushRequests());
    checkpoints = LongRing.of(2, s.checkpoints());
    checkpointWriting = s.checkpointWriting();
    lazyTimer = s.lazyTimer();
    checkpointTimer = s.checkpointTimer();
    sampleTimer = s.sampleTimer();
    if (s.failedTxn() != null) failedTxn = s.failedTxn().clone();
    long[] c = s.counters();
    records = c[0];
    recordBytes = c[1];
    writes = c[2];
    pagesWritten = c[3];
    bytesWritten = c[4];
    durableCommits = c[5];
    lazyCommits = c[6];
    maxUnhardened = c[7];
    writelogCount = c[8];
    writelogNanos = c[9];
    writelogMaxNanos = c[10];
    logBufferWaits = c[11];
    logBufferWaitNanos = c[12];
    flushes = c[13];
    checkpointsDone = c[14];
    logBackups = c[15];
    heldByGrowth = c[16] != 0;
    recovering = c[17] != 0;
    sessionsGone = c[18] != 0;
    crashStepSession = (int) c[19];
    lostWritesUpTo = c[20];
    lostDataTagsBelow = c[21];
    hardenFor = c[22];
    replicationSent = c[23];
    replicationBusy = c[24] != 0;
    replicationTimer = c[25];
    policyChanged = c.length > 26 && c[26] != 0; // (a checkpoint of an older version has no such counter)
    policyEpoch = c.length > 27 ? c[27] : 0;
    openCoverer = c.length > 28 ? (int) c[28] - 1 : -1; // (nor this: that block's padding is then not charged)
    queuedOf = s.queuedOf().clone();
    queuedSince = s.queuedSince().clone();
    rollback = s.rollback().clone();
    openCovered = s.openCovered(); // false in a checkpoint from before it was kept
    held = s.held() == null ? new LongRing(6, 4) : LongRing.of(6, s.held());
    coverFor = s.held() == null ? -1 : s.coverFor(); // within an event only: -1 and false between windows
    released = s.released();
    for (int i = 0; i < s.files().length; i++) if (s.files()[i].length > 0) fileStats(i).setCounters(s.files()[i]);
    Object own = policy.snapshot();
    boolean sameKind = own == null ? s.policy() == null : s.policy() != null && own.getClass() == s.policy().getClass();
    // (a checkpoint of an older version names no settings: the kind decides)
    if (sameKind && (s.policySettings() == null || s.policySettings().equals(policy.settings()))) {
      policy.restore(s.policy());
    } else { // another policy's state, or its state under other settings: a branch that switches policy at T
      policyChanged = true;
    }
    space.restore(s.space());
    if (data != null) data.restore(s.data());
    writeIntervals.restore(s.writeIntervals());
    if (ledger != null && s.ledger() != null) ledger.restore(s.ledger());
    down = s.down();
    crashed = s.crash();
    if (dataGrowth != null) dataGrowth.restore(s.dataGrowth());
  }

  public record State(long appendLsn, long openStart, long openCap, boolean haveOpen, long hardenedLsn,
      long flushTarget, long writeTag, int inflight, long inflightBytes, int activeTxns, int openSessions,
      boolean spaceWaiting, boolean pendingBegun, long pendingDone, long[] pending, long[] waiters, long[] lazy, long[] closed,
      long[] writing, long[] flushRequests, long[] checkpoints, boolean checkpointWriting, long lazyTimer,
      long checkpointTimer, long sampleTimer, boolean[] failedTxn, long[] counters, long[][] files,
      String policySettings,
      @io.tlogsim.kernel.Typed
      Object policy,
      @io.tlogsim.kernel.Typed
      Object space,
      @io.tlogsim.kernel.Typed
      Object data, WriteIntervals.State writeIntervals, CrashLedger.State ledger, boolean down, LogCrash crash,
      long[] dataGrowth, int[] queuedOf, long[] queuedSince, int[] rollback, boolean openCovered,
      long[] held, int coverFor, boolean released) implements CborSerializable {}
}
