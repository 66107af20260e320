package io.tlogsim.database.session;

import io.tlogsim.database.log.LogProtocol;
import io.tlogsim.database.script.Script;
import io.tlogsim.database.script.Step;
import io.tlogsim.database.series.CommitInterval;
import io.tlogsim.database.series.Histograms;
import io.tlogsim.database.series.Intervals;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.VirtualTime;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Many sessions of one database in one component (DESIGN.md principle 4), each running the scenario's
 * {@link Script} step by step on the host's CPU ({@link HostCpu}, shared by the pool's sessions).
 *
 * <p>A statement runs on a core, then its log records go to the log manager, stamped with the time the statement ends
 * (sent when the core is granted: the pool holds nothing to send). A commit does the same with its commit record; the
 * session then waits for the acknowledgement of its flush if the database's flush policy (or its own mode) makes it
 * wait, and otherwise only for its record to be appended to the log buffer ({@link LogProtocol#APPENDED}: delayed
 * durability's commit returns then, REFERENCE.md 2), or for FAILED (9002) either way. GCM-1's commit loop (think,
 * commit, wait) needs no timer: the commit is sent the moment the think time is drawn.
 *
 * <p>Every session has its own generator, derived from (seed, session id), so results do not depend on how sessions
 * are split into pools. Each step is a phase: the pool records {@link PhaseStarted} when its first session starts it
 * and {@link PhaseEnded} when its last session ends it.
 *
 * <p>Commits are counted per report interval ({@link Intervals}): the pool records a {@link CommitInterval} when an
 * interval is over (at its first event past it, or when the run finishes), never a fact per commit. The run's
 * statistics are the sum of the intervals after the warm-up.
 */
public final class SessionPool implements SimComponent {
  /** Namespace of session generators among the run's seeds. */
  public static final long SESSION_SEED_SPACE = 0x5e55_1000_0000_0000L;
  /** The pool's own timer: a session is ready to go on (a = the session's index in the pool). */
  static final int CONTINUE = 40;
  /** The pool's own timer: the server loses power. */
  static final int CRASH = 41;
  /** The pool's own timer: a session whose commit was acknowledged resumes (host costs: {@link WaitCharger}). */
  static final int WOKEN = 42;
  /** The pool's own timer: a step of a session's XLogFlush on WALWriteLock ({@link WalWriteLock}; b: what). */
  static final int WAL_LOCK = 43;

  private static final byte FRESH = 0;
  private static final byte THOUGHT = 1; // thought; the step's action is next
  private static final byte ACTED = 2; // a one-off step acted and waits for its reply or timer
  private static final byte ROLLED_BACK = 3; // a large update's undo is done
  private static final byte FILE_LOGGED = 4; // a file step's file is created (or dropped) and its records are sent
  private static final byte STATEMENT = 5; // a statement's records are sent: it waits until they are appended

  private final int firstSession;
  private final int count;
  private final Step[] steps;
  private final Workload w;
  private final int logLink;
  private final boolean[] waitsByMode; // by session mode: its commits wait for the log
  private final long warmupNanos; // commits acknowledged before this are left out of the statistics

  // per session
  private long[] rng;
  private int[] step;
  private byte[] sub;
  private long[] done; // statements (or iterations) of the current step
  private int[] txn; // statements in the open transaction
  private long[] stepEnd; // a timed step's end
  private byte[] mode;
  private long[] commitStart;
  private long[] row; // next row of a sequential walk
  private long[] nextArrival; // at a fixed arrival rate: each session's next scheduled transaction start (else null)
  private long[] arrivalStats = new long[4]; // scheduled, late, lag ns in all, most lag ns
  // per pool
  private HostCpu cpu;
  private WaitCharger host; // the CPU of waiting (null: no host costs)
  private WalWriteLock walLock; // PostgreSQL's WALWriteLock held by the pool (null: the log manager's policy leads)
  private int[] entered; // by step: sessions that started it
  private int[] finished; // by step: sessions that ended it
  // by step: when its first session started it and its last ended it; kept as state, not only as facts, so that the
  // summary's phases survive a resume from a checkpoint (facts before it are not delivered again)
  private long[] phaseStart;
  private long[] phaseEnd;
  private int closed;
  private long commits;
  private long lazyCommits;
  private long latencySum;
  private long latencyMax;
  private long statements;
  private long rowsTouched;
  private Histogram histogram = CommitStats.newHistogram();
  // the open report interval [openFrom, openTo) and its commits; folded into the totals above when it closes
  private long intervalStep;
  private long openFrom;
  private long openTo = VirtualTime.NEVER;
  private long intervalCommits;
  private long intervalLatencySum;
  private long intervalLatencyMax;
  private Histogram interval = CommitStats.newHistogram();
  // a power loss at crashNanos (0: none): what the sessions were told before it
  private long crashNanos;
  private SessionsAtCrash atCrash;
  private boolean down;

  public SessionPool(int firstSession, int count, Script script, Workload workload, int logLink,
      boolean[] waitsByMode) {
    this(firstSession, count, script, workload, logLink, waitsByMode, 0);
  }

  /**
   * @param firstSession id of the pool's first session; the pool holds sessions firstSession .. firstSession+count-1
   * @param waitsByMode for each session mode, whether a commit waits for the log (the flush policy's rule)
   * @param warmupNanos commits acknowledged before this simulated time are left out of the statistics (--warmup)
   */
  public SessionPool(int firstSession, int count, Script script, Workload workload, int logLink,
      boolean[] waitsByMode, long warmupNanos) {
    this.warmupNanos = warmupNanos;
    this.firstSession = firstSession;
    this.count = count;
    this.steps = script.steps().toArray(new Step[0]);
    this.w = workload;
    this.logLink = logLink;
    this.waitsByMode = waitsByMode.clone();
    rng = new long[count];
    step = new int[count];
    sub = new byte[count];
    done = new long[count];
    txn = new int[count];
    stepEnd = new long[count];
    mode = new byte[count];
    commitStart = new long[count];
    row = new long[count];
    cpu = new HostCpu(workload.cores());
    entered = new int[steps.length];
    finished = new int[steps.length];
    phaseStart = new long[steps.length];
    phaseEnd = new long[steps.length];
  }

  /** The server loses power at {@code nanos} (0: never): the sessions stop, and they count what they were told. */
  public SessionPool withCrashAt(long nanos) {
    crashNanos = nanos;
    atCrash = nanos > 0 ? new SessionsAtCrash(count) : null;
    return this;
  }

  /**
   * The host's costs of waiting ({@link Workload#host()}) are charged on this pool's cores, the flushes and wake-ups
   * where {@code flusher} says (needs ACK details from the log manager: {@code LogManager.withAckDetails}). Nothing
   * changes when the workload has no host costs or no cores.
   */
  public SessionPool withHostCosts(io.tlogsim.database.log.policy.FlushPolicy.Flusher flusher) {
    host = chargesHostCosts(w) ? new WaitCharger(count, w.host(), flusher) : null;
    return this;
  }

  /**
   * The committers' flush lock ({@code lock}: PostgreSQL's WALWriteLock, {@link WalWriteLock}) is held by this pool's
   * sessions, which send FLUSH (the log manager's policy then leaves commits that wait to them:
   * {@code FlushPolicy.lockInSessions}). Only with host costs ({@link #withHostCosts} first); null: no lock here.
   */
  public SessionPool withWalWriteLock(io.tlogsim.database.log.policy.FlushPolicy.FlushLock lock) {
    if (lock == null || host == null) {
      walLock = null;
      return this;
    }
    walLock = new WalWriteLock(count, w.host(), host, lock.commitDelayNanos(), lock.commitSiblings(), logLink,
        w.hopNanos(), firstSession, j -> txn[j] > 0, this::acknowledged);
    return this;
  }

  /** True when this pool holds WALWriteLock ({@link #withWalWriteLock}). */
  public boolean holdsWalWriteLock() {
    return walLock != null;
  }

  /** True when a pool of this workload charges host costs (its log manager must then send ACK details). */
  public static boolean chargesHostCosts(Workload w) {
    return w.cores() > 0 && !w.host().isNone();
  }

  @Override
  public void start(Context ctx) {
    if (crashNanos > 0 && crashNanos <= ctx.endTime()) ctx.schedule(crashNanos, CRASH, 0, 0);
    intervalStep = Intervals.step(ctx.endTime());
    openFrom = 0;
    openTo = Intervals.next(0, intervalStep, warmupNanos, ctx.endTime());
    long space = Rng.seedFor(ctx.seed(), SESSION_SEED_SPACE);
    if (w.arrivalGapNanos() > 0) nextArrival = new long[count];
    for (int i = 0; i < count; i++) {
      rng[i] = Rng.seedFor(space, firstSession + i);
      if (nextArrival != null) nextArrival[i] = Rng.nextExponential(rng, i, w.arrivalGapNanos());
      enter(ctx, i, 0);
      proceed(ctx, i, 0);
    }
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    long now = ctx.now();
    if (now >= openTo) nextInterval(ctx, now);
    if (down) return; // replies sent before the crash, arriving after it
    switch (ev.kind()) {
      case CRASH -> {
        ctx.crash();
        down = true;
      }
      case LogProtocol.ACK -> {
        int i = (int) ev.a() - firstSession;
        if (walLock != null) walLock.acked(i); // it finds its commit flushed when it next looks
        else if (host != null && ev.b() != 0) host.acknowledged(ctx, cpu, i, now, ev.b()); // it resumes later: WOKEN
        else acknowledged(ctx, i, now);
      }
      case WOKEN -> {
        if (walLock != null) walLock.woken(ctx, cpu, (int) ev.a(), now, ev.b());
        else acknowledged(ctx, (int) ev.a(), host.resume(cpu, (int) ev.a(), now, ev.b()));
      }
      case WAL_LOCK -> walLock.timer(ctx, cpu, (int) ev.a(), now, ev.b());
      case CONTINUE -> proceed(ctx, (int) ev.a(), now);
      case LogProtocol.FLUSHED -> {
        int i = (int) ev.a() - firstSession;
        if (walLock != null && walLock.flushing(i)) walLock.flushed(ctx, cpu, i, now, ev.b());
        else proceed(ctx, i, now);
      }
      // a commit that does not wait for its flush: its record is in the log buffer
      case LogProtocol.APPENDED -> acknowledgedLazily(ctx, (int) ev.a() - firstSession, now);
      case LogProtocol.CHECKPOINTED, LogProtocol.ADMIN_DONE -> proceed(ctx, (int) ev.a() - firstSession, now);
      // error 9002: the transaction was rolled back (a commit, waiting for its flush or its append, is not counted);
      // the session goes on with its script
      case LogProtocol.FAILED -> {
        int i = (int) ev.a() - firstSession;
        if (sub[i] == STATEMENT) statementFailed(i);
        proceed(ctx, i, now);
      }
      // a statement's records are in the log buffer: the statement returns
      case LogProtocol.LOGGED -> proceed(ctx, (int) ev.a() - firstSession, now);
      default -> throw new SimulationException("session pool: unknown event kind " + ev.kind());
    }
  }

  /** Session i's commit is done at {@code at} (its acknowledgement reached it and it resumed): it goes on. */
  private void acknowledged(Context ctx, int i, long at) {
    if (atCrash != null) atCrash.acknowledged(i);
    long latency = at - commitStart[i];
    intervalCommits++;
    intervalLatencySum += latency;
    if (latency > intervalLatencyMax) intervalLatencyMax = latency;
    interval.recordValue(latency);
    proceed(ctx, i, at);
  }

  /**
   * Session i's commit that does not wait for its flush is done at {@code at}: its APPENDED reached it. No wake-up is
   * charged with host costs: the session appended its record itself and never slept.
   */
  private void acknowledgedLazily(Context ctx, int i, long at) {
    lazyCommits++;
    acknowledged(ctx, i, at);
  }

  /** Runs session i's work on a core (the host's costs remember which). */
  private long run(int i, long now, long costNanos) {
    long end = cpu.run(now, costNanos);
    if (host != null) host.ranOn(i, cpu.lastCore());
    return end;
  }

  /** Closes the intervals that ended by {@code now} (empty ones too: a chart shows the pool idle). */
  private void nextInterval(Context ctx, long now) {
    while (now >= openTo) {
      closeInterval(ctx);
      openFrom = openTo;
      openTo = Intervals.next(openFrom, intervalStep, warmupNanos, ctx.endTime());
    }
  }

  /**
   * Records the open interval (unless {@code ctx} is null) and folds it into the run's statistics if it is past the
   * warm-up; the interval is empty afterwards.
   */
  private void closeInterval(Context ctx) {
    if (ctx != null) {
      ctx.record(new CommitInterval(openFrom, Math.min(openTo, ctx.endTime()), intervalCommits, intervalLatencySum,
          intervalLatencyMax, Histograms.encode(interval), openFrom < warmupNanos));
    }
    if (openFrom >= warmupNanos && intervalCommits > 0) {
      commits += intervalCommits;
      latencySum += intervalLatencySum;
      latencyMax = Math.max(latencyMax, intervalLatencyMax);
      histogram.add(interval);
    }
    intervalCommits = 0;
    intervalLatencySum = 0;
    intervalLatencyMax = 0;
    interval.reset();
  }

  /** The run is over: the last interval, up to the run's end. */
  @Override
  public void finish(Context ctx) {
    closeInterval(ctx);
  }

  /** Runs session i's script from {@code now} until it waits for something (a reply, a core, a think time) or ends. */
  private void proceed(Context ctx, int i, long now) {
    while (true) {
      int si = step[i];
      if (si >= steps.length) {
        if (si == steps.length) close(ctx, i, now);
        return;
      }
      Step st = steps[si];
      boolean waiting = switch (st.type()) {
        case COMMIT_LOOP -> commitLoop(ctx, i, st, now);
        case INSERT, UPDATE, DELETE -> rowLoop(ctx, i, st, now);
        case LARGE_UPDATE, LARGE_INSERT -> largeUpdate(ctx, i, st, now);
        case THINK -> {
          if (sub[i] == THOUGHT) yield false;
          sub[i] = THOUGHT;
          resumeAt(ctx, i, now + think(i, st.thinkUs(), st.thinkExponential()));
          yield true;
        }
        case SET_LOG, DELAYED_DURABILITY -> {
          mode[i] = (byte) st.mode();
          yield false;
        }
        case GROW_LOG, ADD_LOG_FILE, REMOVE_FILE, SHRINK_FILE, SQLPERF, BACKUP_LOG, BACKUP_DATABASE, RESTORE_DATABASE,
            RESTORE_LOG, CRASH -> {
          if (sub[i] == ACTED) {
            // recovery rolled back what the session had open (a restore replaced the database it was open in)
            if (st.type() == Step.Type.CRASH || st.type() == Step.Type.RESTORE_DATABASE
                || st.type() == Step.Type.RESTORE_LOG) {
              txn[i] = 0;
            }
            yield false;
          }
          sub[i] = ACTED;
          ctx.send(logLink, now + w.hopNanos(), LogProtocol.ADMIN, firstSession + i, si);
          yield true;
        }
        case ADD_DATA_FILE, REMOVE_DATA_FILE -> fileLoop(ctx, i, st, si, now);
        case CHECKPOINT, FLUSH_LOG -> {
          if (sub[i] == ACTED) yield false;
          sub[i] = ACTED;
          ctx.send(logLink, now + w.hopNanos(), st.type() == Step.Type.CHECKPOINT ? LogProtocol.CHECKPOINT
              : LogProtocol.FLUSH, firstSession + i, 0);
          yield true;
        }
      };
      if (waiting) return;
      next(ctx, i, now);
    }
  }

  /**
   * GCM-1's loop (BENCH.md): think Exp(mean), then commit (a commit record alone) and wait. The commit is sent the
   * moment the think time is drawn, unless it needs a core (then the session asks for one when its think time ends).
   */
  private boolean commitLoop(Context ctx, int i, Step st, long now) {
    if (st.seconds() > 0 && now >= stepEnd[i]) return false;
    if (sub[i] == THOUGHT) { // the think time ended: the commit runs on a core now
      sub[i] = FRESH;
      commit(ctx, i, now, run(i, now, w.cpuCommitNanos()), LogProtocol.FLAG_BEGIN);
      return true;
    }
    long start = nextArrival != null ? arrival(i, now)
        : now + Rng.nextExponential(rng, i, st.thinkUs() * VirtualTime.NS_PER_US);
    if (start > ctx.endTime()) return true; // the run ends while it thinks
    if (w.cpuCommitNanos() > 0) {
      sub[i] = THOUGHT;
      resumeAt(ctx, i, start);
      return true;
    }
    commit(ctx, i, start, start, LogProtocol.FLAG_BEGIN);
    return true;
  }

  /**
   * ALTER DATABASE ... ADD FILE (or REMOVE FILE), {@code rows} times: the file is created (or dropped) on its device
   * first (an administration request the log manager answers when the device has done it), then the statement's
   * records and its commit are logged, and the session waits for them before the next file.
   */
  private boolean fileLoop(Context ctx, int i, Step st, int si, long now) {
    switch (sub[i]) {
      case ACTED -> { // the file is there (or gone): the statement logs it and commits
        long end = cpu.run(now, w.cpuStatementNanos());
        ctx.send(logLink, end + w.hopNanos(), LogProtocol.RECORDS, LogProtocol.recordsA(firstSession + i,
            LogProtocol.FLAG_BEGIN, 0), recordBytes(st, Step.Type.INSERT), -1, 1);
        txn[i] = 1;
        sub[i] = FILE_LOGGED;
        commit(ctx, i, now, end, 0);
        return true;
      }
      case FILE_LOGGED -> { // committed: the next file
        done[i]++;
        statements++;
        sub[i] = FRESH;
        return fileLoop(ctx, i, st, si, now);
      }
      default -> {
        if (done[i] >= st.rows()) return false;
        sub[i] = ACTED;
        ctx.send(logLink, now + w.hopNanos(), LogProtocol.ADMIN, firstSession + i, si);
        return true;
      }
    }
  }

  /** A loop of single-row statements, a commit every {@code commitEvery} of them and at the end. */
  private boolean rowLoop(Context ctx, int i, Step st, long now) {
    if (sub[i] == STATEMENT) sub[i] = FRESH; // the statement returned
    if (sub[i] != THOUGHT) {
      boolean over = st.seconds() > 0 ? now >= stepEnd[i] : done[i] >= st.rows();
      if (over || txn[i] == st.commitEvery()) {
        if (txn[i] == 0) return false; // the step is over, its work committed
        commit(ctx, i, now, run(i, now, w.cpuCommitNanos()), 0);
        return true;
      }
      if (nextArrival != null) { // a fixed arrival rate: a transaction starts when scheduled, its statements at once
        long at = txn[i] == 0 ? arrival(i, now) : now;
        if (at > now) {
          sub[i] = THOUGHT;
          resumeAt(ctx, i, at);
          return true;
        }
      } else if (st.thinkUs() > 0) {
        sub[i] = THOUGHT;
        resumeAt(ctx, i, now + think(i, st.thinkUs(), st.thinkExponential()));
        return true;
      }
    }
    long end = run(i, now, w.cpuStatementNanos() + w.cpuRowNanos(st.type()));
    long first = st.random() ? randomRow(i) : row[i]++;
    // the statement returns when its record is appended (LOGGED), or fails with 9002 (FAILED)
    long flags = (txn[i] == 0 ? LogProtocol.FLAG_BEGIN : 0) | LogProtocol.FLAG_REPLY;
    ctx.send(logLink, end + w.hopNanos(), LogProtocol.RECORDS,
        LogProtocol.recordsA(firstSession + i, flags, undoBytes(st, st.type())),
        recordBytes(st, st.type()), w.tableRows() > 0 ? first : -1, 1);
    txn[i]++;
    done[i]++;
    statements++;
    rowsTouched++;
    sub[i] = STATEMENT;
    return true;
  }

  /**
   * Session i's statement failed with 9002 (FAILED while it waited for its append): its transaction was rolled back,
   * so it has nothing to commit; a loop goes on with its next transaction, a large update's step is over.
   */
  private void statementFailed(int i) {
    txn[i] = 0;
    Step st = steps[step[i]];
    sub[i] = st.type() == Step.Type.LARGE_UPDATE || st.type() == Step.Type.LARGE_INSERT ? THOUGHT : FRESH;
  }

  /**
   * One statement touching {@code rows} rows in an explicit transaction, then its commit (or its rollback: the undo
   * logs a compensation record per row). Its records go out in chunks spread over the statement's CPU time.
   */
  private boolean largeUpdate(Context ctx, int i, Step st, long now) {
    switch (sub[i]) {
      case FRESH -> {
        Step.Type op = st.type() == Step.Type.LARGE_INSERT ? Step.Type.INSERT : Step.Type.UPDATE;
        long end = run(i, now, w.cpuStatementNanos() + st.rows() * w.cpuRowNanos(op));
        long first = row[i];
        row[i] += st.rows();
        // the first statement begins the transaction; one left open by an earlier step goes on
        long begins = txn[i] == 0 ? LogProtocol.FLAG_BEGIN : 0;
        sendSpread(ctx, i, now, end, st.rows(), recordBytes(st, op), first, begins, undoBytes(st, op), true);
        if (st.splitBytes() > 0) { // page splits as rows grow: logged by system transactions, nothing reserved
          sendSpread(ctx, i, now, end, st.rows(), st.splitBytes(), -1, 0, 0, false);
        }
        if (st.growBytes() > 0) growSpread(ctx, i, now, end, st.rows(), st.growBytes());
        statements++;
        rowsTouched += st.rows();
        txn[i] = 1;
        done[i]++;
        sub[i] = STATEMENT; // it returns when its last records are appended (LOGGED), or fails (FAILED)
        return true;
      }
      case STATEMENT, ACTED -> {
        if (done[i] < st.commitEvery()) { // statements = N: the same statement again, over the same rows
          row[i] -= st.rows();
          sub[i] = FRESH;
          return largeUpdate(ctx, i, st, now);
        }
        if (st.rollback()) {
          long end = run(i, now, st.rows() * w.cpuRowNanos(Step.Type.UPDATE));
          sendSpread(ctx, i, now, end, st.rows(), undoBytes(st, Step.Type.UPDATE), row[i] - st.rows(),
              LogProtocol.FLAG_COMPENSATION, 0, false);
          sub[i] = ROLLED_BACK;
          resumeAt(ctx, i, end);
          return true;
        }
        sub[i] = ROLLED_BACK;
        return largeUpdate(ctx, i, st, now);
      }
      case ROLLED_BACK -> {
        sub[i] = THOUGHT;
        if (st.mode() == Step.LEFT_OPEN && !st.rollback()) return false; // commit = false: the transaction stays open
        txn[i] = 1;
        commit(ctx, i, now, run(i, now, w.cpuCommitNanos()), 0);
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** Bytes of each row's log record in step {@code st}: the step's own figure, else the kind's row-size model. */
  private int recordBytes(Step st, Step.Type op) {
    return st.recordBytes() > 0 ? st.recordBytes() : w.recordBytes(op);
  }

  /**
   * Bytes of the compensation record that would undo one row's record (what the log reserves for a rollback): the
   * step's own figure; else the record's size where the step gives that; else the kind's model (an update's undo logs
   * its before image, an insert's undo deletes the row and a delete's reinserts it).
   */
  private int undoBytes(Step st, Step.Type op) {
    if (st.compensationBytes() > 0) return st.compensationBytes();
    if (st.recordBytes() > 0) return st.recordBytes();
    return switch (op) {
      case INSERT -> w.deleteRecordBytes();
      case DELETE -> w.insertRecordBytes();
      default -> w.compensationRecordBytes();
    };
  }

  /**
   * Sends {@code n} records in chunks, chunk k stamped at the end of its share of [from, to]; the last with
   * {@link LogProtocol#FLAG_REPLY} when the statement waits for them ({@code replies}).
   */
  private void sendSpread(Context ctx, int i, long from, long to, long n, int bytes, long firstRow, long flags,
      long undoBytes, boolean replies) {
    long chunk = Math.max(1, w.chunkRows());
    long chunks = (n + chunk - 1) / chunk;
    for (long k = 0; k < chunks; k++) {
      long rows = Math.min(chunk, n - k * chunk);
      long at = from + (to - from) * (k + 1) / chunks;
      ctx.send(logLink, at + w.hopNanos(), LogProtocol.RECORDS,
          LogProtocol.recordsA(firstSession + i, (k == 0 ? flags : flags & ~LogProtocol.FLAG_BEGIN)
              | (replies && k == chunks - 1 ? LogProtocol.FLAG_REPLY : 0), undoBytes), bytes,
          w.tableRows() > 0 && firstRow >= 0 ? firstRow + k * chunk : -1, rows);
    }
  }

  /** The rows take {@code bytes} more each in the data file, in the same chunks as their records. */
  private void growSpread(Context ctx, int i, long from, long to, long n, int bytes) {
    long chunk = Math.max(1, w.chunkRows());
    long chunks = (n + chunk - 1) / chunk;
    for (long k = 0; k < chunks; k++) {
      long rows = Math.min(chunk, n - k * chunk);
      ctx.send(logLink, from + (to - from) * (k + 1) / chunks + w.hopNanos(), LogProtocol.DATA_GROW, firstSession + i,
          rows * bytes, rows, bytes);
    }
  }

  /**
   * The session commits: it asked at {@code asked}, its commit record leaves when its CPU work ends at {@code end}.
   * It waits for the acknowledgement of its flush if its mode makes it wait; otherwise for the log manager's word that
   * the record is appended (APPENDED). Either way its latency runs from {@code asked} to the reply's arrival.
   */
  private void commit(Context ctx, int i, long asked, long end, long flags) {
    boolean waits = waitsByMode[mode[i]];
    commitStart[i] = asked;
    if (host != null) host.committed(i, end + w.hopNanos());
    ctx.send(logLink, end + w.hopNanos(), LogProtocol.COMMIT,
        LogProtocol.recordsA(firstSession + i, flags | (waits ? LogProtocol.FLAG_WAITS : 0)), w.commitRecordBytes());
    txn[i] = 0;
    if (waits && walLock != null) walLock.commit(ctx, i, end); // XLogFlush when its CPU is done
  }

  /**
   * At a fixed arrival rate: when session i's next transaction starts. Starts are a Poisson process drawn from the
   * last scheduled start, not from when the last transaction ended (pgbench -R), so a slow log makes them late (the
   * schedule lag) without lowering the rate asked.
   */
  private long arrival(int i, long now) {
    long at = nextArrival[i];
    nextArrival[i] = at + Rng.nextExponential(rng, i, w.arrivalGapNanos());
    arrivalStats[0]++;
    if (at >= now) return at;
    long lag = now - at;
    arrivalStats[1]++;
    arrivalStats[2] += lag;
    if (lag > arrivalStats[3]) arrivalStats[3] = lag;
    return now;
  }

  private long think(int i, double us, boolean exponential) {
    double ns = us * VirtualTime.NS_PER_US;
    return exponential ? Rng.nextExponential(rng, i, ns) : Math.round(ns);
  }

  private long randomRow(int i) {
    return Long.remainderUnsigned(Rng.nextLong(rng, i), Math.max(1, w.tableRows()));
  }

  private void resumeAt(Context ctx, int i, long at) {
    ctx.schedule(at, CONTINUE, i, 0);
  }

  /** Session i starts step step[i]. */
  private void enter(Context ctx, int i, long now) {
    int si = step[i];
    if (si >= steps.length) return;
    Step st = steps[si];
    sub[i] = FRESH;
    done[i] = 0;
    stepEnd[i] = st.seconds() > 0 ? now + VirtualTime.seconds(st.seconds()) : VirtualTime.NEVER;
    if (st.type().isRowLoop() || st.type().isLarge()) {
      // each session walks its own stretch of the table
      long span = st.rows() > 0 ? st.rows() : 1_000_000_000L;
      row[i] = w.tableRows() > 0 ? Math.floorMod((long) (firstSession + i) * span, w.tableRows()) : 0;
    }
    if (entered[si]++ == 0) {
      phaseStart[si] = now;
      ctx.record(new PhaseStarted(si, st.name()));
    }
  }

  /** Session i ends its step and starts the next. */
  private void next(Context ctx, int i, long now) {
    int si = step[i];
    if (++finished[si] == count) {
      phaseEnd[si] = now;
      ctx.record(new PhaseEnded(si, steps[si].name()));
    }
    step[i] = si + 1;
    enter(ctx, i, now);
  }

  /** The script is done: the session closes its connection (once). */
  private void close(Context ctx, int i, long now) {
    step[i] = steps.length + 1;
    closed++;
    ctx.send(logLink, now + w.hopNanos(), LogProtocol.CLOSE, firstSession + i, 0);
  }

  @Override
  public long inputDelay(int port) {
    return w.hopNanos(); // whatever wakes a session, its next request leaves no sooner than one hop later
  }

  @Override
  public Object snapshot() {
    return new State(rng.clone(), step.clone(), sub.clone(), done.clone(), txn.clone(), stepEnd.clone(), mode.clone(),
        commitStart.clone(), row.clone(), cpu.snapshot(), entered.clone(), finished.clone(), phaseStart.clone(),
        phaseEnd.clone(), closed,
        new long[] {commits, lazyCommits, latencySum, latencyMax, statements, rowsTouched},
        CommitStats.encode(histogram), new long[] {intervalStep, openFrom, openTo, intervalCommits, intervalLatencySum,
            intervalLatencyMax}, CommitStats.encode(interval), atCrash == null ? null : atCrash.snapshot(), down,
        nextArrival == null ? null : nextArrival.clone(), arrivalStats.clone(),
        host == null ? null : host.snapshot(), walLock == null ? null : walLock.snapshot());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    if (s.rng().length != count) {
      throw new SimulationException("session pool: checkpoint holds " + s.rng().length + " sessions, this pool " + count);
    }
    rng = s.rng().clone();
    step = s.step().clone();
    sub = s.sub().clone();
    done = s.done().clone();
    txn = s.txn().clone();
    stepEnd = s.stepEnd().clone();
    mode = s.mode().clone();
    commitStart = s.commitStart().clone();
    row = s.row().clone();
    cpu.restore(s.cpu());
    entered = s.entered().clone();
    finished = s.finished().clone();
    phaseStart = s.phaseStart().clone();
    phaseEnd = s.phaseEnd().clone();
    closed = s.closed();
    commits = s.counters()[0];
    lazyCommits = s.counters()[1];
    latencySum = s.counters()[2];
    latencyMax = s.counters()[3];
    statements = s.counters()[4];
    rowsTouched = s.counters()[5];
    histogram = CommitStats.decode(s.histogram());
    intervalStep = s.interval()[0];
    openFrom = s.interval()[1];
    openTo = s.interval()[2];
    intervalCommits = s.interval()[3];
    intervalLatencySum = s.interval()[4];
    intervalLatencyMax = s.interval()[5];
    interval = CommitStats.decode(s.intervalHistogram());
    if (atCrash != null && s.atCrash() != null) atCrash.restore(s.atCrash());
    down = s.down();
    nextArrival = s.nextArrival() == null ? null : s.nextArrival().clone();
    arrivalStats = s.arrivalStats() == null ? new long[4] : s.arrivalStats().clone();
    if (host != null && s.host() != null) host.restore(s.host());
    if ((walLock == null) != (s.walLock() == null)) { // who leads the flushes of waiting commits cannot change mid-run
      throw new IllegalStateException("WALWriteLock is held by the " + (s.walLock() != null ? "sessions" : "log manager")
          + " in this state and by the " + (walLock != null ? "sessions" : "log manager") + " here");
    }
    if (walLock != null) walLock.restore(s.walLock());
  }

  @Override
  public Object results() {
    closeInterval(null); // when the run did not finish it (a model run outside the kernel): fold what it holds
    List<PoolStats.Phase> phases = new ArrayList<>();
    for (int k = 0; k < steps.length; k++) {
      if (entered[k] > 0) phases.add(new PoolStats.Phase(k, steps[k].name(), phaseStart[k], phaseEnd[k], finished[k]));
    }
    return new PoolStats(new CommitStats(commits, latencySum, latencyMax, CommitStats.encode(histogram)), lazyCommits,
        statements, rowsTouched, cpu.waits(), cpu.waitNanos(), cpu.maxWaitNanos(), cpu.busyNanos(), count, closed,
        phases, down ? atCrash.acknowledged() : null, nextArrival == null ? null : arrivalStats.clone(),
        host == null ? null : host.counts());
  }

  /**
   * How many of this pool's sessions are where, now: "step: state" in name order, or "done" once a session ended its
   * script (the state of a run at an instant, replay --at). The states are the pool's own: thinking (a think time
   * runs), in a statement or commit (on a core, or waiting for a core or for the log), waiting for a reply or a timer
   * (a one-off step), rolled back, file logged.
   */
  public java.util.SortedMap<String, Integer> sessionsByState() {
    java.util.SortedMap<String, Integer> out = new java.util.TreeMap<>();
    for (int i = 0; i < count; i++) {
      String where = step[i] >= steps.length ? "done" : steps[step[i]].name() + ": " + switch (sub[i]) {
        case THOUGHT -> "thinking";
        case ACTED -> "waiting for a reply or a timer";
        case ROLLED_BACK -> "rolled back";
        case FILE_LOGGED -> "file logged";
        default -> "in a statement or commit";
      };
      out.merge(where, 1, Integer::sum);
    }
    return out;
  }

  public record State(long[] rng, int[] step, byte[] sub, long[] done, int[] txn, long[] stepEnd, byte[] mode,
      long[] commitStart, long[] row, HostCpu.State cpu, int[] entered, int[] finished, long[] phaseStart,
      long[] phaseEnd, int closed, long[] counters,
      byte[] histogram, long[] interval, byte[] intervalHistogram, SessionsAtCrash.State atCrash, boolean down,
      long[] nextArrival, long[] arrivalStats, WaitCharger.State host,
      WalWriteLock.State walLock) implements CborSerializable {}
}
