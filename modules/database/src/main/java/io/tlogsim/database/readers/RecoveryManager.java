package io.tlogsim.database.readers;

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
 * Crash recovery of a database (REFERENCE.md 3): at restart the log is opened and every VLF's header read (the delay
 * before recovery starts), then analysis (reads the log from the last checkpoint), redo (reads it again and replays
 * committed work not yet in the data files) and undo (reads the log of transactions without a commit and rolls them
 * back). Every read goes through the storage models with the log reader's cost at each VLF boundary
 * ({@link PieceReader}); redo and undo also apply what they read, at {@code redoApplyMBps} and {@code undoApplyMBps},
 * overlapped with the reads. The error log shows it all in virtual time.
 */
public final class RecoveryManager implements SimComponent {
  static final int TIMER_PHASE = 80;
  static final String[] PHASES = {"start-up", "analysis", "redo", "undo"};

  /** @param redoApplyMBps, undoApplyMBps MB/s (10^6 B/s) of log that redo and undo apply */
  public record Config(int readBytes, int readsInFlight, int headerBytes, double redoApplyMBps, double undoApplyMBps)
      implements CborSerializable {}

  /** One recovery: when the crash was, each phase's time, and the transactions rolled forward and back. */
  public record Recovery(long crashNanos, long startDelayNanos, long analysisNanos, long redoNanos, long undoNanos,
      long rolledForward, long rolledBack, long headerReads, long bytesRead, long boundaries)
      implements CborSerializable {}

  public record Stats(List<Recovery> recoveries, List<BackupAgent.Message> errorLog) implements CborSerializable {}

  private final Config cfg;
  private final int replyLink;
  private final long linkNanos;
  private final PieceReader[] readers = new PieceReader[4];

  // ---- state (snapshot: State) ----
  private boolean running;
  private boolean planned;
  private int phase;
  private long phaseStart;
  private long crash;
  private long forward;
  private long back;
  private long applyBusyUntil;
  private boolean timerSet;
  private final long[] phaseNanos = new long[4];
  private final List<Recovery> recoveries = new ArrayList<>();
  private final List<BackupAgent.Message> errorLog = new ArrayList<>();

  public RecoveryManager(Config cfg, int logLink, int replyLink, long linkNanos) {
    this(cfg, new int[] {logLink}, replyLink, linkNanos);
  }

