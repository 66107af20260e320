package io.tlogsim.database.readers;

import io.tlogsim.database.logspace.LogSpace.ReadPiece;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Crash recovery of a database as SQL Server does it (REFERENCE.md 3, ARIES), carrying out a {@link RecoveryPlan}:
 *
 * <ol>
 *   <li>start-up: every VLF's header is read, one after the other (the delay before recovery starts);</li>
 *   <li>analysis: the log from the last checkpoint's begin to the end, VLF by VLF (header first);</li>
 *   <li>redo: the log from MinLSN to the end; each data page a redone record touches is read from the data device the
 *       first time (its page LSN compared), no sooner than the log that names it; the records are applied at
 *       {@code redoApplyMBps} of log, overlapped with the reads;</li>
 *   <li>undo: each transaction without a commit, newest first, its log read backward from its last record to its
 *       first; for each change a compensation record goes to the log manager ({@link RecoveryProtocol#COMPENSATE}),
 *       which writes it like any record (log blocks, log space: it uses the transaction's reservation); the pages it
 *       changed that redo did not bring in are read; applied at {@code undoApplyMBps}. Undo ends when the log manager
 *       has hardened every compensation record ({@link RecoveryProtocol#HARDEN}).</li>
 * </ol>
 * Then it tells the log manager ({@link RecoveryProtocol#DONE}), which takes the checkpoint that ends recovery. The
 * error log shows it all in virtual time. The same phases end a restore WITH RECOVERY ({@link RecoveryPlan#ofRestore}:
 * the plan's redo is empty there, the restore's replay having rolled the log forward).
 */
public final class RecoveryManager implements SimComponent {
  static final int TIMER_PHASE = 85;
  static final String[] PHASES = {"start-up", "analysis", "redo", "undo"};
  private static final long PAGE_TAG = 1L << 45;
  /**
   * A request's tag carries the recovery manager's generation here (bits 50 to 57): a crash that ends a rollback
   * under way starts a new one, and the completions of the rollback's reads, still on their way, are told apart.
   */
  private static final int GENERATION_SHIFT = 50;
  private static final long GENERATION_MASK = 0xffL << GENERATION_SHIFT;
  /** Compensation records per event to the log manager (event batching, not a model constant). */
  static final int CLR_CHUNK = 1000;

  /**
   * @param redoApplyMBps, undoApplyMBps MB/s (10^6 B/s) of log that redo and undo apply
   * @param pageReadsInFlight data-page reads redo and undo keep outstanding at once
   */
  public record Config(int readBytes, int readsInFlight, int headerBytes, double redoApplyMBps, double undoApplyMBps,
      int pageReadsInFlight) implements CborSerializable {

    public Config(int readBytes, int readsInFlight, int headerBytes, double redoApplyMBps, double undoApplyMBps) {
      this(readBytes, readsInFlight, headerBytes, redoApplyMBps, undoApplyMBps, 8);
    }
  }

  /**
   * One recovery: when the crash was (or the restore's recovery, or the rollback, began), each phase's time, and
   * what it read and wrote; {@code purpose} as the plan's ({@link RecoveryPlan#CRASH}, RESTORE, ROLLBACK).
   */
  public record Recovery(long crashNanos, long startDelayNanos, long analysisNanos, long redoNanos, long undoNanos,
      long rolledForward, long rolledBack, long headerReads, long bytesRead, long boundaries, long pagesRead,
      long pagesApplied, long compensationRecords, long analysisBytes, long redoBytes, long undoBytes,
      int purpose, long compensationRecordsFound) implements CborSerializable {
    public boolean afterRestore() {
      return purpose == RecoveryPlan.RESTORE;
    }
  }

  public record Stats(List<Recovery> recoveries, List<BackupAgent.Message> errorLog) implements CborSerializable {
    /** The first recovery after a crash (null: none). */
    public Recovery firstAfterCrash() {
      for (Recovery r : recoveries) if (r.purpose() == RecoveryPlan.CRASH) return r;
      return null;
    }

    /** The rollbacks after error 9002, in order. */
    public List<Recovery> rollbacks() {
      return recoveries.stream().filter(r -> r.purpose() == RecoveryPlan.ROLLBACK).toList();
    }

    /** The first recovery that ended a restore WITH RECOVERY (null: none). */
    public Recovery firstAfterRestore() {
      for (Recovery r : recoveries) if (r.afterRestore()) return r;
      return null;
    }
  }

  private final Config cfg;
  private final int[] deviceLinks;
  private final int replyLink;
  private final long linkNanos;
  private final PieceReader reader;

  // ---- state (snapshot: State) ----
  private RecoveryPlan plan; // null: no recovery running
  private int phase;
  private long phaseStart;
  private long crash;
  private long applyBusyUntil;
  private boolean timerSet;
  private int nextPage; // redo: the next of the plan's pages to read; undo: of the loser's
  private int pagesInFlight;
  private int loser; // undo: the loser being rolled back
  private long clrSent; // ... its compensation records sent
  private int rangeIndex; // ... where in its row ranges they are
  private long rangeDone;
  private boolean hardening; // undo waits for the log manager to harden its compensation records
  private long pagesRead;
  private long clrs;
  private final long[] phaseNanos = new long[4];
  private final long[] phaseBytes = new long[4];
  private long headerReads;
  private long boundaries;
  private final List<Recovery> recoveries = new ArrayList<>();
  private final List<BackupAgent.Message> errorLog = new ArrayList<>();
  private final List<RecoveryPlan> queued = new ArrayList<>(); // plans that came while one was carried out
  private int generation; // plans begun after a crash ended a rollback under way (tags: GENERATION_SHIFT)

  /** @param deviceLinks links to the database's devices, by the device index the plan's pieces and pages use */
  public RecoveryManager(Config cfg, int[] deviceLinks, int replyLink, long linkNanos) {
    this.cfg = cfg;
    this.deviceLinks = deviceLinks.clone();
    this.replyLink = replyLink;
    this.linkNanos = linkNanos;
    this.reader = new PieceReader(cfg.readBytes(), cfg.readsInFlight(), cfg.headerBytes(), linkNanos, deviceLinks);
  }

  public RecoveryManager(Config cfg, int logLink, int replyLink, long linkNanos) {
    this(cfg, new int[] {logLink}, replyLink, linkNanos);
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case RecoveryProtocol.RECOVER -> {
        RecoveryPlan p = (RecoveryPlan) ev.payload();
        if (plan != null && p.purpose() != RecoveryPlan.ROLLBACK && plan.purpose() == RecoveryPlan.ROLLBACK) {
          // a crash (or a restore) while a rollback after 9002 is under way: the server that ran it is gone, its
          // transaction (and those whose rollback waited) are the new plan's losers, whose undo goes on from the
          // compensation records the rollback hardened (RecoveryPlan.Loser.compensated)
          abandon();
        }
        if (plan != null && p.purpose() != RecoveryPlan.ROLLBACK) {
          // a crash while a crash's recovery (or a restore's) is under way is not modelled
          throw new SimulationException("recovery manager: a recovery, but one is under way");
        }
        if (plan != null) { // rollbacks one after the other (assumption: one undo at a time)
          queued.add(p);
          return;
        }
        crash = ctx.now();
        begin(ctx, p);
      }
      case DeviceProtocol.DONE -> {
        if ((ev.a() & GENERATION_MASK) != generationBits()) return; // a read of a rollback a crash ended
        completed(ctx, ev.a() & ~GENERATION_MASK, ev.b());
      }
      case RecoveryProtocol.HARDENED -> {
        hardening = false;
        endPhaseIfDone(ctx);
      }
      case TIMER_PHASE -> {
        if (ev.a() != generation) return; // set by a rollback a crash ended
        timerSet = false;
        endPhaseIfDone(ctx);
      }
      default -> throw new SimulationException("recovery manager: unknown event kind " + ev.kind());
    }
  }

  /** The rollback under way is dropped (a crash): nothing it has in flight counts any more. */
  private void abandon() {
    generation = (generation + 1) & 0xff;
    reader.tagBits(generationBits());
    plan = null;
    queued.clear();
    timerSet = false;
    hardening = false;
    pagesInFlight = 0;
  }

  private long generationBits() {
    return (long) generation << GENERATION_SHIFT;
  }

  private void begin(Context ctx, RecoveryPlan p) {
    plan = p;
    java.util.Arrays.fill(phaseNanos, 0);
    java.util.Arrays.fill(phaseBytes, 0);
    pagesRead = 0;
    clrs = 0;
    headerReads = 0;
    boundaries = 0;
    if (p.purpose() != RecoveryPlan.ROLLBACK) errorLog.add(new BackupAgent.Message(ctx.now(), "Starting up database 'db'."));
    startPhase(ctx, 0);
  }

  // ------------------------------------------------------------------------------------------------ phases

  private void startPhase(Context ctx, int p) {
    phase = p;
    phaseStart = ctx.now();
    applyBusyUntil = ctx.now();
    nextPage = 0;
    pagesInFlight = 0;
    reader.reset();
    switch (p) {
      case 0 -> plan.headers().forEach(this::add);
      case 1 -> plan.analysis().forEach(this::add);
      case 2 -> plan.redo().forEach(this::add);
      default -> {
        loser = -1;
        nextLoser(ctx);
        return;
      }
    }
    pump(ctx);
    endPhaseIfDone(ctx); // a phase with nothing to read ends at once
  }

  private void add(ReadPiece piece) {
    add(piece, false);
  }

  private void add(ReadPiece piece, boolean backward) {
    long flags = BackupProtocol.HEADER_FIRST | (backward ? BackupProtocol.BACKWARD : 0);
    reader.add(piece.headerOffset(), piece.deviceOffset(), piece.bytes(),
        piece.fileId() | ((long) piece.device() << 32) | (flags << 40));
  }

  /** Undo: the next transaction to roll back, or, after the last, the log manager hardens what undo wrote. */
  private void nextLoser(Context ctx) {
    if (loser >= 0) { // the one before is rolled back: its end record
      RecoveryPlan.Loser done = plan.losers().get(loser);
      if (done.session() >= 0) {
        ctx.send(replyLink, ctx.now() + linkNanos, RecoveryProtocol.UNDONE, done.session(),
            plan.purpose() == RecoveryPlan.ROLLBACK ? 1 : 0);
      }
    }
    loser++;
    headerReads += reader.headerReads();
    boundaries += reader.boundaries();
    phaseBytes[3] += reader.total();
    reader.reset();
    nextPage = 0;
    pagesInFlight = 0;
    clrSent = 0;
    rangeIndex = 0;
    rangeDone = 0;
    if (loser < plan.losers().size()) {
      for (ReadPiece piece : plan.losers().get(loser).pieces()) add(piece, true);
      pump(ctx);
      endPhaseIfDone(ctx);
      return;
    }
    if (clrs > 0 && plan.purpose() != RecoveryPlan.ROLLBACK) { // hardened before recovery completes (a rollback: no)
      hardening = true;
      ctx.send(replyLink, ctx.now() + linkNanos, RecoveryProtocol.HARDEN, 0, 0);
    }
    endPhaseIfDone(ctx);
  }

  /** Issues the log reads and the page reads that may go now; in undo, the compensation records due. */
  private void pump(Context ctx) {
    reader.pump(ctx);
    long[] pages = phase == 2 ? plan.redoPages() : phase == 3 && loser < plan.losers().size()
        ? plan.losers().get(loser).pages() : null;
    if (pages == null) return;
    while (nextPage < pages.length && pagesInFlight < cfg.pageReadsInFlight() && pageDue(nextPage, pages.length)) {
      ctx.send(deviceLinks[plan.dataDevice()], ctx.now() + linkNanos, DeviceProtocol.READ, PAGE_TAG | generationBits(),
          plan.pageBytes(),
          pages[nextPage], plan.dataFileId());
      nextPage++;
      pagesInFlight++;
    }
  }

  /** A page may be read once the log that names it has been read (redo), or its share of the log (undo). */
  private boolean pageDue(int i, int n) {
    if (phase == 2) return reader.read() >= plan.redoPageNeededAt()[i];
    long total = reader.total();
    return total == 0 || (double) i / n <= (double) reader.read() / total;
  }

  private void completed(Context ctx, long tag, long bytes) {
    if (plan == null) return; // a read of an earlier recovery
    if (tag == PAGE_TAG) {
      pagesInFlight--;
      pagesRead++;
    } else {
      long data = reader.completed(tag, bytes);
      double rate = phase == 2 ? cfg.redoApplyMBps() : phase == 3 ? cfg.undoApplyMBps() : 0;
      if (data > 0 && rate > 0) {
        applyBusyUntil = Math.max(ctx.now(), applyBusyUntil) + (long) Math.ceil(data * 1e3 / rate);
      }
      if (phase == 3) compensate(ctx, false);
    }
    pump(ctx);
    endPhaseIfDone(ctx);
  }

  /**
   * Sends the compensation records for the changes undo has read back so far (the loser's newest first, in chunks),
   * all of them once its log is read.
   */
  private void compensate(Context ctx, boolean all) {
    RecoveryPlan.Loser l = plan.losers().get(loser);
    long records = l.records();
    long total = reader.total();
    long due = all || total == 0 ? records : (long) Math.floor(records * (double) reader.read() / total);
    long[] r = l.rowRanges();
    while (clrSent < due && rangeIndex < r.length) {
      long first = r[rangeIndex], count = r[rangeIndex + 1];
      long n = Math.min(Math.min(CLR_CHUNK, count - rangeDone), due - clrSent);
      long row = first < 0 ? -1 : first + count - rangeDone - n; // newest rows first
      long from = plan.purpose() == RecoveryPlan.ROLLBACK ? RecoveryProtocol.OF_ROLLBACK : 0;
      ctx.send(replyLink, ctx.now() + linkNanos, RecoveryProtocol.COMPENSATE, l.session() | from, l.clrBytes(), row, n);
      clrSent += n;
      clrs += n;
      rangeDone += n;
      if (rangeDone == count) {
        rangeIndex += 2;
        rangeDone = 0;
      }
    }
  }

  /** The phase's reads are done: it ends when what they brought is applied (and, in undo, hardened) too. */
  private void endPhaseIfDone(Context ctx) {
    if (plan == null || timerSet || !reader.done() || pagesInFlight > 0) return;
    long[] pages = phase == 2 ? plan.redoPages() : phase == 3 && loser < plan.losers().size()
        ? plan.losers().get(loser).pages() : null;
    if (pages != null && nextPage < pages.length) return;
    if (phase == 3 && loser < plan.losers().size()) {
      compensate(ctx, true);
      nextLoser(ctx);
      return;
    }
    if (hardening) return;
    if (applyBusyUntil > ctx.now()) {
      timerSet = true;
      ctx.schedule(applyBusyUntil, TIMER_PHASE, generation, 0);
      return;
    }
    endPhase(ctx);
  }

  private void endPhase(Context ctx) {
    long now = ctx.now();
    phaseNanos[phase] = now - phaseStart;
    if (phase < 3) {
      headerReads += reader.headerReads();
      boundaries += reader.boundaries();
      phaseBytes[phase] = reader.total();
    }
    long rolledBack = plan.losers().size();
    if (plan.purpose() == RecoveryPlan.ROLLBACK && phase < 3) { // a rollback is undo alone: nothing to say before it
      startPhase(ctx, phase + 1);
      return;
    }
    switch (phase == 3 && plan.purpose() == RecoveryPlan.ROLLBACK ? -1 : phase) {
      case 1 -> {
        // the estimate the server prints: what redo and undo have left to read, at the rate analysis read
        long left = plan.redoBytes();
        for (RecoveryPlan.Loser l : plan.losers()) left += l.bytes();
        double estimate = phaseNanos[1] > 0 && phaseBytes[1] > 0 ? left / (phaseBytes[1] / (phaseNanos[1] / 1e9)) : 0;
        errorLog.add(new BackupAgent.Message(now, String.format(Locale.ROOT, "Recovery of database 'db' (5) is 0%%"
            + " complete (approximately %d seconds remain). Phase 2 of 3. This is an informational message only."
            + " No user action is required.", Math.round(estimate))));
      }
      case 2 -> errorLog.add(new BackupAgent.Message(now, plan.rolledForward() + " transactions rolled forward in"
          + " database 'db' (5). This is an informational message only. No user action is required."));
      case 3 -> errorLog.add(new BackupAgent.Message(now, rolledBack + " transactions rolled back in database 'db'"
          + " (5). This is an informational message only. No user action is required."));
      default -> { }
    }
    if (phase < 3) {
      startPhase(ctx, phase + 1);
      return;
    }
    long total = phaseNanos[0] + phaseNanos[1] + phaseNanos[2] + phaseNanos[3];
    if (plan.purpose() != RecoveryPlan.ROLLBACK) errorLog.add(new BackupAgent.Message(now, String.format(Locale.ROOT, "Recovery completed for database db"
        + " (database ID 5) in %d second(s) (analysis %d ms, redo %d ms, undo %d ms.) This is an informational message"
        + " only. No user action is required.", Math.round(total / 1e9), phaseNanos[1] / 1_000_000,
        phaseNanos[2] / 1_000_000, phaseNanos[3] / 1_000_000)));
    recoveries.add(new Recovery(crash, phaseNanos[0], phaseNanos[1], phaseNanos[2], phaseNanos[3],
        plan.rolledForward(), rolledBack, headerReads, phaseBytes[1] + phaseBytes[2] + phaseBytes[3], boundaries,
        pagesRead, plan.redoPagesApplied(), clrs, phaseBytes[1], phaseBytes[2], phaseBytes[3], plan.purpose(),
        plan.compensationRecordsFound()));
    if (plan.afterRestore()) {
      errorLog.add(new BackupAgent.Message(now, "Restore is complete on database 'db'. The database is now"
          + " available."));
    }
    int purpose = plan.purpose();
    plan = null;
    ctx.send(replyLink, now + linkNanos, RecoveryProtocol.DONE, now, purpose);
    if (!queued.isEmpty()) {
      crash = now;
      begin(ctx, queued.remove(0));
    }
  }

  /** It answers at once: a request, a completion or its timer may cause a send at the same instant. */
  @Override
  public long inputDelay(int port) {
    return 0;
  }

  @Override
  public Object snapshot() {
    return new State(plan, phase, phaseStart, crash, applyBusyUntil, timerSet, nextPage, pagesInFlight, loser, clrSent,
        rangeIndex, rangeDone, hardening, pagesRead, clrs, phaseNanos.clone(), phaseBytes.clone(), headerReads,
        boundaries, reader.state(), List.copyOf(recoveries), List.copyOf(errorLog), List.copyOf(queued), generation);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    plan = s.plan();
    phase = s.phase();
    phaseStart = s.phaseStart();
    crash = s.crash();
    applyBusyUntil = s.applyBusyUntil();
    timerSet = s.timerSet();
    nextPage = s.nextPage();
    pagesInFlight = s.pagesInFlight();
    loser = s.loser();
    clrSent = s.clrSent();
    rangeIndex = s.rangeIndex();
    rangeDone = s.rangeDone();
    hardening = s.hardening();
    pagesRead = s.pagesRead();
    clrs = s.clrs();
    System.arraycopy(s.phaseNanos(), 0, phaseNanos, 0, 4);
    System.arraycopy(s.phaseBytes(), 0, phaseBytes, 0, 4);
    headerReads = s.headerReads();
    boundaries = s.boundaries();
    reader.restore(s.reader());
    recoveries.clear();
    recoveries.addAll(s.recoveries());
    errorLog.clear();
    errorLog.addAll(s.errorLog());
    queued.clear();
    queued.addAll(s.queued());
    generation = s.generation(); // 0 in a checkpoint from before it was kept
  }

  public record State(RecoveryPlan plan, int phase, long phaseStart, long crash, long applyBusyUntil, boolean timerSet,
      int nextPage, int pagesInFlight, int loser, long clrSent, int rangeIndex, long rangeDone, boolean hardening,
      long pagesRead, long clrs, long[] phaseNanos, long[] phaseBytes, long headerReads, long boundaries,
      PieceReader.State reader, List<Recovery> recoveries, List<BackupAgent.Message> errorLog,
      List<RecoveryPlan> queued, int generation) implements CborSerializable {}

  @Override
  public Object results() {
    return new Stats(List.copyOf(recoveries), List.copyOf(errorLog));
  }
}
