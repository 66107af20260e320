package io.tlogsim.database.readers;

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
 * Takes backups (BACKUP DATABASE, DIFFERENTIAL, LOG) through the storage models: reads what the database lists (the
 * active log's VLF pieces, a data file) at its device's pace and writes it to the backup device, then writes the
 * msdb history rows (REFERENCE.md 3).
 *
 * <p>Reading the log: {@link PieceReader} (at each VLF boundary or file switch the stream drains and the next VLF's
 * header is read, REFERENCE.md 3). Each read's bytes are written to the backup device as soon as they are read.
 * Progress ("N percent processed.") and the completion line go to the messages in virtual time; the backup set's
 * duration ends when the last byte is written, before the history rows. Restores go through here too: every log file
 * zero-initialized first, then the backup copied back (and a log backup replayed).
 */
public final class BackupAgent implements SimComponent {
  /** Device indexes in a PIECE's d and in the agent's links. */
  public static final int LOG_DEVICE = 0;
  public static final int DATA_DEVICE = 1;
  static final int TIMER_HISTORY = 50;
  private static final long WRITE_TAG = 1L << 41;
  private static final long ZERO_TAG = 1L << 45;
  private static final long COPY_READ_TAG = 1L << 46;
  private static final long COPY_WRITE_TAG = 1L << 47;
  static final int TIMER_APPLIED = 51;

  /**
   * @param readBytes largest read of the log or data
   * @param readsInFlight reads outstanding at once
   * @param headerBytes a VLF header read
   * @param pageBytes what "pages" counts (8 KB)
   * @param historyRowUs cost of the first history row; row k costs {@code historyRowUs + historyRowGrowthUs x k}
   * @param traceFlag3001 skip the history rows
   * @param restoreApplyMBps MB/s (10^6 B/s) at which RESTORE LOG replays what it copies (redo's rate)
   */
  public record Config(int readBytes, int readsInFlight, int headerBytes, int pageBytes, double historyRowUs,
      double historyRowGrowthUs, boolean traceFlag3001, int statsPercent, double restoreApplyMBps)
      implements CborSerializable {}

  /** One backup set: what the completion line and backupset say, and what history cost after it. */
  public record Backup(int number, String type, long pages, long bytes, long startNanos, long dataDoneNanos,
      long historyRows, long historyNanos, long reads, long headerReads, long boundaries) implements CborSerializable {

    public double seconds() {
      return (dataDoneNanos - startNanos) / 1e9;
    }

    public double historySeconds() {
      return historyNanos / 1e9;
    }
  }

  /**
   * One restore: when it began, when its log files were zero-initialized, when its copy (and, for a log, replay)
   * ended.
   */
  public record Restore(int number, String type, long startNanos, long zeroDoneNanos, long endNanos, long zeroedBytes,
      long copiedBytes) implements CborSerializable {

    public double zeroInitSeconds() {
      return (zeroDoneNanos - startNanos) / 1e9;
    }

    public double seconds() {
      return (endNanos - startNanos) / 1e9;
    }
  }

  /** A line of the client's messages or the error log, in virtual time. */
  public record Message(long timeNanos, String text) implements CborSerializable {}

  /** What the agent did in the run. */
  public record Stats(List<Backup> backups, List<Restore> restores, List<Message> messages)
      implements CborSerializable {}

  private final Config cfg;
  private final int[] deviceLinks; // LOG_DEVICE, DATA_DEVICE, then the backup device
  private final int backupLink;
  private final int replyLink;
  private final long linkNanos;

  private final PieceReader reader;

  // ---- state (snapshot: State) ----
  private int number = -1;
  private int type;
  private long historyRows;
  private int writesInFlight;
  private boolean planned; // END arrived
  private long written;
  private long backupOffset;
  private int nextPercent;
  private long start;
  private long historyAt = -1;
  private long dataDone;
  // a restore: zero-fills first, then copies (read from the backup device, written to the database's device)
  private long[] zeros = new long[3 * 4]; // device offset, bytes, d
  private int zeroCount;
  private int zerosLeft;
  private long zeroedBytes;
  private long zeroDoneAt = -1;
  private long[] copies = new long[4 * 4]; // source offset, bytes, destination offset, d
  private int copyCount;
  private int copy;
  private long copyDone;
  private int copyReads;
  private int copyWrites;
  private long copied;
  private long applyBusyUntil;
  // a ring of the copy reads' destinations (offset, d, bytes): at most backupReadsInFlight (<= 1,024) at once
  private long[] dest = new long[3 * 1024];
  private int destFirst;
  private int destCount;
  private final List<Restore> restores = new ArrayList<>();
  private final List<Backup> backups = new ArrayList<>();
  private final List<Message> messages = new ArrayList<>();

  /**
   * @param deviceLinks links to the log device and the data device (index {@link #LOG_DEVICE}, {@link #DATA_DEVICE})
   * @param backupLink link to the backup device
   * @param replyLink link back to the database
   * @param linkNanos the delay of every link (what every send adds)
   */
  public BackupAgent(Config cfg, int[] deviceLinks, int backupLink, int replyLink, long linkNanos) {
    this.cfg = cfg;
    this.linkNanos = linkNanos;
    this.deviceLinks = deviceLinks.clone();
    this.backupLink = backupLink;
    this.replyLink = replyLink;
    this.reader = new PieceReader(cfg.readBytes(), cfg.readsInFlight(), cfg.headerBytes(), linkNanos, deviceLinks);
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case BackupProtocol.BEGIN -> begin(ctx, (int) ev.a(), (int) ev.b(), ev.c());
      case BackupProtocol.PIECE -> reader.add(ev.a(), ev.b(), ev.c(), ev.d());
      case BackupProtocol.ZERO_FILL -> {
        if (zeroCount * 3 == zeros.length) zeros = Arrays.copyOf(zeros, zeros.length * 2);
        zeros[zeroCount * 3] = ev.a();
        zeros[zeroCount * 3 + 1] = ev.b();
        zeros[zeroCount * 3 + 2] = ev.d();
        zeroCount++;
      }
      case BackupProtocol.COPY -> {
        if (copyCount * 4 == copies.length) copies = Arrays.copyOf(copies, copies.length * 2);
        copies[copyCount * 4] = ev.a();
        copies[copyCount * 4 + 1] = ev.b();
        copies[copyCount * 4 + 2] = ev.c();
        copies[copyCount * 4 + 3] = ev.d();
        copyCount++;
      }
      case BackupProtocol.END -> {
        planned = true;
        if (isRestore()) {
          startRestore(ctx);
        } else {
          reader.pump(ctx);
          finishIfDone(ctx);
        }
      }
      case TIMER_APPLIED -> restoreDone(ctx);
      case DeviceProtocol.DONE -> completed(ctx, ev.a(), ev.b(), (int) ev.c());
      case TIMER_HISTORY -> historyWritten(ctx);
      default -> throw new SimulationException("backup agent: unknown event kind " + ev.kind());
    }
  }

  private void begin(Context ctx, int n, int t, long rows) {
    if (number >= 0) throw new SimulationException("backup agent: backup " + n + " asked while " + number + " runs");
    number = n;
    type = t;
    historyRows = rows;
    reader.reset();
    zeroCount = 0;
    copyCount = 0;
    copy = 0;
    copyDone = 0;
    copied = 0;
    zeroedBytes = 0;
    zeroDoneAt = -1;
    planned = false;
    written = 0;
    backupOffset = 0;
    nextPercent = cfg.statsPercent();
    start = ctx.now();
  }

  private void completed(Context ctx, long tag, long bytes, int kind) {
    if (isRestore()) {
      restoreCompleted(ctx, tag, bytes);
      return;
    }
    if (tag == WRITE_TAG) {
      writesInFlight--;
      written += bytes;
      long total = reader.total();
      while (total > 0 && nextPercent <= 100 && written * 100 >= nextPercent * total) {
        messages.add(new Message(ctx.now(), nextPercent + " percent processed."));
        nextPercent += cfg.statsPercent();
      }
    } else if (reader.completed(tag, bytes) > 0) { // a data read: its bytes go to the backup device
      ctx.send(backupLink, ctx.now() + linkNanos, DeviceProtocol.WRITE, WRITE_TAG, bytes, backupOffset, 0);
      backupOffset += bytes;
      writesInFlight++;
    }
    reader.pump(ctx);
    finishIfDone(ctx);
  }

  private void finishIfDone(Context ctx) {
    if (number < 0 || !planned || historyAt >= 0 || !reader.done() || writesInFlight > 0) return;
    long total = reader.total();
    long now = ctx.now();
    dataDone = now;
    long pages = (total + cfg.pageBytes() - 1) / cfg.pageBytes();
    double seconds = (now - start) / 1e9;
    double mibPerSec = seconds > 0 ? pages * (double) cfg.pageBytes() / (1 << 20) / seconds : 0;
    messages.add(new Message(now, String.format(Locale.ROOT, "%s successfully processed %d pages in %.3f seconds"
        + " (%.3f MB/sec).", BackupProtocol.command(type), pages, seconds, mibPerSec)));
    long historyNanos = cfg.traceFlag3001() ? 0 : VirtualTime.seconds(BackupHistory.writeSeconds(historyRows,
        cfg.historyRowUs(), cfg.historyRowGrowthUs()));
    historyAt = now + historyNanos;
    ctx.schedule(historyAt, TIMER_HISTORY, 0, 0);
  }

  private void historyWritten(Context ctx) {
    long total = reader.total();
    long pages = (total + cfg.pageBytes() - 1) / cfg.pageBytes();
    long rows = cfg.traceFlag3001() ? 0 : historyRows;
    long historyNanos = historyAt - dataDone;
    backups.add(new Backup(number, BackupProtocol.typeName(type), pages, total, start, dataDone, rows, historyNanos,
        reader.reads(), reader.headerReads(), reader.boundaries()));
    if (rows > 0) {
      messages.add(new Message(ctx.now(), rows + " msdb.backupfile rows written ("
          + String.format(Locale.ROOT, "%.3f", historyNanos / 1e9) + " s)."));
    }
    ctx.send(replyLink, ctx.now() + linkNanos, BackupProtocol.DONE, number, pages, dataDone, historyNanos);
    number = -1;
    historyAt = -1;
  }

  // ------------------------------------------------------------------------------------------------ restore

  private boolean isRestore() {
    return number >= 0 && (type == BackupProtocol.RESTORE_DATABASE || type == BackupProtocol.RESTORE_LOG);
  }

  /** Every log file is zero-initialized first (REFERENCE.md 1: logs get no instant initialization). */
  private void startRestore(Context ctx) {
    zerosLeft = zeroCount;
    for (int k = 0; k < zeroCount; k++) {
      long d = zeros[k * 3 + 2];
      ctx.send(deviceLinks[(int) ((d >>> 32) & 0xff)], ctx.now() + linkNanos, DeviceProtocol.ZERO, ZERO_TAG,
          zeros[k * 3 + 1], zeros[k * 3], d & 0xffff_ffffL);
      zeroedBytes += zeros[k * 3 + 1];
    }
    if (zerosLeft == 0) zeroesDone(ctx);
  }

  private void zeroesDone(Context ctx) {
    zeroDoneAt = ctx.now();
    applyBusyUntil = ctx.now();
    pumpCopies(ctx);
    restoreIfDone(ctx);
  }

  private void pumpCopies(Context ctx) {
    while (copy < copyCount && copyReads < cfg.readsInFlight()) {
      int i = copy * 4;
      long n = Math.min(cfg.readBytes(), copies[i + 1] - copyDone);
      ctx.send(backupLink, ctx.now() + linkNanos, DeviceProtocol.READ, COPY_READ_TAG | n, n, copies[i] + copyDone, 0);
      copyReads++;
      // where the read's bytes go: written as reads complete, in the order they were issued
      int j = ((destFirst + destCount) % (dest.length / 3)) * 3;
      dest[j] = copies[i + 2] + copyDone;
      dest[j + 1] = copies[i + 3];
      dest[j + 2] = n;
      destCount++;
      copyDone += n;
      if (copyDone == copies[i + 1]) {
        copy++;
        copyDone = 0;
      }
    }
  }

  private void restoreCompleted(Context ctx, long tag, long bytes) {
    if (tag == ZERO_TAG) {
      if (--zerosLeft == 0) zeroesDone(ctx);
      return;
    }
    if ((tag & COPY_READ_TAG) != 0) {
      copyReads--;
      int j = destFirst * 3;
      long d = dest[j + 1];
      ctx.send(deviceLinks[(int) ((d >>> 32) & 0xff)], ctx.now() + linkNanos, DeviceProtocol.WRITE,
          COPY_WRITE_TAG | dest[j + 2], dest[j + 2], dest[j], d & 0xffff_ffffL);
      copyWrites++;
      destFirst = (destFirst + 1) % (dest.length / 3);
      destCount--;
    } else if ((tag & COPY_WRITE_TAG) != 0) {
      copyWrites--;
      copied += bytes;
      if (type == BackupProtocol.RESTORE_LOG && cfg.restoreApplyMBps() > 0) {
        applyBusyUntil = Math.max(ctx.now(), applyBusyUntil) + (long) Math.ceil(bytes * 1e3 / cfg.restoreApplyMBps());
      }
    }
    pumpCopies(ctx);
    restoreIfDone(ctx);
  }

  private void restoreIfDone(Context ctx) {
    if (zeroDoneAt < 0 || copy < copyCount || copyReads > 0 || copyWrites > 0 || historyAt >= 0) return;
    historyAt = Math.max(ctx.now(), applyBusyUntil); // the replay's end
    ctx.schedule(historyAt, TIMER_APPLIED, 0, 0);
  }

  private void restoreDone(Context ctx) {
    long now = ctx.now();
    long pages = (copied + cfg.pageBytes() - 1) / cfg.pageBytes();
    double seconds = (now - start) / 1e9;
    messages.add(new Message(now, String.format(Locale.ROOT, "%s successfully processed %d pages in %.3f seconds"
        + " (%.3f MB/sec).", BackupProtocol.command(type), pages, seconds,
        seconds > 0 ? copied / (double) (1 << 20) / seconds : 0)));
    restores.add(new Restore(number, BackupProtocol.typeName(type), start, zeroDoneAt, now, zeroedBytes, copied));
    ctx.send(replyLink, now + linkNanos, BackupProtocol.DONE, number, pages, now, 0);
    number = -1;
    historyAt = -1;
  }

  /** It answers at once: a request, a completion or its timer may cause a send at the same instant. */
  @Override
  public long inputDelay(int port) {
    return 0;
  }

  @Override
  public Object snapshot() {
    return new State(number, type, historyRows, reader.state(), writesInFlight, planned, written, backupOffset,
        nextPercent, start, historyAt, dataDone, List.copyOf(backups), List.copyOf(messages),
        Arrays.copyOf(zeros, zeroCount * 3), zeroCount, zerosLeft, zeroedBytes, zeroDoneAt,
        Arrays.copyOf(copies, copyCount * 4), copyCount, copy, copyDone, copyReads, copyWrites, copied, applyBusyUntil,
        List.copyOf(restores), destinations());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    number = s.number();
    type = s.type();
    historyRows = s.historyRows();
    reader.restore(s.reader());
    writesInFlight = s.writesInFlight();
    planned = s.planned();
    written = s.written();
    backupOffset = s.backupOffset();
    nextPercent = s.nextPercent();
    start = s.start();
    historyAt = s.historyAt();
    dataDone = s.dataDone();
    backups.clear();
    backups.addAll(s.backups());
    messages.clear();
    messages.addAll(s.messages());
    zeros = Arrays.copyOf(s.zeros(), Math.max(12, s.zeros().length));
    zeroCount = s.zeroCount();
    zerosLeft = s.zerosLeft();
    zeroedBytes = s.zeroedBytes();
    zeroDoneAt = s.zeroDoneAt();
    copies = Arrays.copyOf(s.copies(), Math.max(16, s.copies().length));
    copyCount = s.copyCount();
    copy = s.copy();
    copyDone = s.copyDone();
    copyReads = s.copyReads();
    copyWrites = s.copyWrites();
    copied = s.copied();
    applyBusyUntil = s.applyBusyUntil();
    restores.clear();
    restores.addAll(s.restores());
    destFirst = 0;
    destCount = s.dest().length / 3;
    System.arraycopy(s.dest(), 0, dest, 0, s.dest().length);
  }

  /** The ring of destinations, oldest first. */
  private long[] destinations() {
    long[] out = new long[destCount * 3];
    for (int k = 0; k < destCount; k++) {
      System.arraycopy(dest, ((destFirst + k) % (dest.length / 3)) * 3, out, k * 3, 3);
    }
    return out;
  }

  public record State(int number, int type, long historyRows, PieceReader.State reader, int writesInFlight,
      boolean planned, long written, long backupOffset, int nextPercent, long start, long historyAt, long dataDone,
      List<Backup> backups, List<Message> messages, long[] zeros, int zeroCount, int zerosLeft, long zeroedBytes,
      long zeroDoneAt, long[] copies, int copyCount, int copy, long copyDone, int copyReads, int copyWrites,
      long copied, long applyBusyUntil, List<Restore> restores, long[] dest) implements CborSerializable {}

  @Override
  public Object results() {
    return new Stats(List.copyOf(backups), List.copyOf(restores), List.copyOf(messages));
  }
}
