package io.tlogsim.database.readers;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Protocol;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.storage.DeviceProtocol;

/**
 * Transactional replication's log reader (REFERENCE.md 3: a reader of the log): on the database's schedule it reads
 * the log written since its last pass through the storage models ({@link PieceReader}), processing what it reads at
 * {@code processMBps}, and reports how far it has read. Until it has, the database may not truncate that log
 * (log_reuse_wait REPLICATION): a reader slower than the log grows it.
 */
public final class ReplicationLogReader implements SimComponent {
  /** Input ports: the database's requests, the log device's completions. */
  public static final int REQUESTS_PORT = 0;
  public static final int DEVICE_PORT = 1;
  /** A piece of log to read (payload as {@link BackupProtocol#PIECE}). */
  public static final int PIECE = 90;
  /** The pass is complete: a = the LSN it reads up to. */
  public static final int END = 91;
  /** Read: a = the LSN read up to (the database's input port {@code readpath.Database#REPLICATION_PORT}). */
  public static final int DONE = 92;
  static final int TIMER_PROCESSED = 93;

  public static final Protocol REQUESTS = Protocol.of("log reader requests", PIECE, "piece", END, "end");
  public static final Protocol REPLIES = Protocol.of("log reader replies", DONE, "done");

  private final double processMBps;
  private final int replyLink;
  private final long linkNanos;
  private final PieceReader reader;

  // ---- state (snapshot: State) ----
  private boolean reading;
  private long target;
  private long busyUntil;
  private boolean timerSet;
  private long passes;
  private long bytesRead;

  public ReplicationLogReader(int readBytes, int readsInFlight, int headerBytes, double processMBps, int logLink,
      int replyLink, long linkNanos) {
    this.processMBps = processMBps;
    this.replyLink = replyLink;
    this.linkNanos = linkNanos;
    this.reader = new PieceReader(readBytes, readsInFlight, headerBytes, linkNanos, new int[] {logLink});
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case PIECE -> {
        if (!reading) {
          reader.reset();
          reading = true;
          busyUntil = ctx.now();
        }
        reader.add(ev.a(), ev.b(), ev.c(), ev.d());
      }
      case END -> {
        reading = true;
        target = ev.a();
        reader.pump(ctx);
        doneIfRead(ctx);
      }
      case DeviceProtocol.DONE -> {
        long bytes = reader.completed(ev.a(), ev.b());
        if (bytes > 0) {
          bytesRead += bytes;
          busyUntil = Math.max(ctx.now(), busyUntil) + (long) Math.ceil(bytes * 1e3 / processMBps);
        }
        reader.pump(ctx);
        doneIfRead(ctx);
      }
      case TIMER_PROCESSED -> {
        timerSet = false;
        endPass(ctx);
      }
      default -> throw new SimulationException("log reader: unknown event kind " + ev.kind());
    }
  }

  private void doneIfRead(Context ctx) {
    if (!reading || !reader.done() || timerSet) return;
    if (busyUntil > ctx.now()) {
      timerSet = true;
      ctx.schedule(busyUntil, TIMER_PROCESSED, 0, 0);
      return;
    }
    endPass(ctx);
  }

  private void endPass(Context ctx) {
    reading = false;
    passes++;
    reader.reset();
    ctx.send(replyLink, ctx.now() + linkNanos, DONE, target, 0);
  }

  /** It answers at once: a request, a completion or its timer may cause a send at the same instant. */
  @Override
  public long inputDelay(int port) {
    return 0;
  }

  @Override
  public Object snapshot() {
    return new State(reading, target, busyUntil, timerSet, passes, bytesRead, reader.state());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    reading = s.reading();
    target = s.target();
    busyUntil = s.busyUntil();
    timerSet = s.timerSet();
    passes = s.passes();
    bytesRead = s.bytesRead();
    reader.restore(s.reader());
  }

  public record State(boolean reading, long target, long busyUntil, boolean timerSet, long passes, long bytesRead,
      PieceReader.State reader) implements CborSerializable {}

  public record Stats(long passes, long bytesRead) implements CborSerializable {}

  @Override
  public Object results() {
    return new Stats(passes, bytesRead);
  }
}