  /** @param logLinks links to the log's devices, by the device index in a piece's d */
  public RecoveryManager(Config cfg, int[] logLinks, int replyLink, long linkNanos) {
    this.cfg = cfg;
    this.replyLink = replyLink;
    this.linkNanos = linkNanos;
    for (int i = 0; i < 4; i++) {
      readers[i] = new PieceReader(cfg.readBytes(), cfg.readsInFlight(), cfg.headerBytes(), linkNanos, logLinks);
    }
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case RecoveryProtocol.RECOVER -> {
        if (running) throw new SimulationException("recovery manager: a recovery is already running");
        running = true;
        planned = false;
        crash = ctx.now();
        forward = ev.a();
        back = ev.b();
        for (PieceReader r : readers) r.reset();
        errorLog.add(new BackupAgent.Message(ctx.now(), "Starting up database 'db'."));
      }
      case RecoveryProtocol.HEADERS, RecoveryProtocol.ANALYSIS, RecoveryProtocol.REDO, RecoveryProtocol.UNDO ->
          readers[ev.kind() - RecoveryProtocol.HEADERS].add(ev.a(), ev.b(), ev.c(), ev.d());
      case RecoveryProtocol.END -> {
        planned = true;
        startPhase(ctx, 0);
      }
      case DeviceProtocol.DONE -> {
        long bytes = readers[phase].completed(ev.a(), ev.b());
        double rate = phase == 2 ? cfg.redoApplyMBps() : phase == 3 ? cfg.undoApplyMBps() : 0;
        if (bytes > 0 && rate > 0) {
          applyBusyUntil = Math.max(ctx.now(), applyBusyUntil) + (long) Math.ceil(bytes * 1e3 / rate);
        }
        readers[phase].pump(ctx);
        endPhaseIfDone(ctx);
      }
      case TIMER_PHASE -> {
        timerSet = false;
        endPhase(ctx);
      }
      default -> throw new SimulationException("recovery manager: unknown event kind " + ev.kind());
    }
  }

  private void startPhase(Context ctx, int p) {
    phase = p;
    phaseStart = ctx.now();
    applyBusyUntil = ctx.now();
    readers[p].pump(ctx);
    endPhaseIfDone(ctx);
  }

  /** The phase's reads are done: it ends when what they brought is applied too. */
  private void endPhaseIfDone(Context ctx) {
    if (!readers[phase].done() || timerSet) return;
    if (applyBusyUntil > ctx.now()) {
      timerSet = true;
      ctx.schedule(applyBusyUntil, TIMER_PHASE, 0, 0);
      return;
    }
    endPhase(ctx);
  }

  private void endPhase(Context ctx) {
    long now = ctx.now();
    phaseNanos[phase] = now - phaseStart;
    switch (phase) {
      case 1 -> {
        // the estimate the server prints: what redo and undo have left to read, at the rate analysis read
        long left = readers[2].total() + readers[3].total();
        double estimate = phaseNanos[1] > 0 && readers[1].total() > 0
            ? left / (readers[1].total() / (phaseNanos[1] / 1e9)) : 0;
        errorLog.add(new BackupAgent.Message(now, String.format(Locale.ROOT, "Recovery of database 'db' (5) is 0%%"
            + " complete (approximately %d seconds remain). Phase 2 of 3. This is an informational message only."
            + " No user action is required.", Math.round(estimate))));
      }
      case 2 -> errorLog.add(new BackupAgent.Message(now, forward + " transactions rolled forward in database 'db'"
          + " (5). This is an informational message only. No user action is required."));
      case 3 -> errorLog.add(new BackupAgent.Message(now, back + " transactions rolled back in database 'db' (5)."
          + " This is an informational message only. No user action is required."));
      default -> { }
    }
    if (phase < 3) {
      startPhase(ctx, phase + 1);
      return;
    }
    long total = phaseNanos[0] + phaseNanos[1] + phaseNanos[2] + phaseNanos[3];
    errorLog.add(new BackupAgent.Message(now, String.format(Locale.ROOT, "Recovery completed for database db"
        + " (database ID 5) in %d second(s) (analysis %d ms, redo %d ms, undo %d ms.) This is an informational message"
        + " only. No user action is required.", Math.round(total / 1e9), phaseNanos[1] / 1_000_000,
        phaseNanos[2] / 1_000_000, phaseNanos[3] / 1_000_000)));
    long bytes = 0, boundaries = 0;
    for (PieceReader r : readers) {
      bytes += r.total();
      boundaries += r.boundaries();
    }
    recoveries.add(new Recovery(crash, phaseNanos[0], phaseNanos[1], phaseNanos[2], phaseNanos[3], forward, back,
        readers[0].headerReads(), bytes, boundaries));
    running = false;
    ctx.send(replyLink, now + linkNanos, RecoveryProtocol.DONE, now, 0);
  }

  /** It answers at once: a request, a completion or its timer may cause a send at the same instant. */
  @Override
  public long inputDelay(int port) {
    return 0;
  }

  @Override
  public Object snapshot() {
    PieceReader.State[] rs = new PieceReader.State[4];
    for (int i = 0; i < 4; i++) rs[i] = readers[i].state();
    return new State(running, planned, phase, phaseStart, crash, forward, back, applyBusyUntil, timerSet,
        phaseNanos.clone(), rs, List.copyOf(recoveries), List.copyOf(errorLog));
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    running = s.running();
    planned = s.planned();
    phase = s.phase();
    phaseStart = s.phaseStart();
    crash = s.crash();
    forward = s.forward();
    back = s.back();
    applyBusyUntil = s.applyBusyUntil();
    timerSet = s.timerSet();
    System.arraycopy(s.phaseNanos(), 0, phaseNanos, 0, 4);
    for (int i = 0; i < 4; i++) readers[i].restore(s.readers()[i]);
    recoveries.clear();
    recoveries.addAll(s.recoveries());
    errorLog.clear();
    errorLog.addAll(s.errorLog());
  }

  public record State(boolean running, boolean planned, int phase, long phaseStart, long crash, long forward,
      long back, long applyBusyUntil, boolean timerSet, long[] phaseNanos, PieceReader.State[] readers,
      List<Recovery> recoveries, List<BackupAgent.Message> errorLog) implements CborSerializable {}

  @Override
  public Object results() {
    return new Stats(List.copyOf(recoveries), List.copyOf(errorLog));
  }
}
