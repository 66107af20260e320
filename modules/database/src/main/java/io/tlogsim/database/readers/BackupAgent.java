package io.tlogsim.database.readers;

import io.tlogsim.database.logspace.BackupHistory;
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
 * Takes backups (BACKUP DATABASE, DIFFERENTIAL, LOG) and restores (RESTORE DATABASE, RESTORE LOG) through the storage
 * models (REFERENCE.md 1, 3).
 *
 * <p><b>Backups.</b> It reads what the database lists (the active log's VLF pieces, the data file's pages) at its
 * device's pace and writes every byte read to the backup device as soon as it is read. Reading the log:
 * {@link PieceReader} (at each VLF boundary or file switch the stream drains and the next VLF's header is read).
 * Progress ("N percent processed.") and the completion line go to the messages in virtual time; the backup set's
 * duration ends when its last byte is written. Then msdb writes the history rows ({@link Msdb}, unless trace flag
 * 3001) and only then does the command return.
 *
 * <p><b>Restores.</b> A restore is a list of steps the database sends: zero-fills (a file created, a log file always
 * zeroed; a zero-fill with a position is a file the replay creates when it reaches that many bytes of what it copies:
 * RESTORE LOG redoing an ADD FILE or a growth), copies from the backup device to the database's devices (the data
 * pages of a full backup, the log backup's records into the log files) and the data pages a RESTORE LOG redoes (read
 * from the data device as the replay reaches them, written back when it ends). The zero-fills without a position go
 * first, all at once; the copies stream ({@code readsInFlight} reads at a time); a zero-fill with a position waits for
 * the copy to reach it and holds the replay until it is done. RESTORE LOG replays what it copies at
 * {@code restoreApplyMBps}.
 */
public final class BackupAgent implements SimComponent {
  /** Device indexes in a PIECE's d and in the agent's links. */
  public static final int LOG_DEVICE = 0;
  public static final int DATA_DEVICE = 1;
  static final int TIMER_HISTORY = 50;
  static final int TIMER_APPLIED = 51;
  private static final long WRITE_TAG = 1L << 41;
  private static final long ZERO_TAG = 1L << 45;
  private static final long COPY_READ_TAG = 1L << 46;
  private static final long COPY_WRITE_TAG = 1L << 47;
  private static final long PAGE_READ_TAG = 1L << 48;
  private static final long PAGE_WRITE_TAG = 1L << 49;

  /**
   * @param readBytes largest read of the log or data
   * @param readsInFlight reads outstanding at once
   * @param headerBytes a VLF header read
   * @param pageBytes what "pages" counts (8 KB)
   * @param historyRowUs, historyRowGrowthUs the former closed form of the history's cost, used only when the run has
   *     no msdb to write it (row k costs historyRowUs + historyRowGrowthUs x k)
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
   * One restore: when it began, how long it zeroed (the files it created first, and those the replay created), when
   * its copy (and, for a log, replay) ended, and what it wrote.
   */
  public record Restore(int number, String type, long startNanos, long zeroDoneNanos, long endNanos, long zeroedBytes,
      long copiedBytes, long replayZeroNanos, long pagesRedone) implements CborSerializable {

    public double zeroInitSeconds() {
      return (zeroDoneNanos - startNanos + replayZeroNanos) / 1e9;
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
  private final int[] deviceLinks; // by the database's device index (LOG_DEVICE, DATA_DEVICE, ...)
  private final int backupLink;
  private final int replyLink;
  private final long linkNanos;
  private int msdbLink = -1; // msdb, which writes the history rows (-1: none)

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
  private long historyAt = -1; // the history is being written (or, for a restore, the replay's end is scheduled)
  private long dataDone;
  // a restore: its steps as the database listed them
  private long[] zeros = new long[4 * 4]; // device offset, bytes, position (<= 0: first), d
  private int zeroCount;
  private long[] copies = new long[4 * 4]; // source offset, bytes, destination offset, d
  private int copyCount;
  private long[] pages = new long[3]; // first page's offset, count, d (count 0: no redo)
  // ... and how far it is
  private int zerosLeft; // the first zero-fills still on the device
  private long zeroedBytes;
  private long zeroDoneAt = -1;
  private int midZero; // the next zero-fill with a position (index into zeros)
  private boolean midZeroing;
  private long midZeroStart;
  private long replayZeroNanos;
  private int copy;
  private long copyDone;
  private long copyIssued; // bytes of the copy stream read so far (issued)
  private long copyTotal;
  private int copyReads;
  private int copyWrites;
  private long copied;
  private long applyBusyUntil;
  private long pagesRead; // redo's page reads issued
  private int pageReads;
  private long pagesWritten; // ... and its writes issued
  private int pageWrites;
  // a ring of the copy reads' destinations (offset, d, bytes): at most readsInFlight (<= 1,024) at once
  private long[] dest = new long[3 * 1024];
  private int destFirst;
  private int destCount;
  private final List<Restore> restores = new ArrayList<>();
  private final List<Backup> backups = new ArrayList<>();
  private final List<Message> messages = new ArrayList<>();

  /**
   * @param deviceLinks links to the database's devices (index {@link #LOG_DEVICE}, {@link #DATA_DEVICE}, ...)
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

  /** msdb at the end of {@code link} writes the history rows (its replies come on the agent's device port). */
  public BackupAgent withMsdb(int link) {
    msdbLink = link;
    return this;
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case BackupProtocol.BEGIN -> begin(ctx, (int) ev.a(), (int) ev.b(), ev.c());
      case BackupProtocol.PIECE -> reader.add(ev.a(), ev.b(), ev.c(), ev.d());
      case BackupProtocol.ZERO_FILL -> {
        if (zeroCount * 4 == zeros.length) zeros = Arrays.copyOf(zeros, zeros.length * 2);
        int i = zeroCount++ * 4;
        zeros[i] = ev.a();
        zeros[i + 1] = ev.b();
        zeros[i + 2] = ev.c();
        zeros[i + 3] = ev.d();
      }
      case BackupProtocol.COPY -> {
        if (copyCount * 4 == copies.length) copies = Arrays.copyOf(copies, copies.length * 2);
        int i = copyCount++ * 4;
        copies[i] = ev.a();
        copies[i + 1] = ev.b();
        copies[i + 2] = ev.c();
        copies[i + 3] = ev.d();
        copyTotal += ev.b();
      }
      case BackupProtocol.PAGES -> {
        pages[0] = ev.a();
        pages[1] = ev.b();
        pages[2] = ev.d();
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
      case DeviceProtocol.DONE -> completed(ctx, ev.a(), ev.b());
      case TIMER_HISTORY -> historyWritten(ctx, historyAt - dataDone);
      case Msdb.WRITTEN -> historyWritten(ctx, ev.c());
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
    pages[1] = 0;
    zerosLeft = 0;
    midZero = 0;
    midZeroing = false;
    replayZeroNanos = 0;
    copy = 0;
    copyDone = 0;
    copyIssued = 0;
    copyTotal = 0;
    copied = 0;
    pagesRead = 0;
    pagesWritten = 0;
    zeroedBytes = 0;
    zeroDoneAt = -1;
    planned = false;
    written = 0;
    backupOffset = 0;
    nextPercent = cfg.statsPercent();
    start = ctx.now();
  }

  private void completed(Context ctx, long tag, long bytes) {
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
    historyAt = now;
    if (cfg.traceFlag3001() || historyRows == 0) {
      historyWritten(ctx, 0);
    } else if (msdbLink >= 0) { // msdb writes the rows (REFERENCE.md 3): the command returns when it has
      ctx.send(msdbLink, now + linkNanos, Msdb.WRITE, number, historyRows);
    } else {
      historyAt = now + VirtualTime.seconds(BackupHistory.writeSeconds(historyRows, cfg.historyRowUs(),
          cfg.historyRowGrowthUs()));
      ctx.schedule(historyAt, TIMER_HISTORY, 0, 0);
    }
  }

  private void historyWritten(Context ctx, long historyNanos) {
    long total = reader.total();
    long pages = (total + cfg.pageBytes() - 1) / cfg.pageBytes();
    long rows = cfg.traceFlag3001() ? 0 : historyRows;
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

  /** The files the backup lists are created (zeroed) first, all at once (REFERENCE.md 1). */
  private void startRestore(Context ctx) {
    sortMidZeroes();
    for (int k = 0; k < zeroCount; k++) {
      if (zeros[k * 4 + 2] > 0) continue; // created when the replay reaches it
      zero(ctx, k);
      zerosLeft++;
    }
    midZero = firstMidZero(0);
    if (zerosLeft == 0) zeroesDone(ctx);
  }

  private void zero(Context ctx, int k) {
    long d = zeros[k * 4 + 3];
    ctx.send(deviceLinks[(int) ((d >>> 32) & 0xff)], ctx.now() + linkNanos, DeviceProtocol.ZERO, ZERO_TAG,
        zeros[k * 4 + 1], zeros[k * 4], d & 0xffff_ffffL);
    zeroedBytes += zeros[k * 4 + 1];
  }

  /** The zero-fills with a position, in the order the replay reaches them (the others keep their place). */
  private void sortMidZeroes() {
    for (int i = 1; i < zeroCount; i++) { // insertion sort by position: few entries
      for (int j = i; j > 0 && zeros[j * 4 + 2] > 0 && zeros[(j - 1) * 4 + 2] > zeros[j * 4 + 2]; j--) {
        for (int f = 0; f < 4; f++) {
          long t = zeros[j * 4 + f];
          zeros[j * 4 + f] = zeros[(j - 1) * 4 + f];
          zeros[(j - 1) * 4 + f] = t;
        }
      }
    }
  }

  private int firstMidZero(int from) {
    for (int k = from; k < zeroCount; k++) if (zeros[k * 4 + 2] > 0) return k;
    return zeroCount;
  }

  private void zeroesDone(Context ctx) {
    zeroDoneAt = ctx.now();
    applyBusyUntil = ctx.now();
    pumpRestore(ctx);
    restoreIfDone(ctx);
  }

  /** Where the replay must stop until a file it creates is zeroed: the next zero-fill's position, or the end. */
  private long barrier() {
    return midZero < zeroCount ? zeros[midZero * 4 + 2] : Long.MAX_VALUE;
  }

  private void pumpRestore(Context ctx) {
    if (midZeroing) return;
    if (midZero < zeroCount && (copyIssued >= barrier() || copy >= copyCount) && copyReads == 0 && copyWrites == 0) {
      midZeroing = true; // the replay reached an ADD FILE (or a growth): the file is created and zeroed first
      midZeroStart = ctx.now();
      zero(ctx, midZero);
      return;
    }
    while (copy < copyCount && copyReads < cfg.readsInFlight() && copyIssued < barrier()) {
      int i = copy * 4;
      long n = Math.min(Math.min(cfg.readBytes(), copies[i + 1] - copyDone), barrier() - copyIssued);
      ctx.send(backupLink, ctx.now() + linkNanos, DeviceProtocol.READ, COPY_READ_TAG | n, n, copies[i] + copyDone, 0);
      copyReads++;
      // where the read's bytes go: written as reads complete, in the order they were issued
      int j = ((destFirst + destCount) % (dest.length / 3)) * 3;
      dest[j] = copies[i + 2] + copyDone;
      dest[j + 1] = copies[i + 3];
      dest[j + 2] = n;
      destCount++;
      copyDone += n;
      copyIssued += n;
      if (copyDone == copies[i + 1]) {
        copy++;
        copyDone = 0;
      }
    }
    // redo's pages: read as the replay reaches them (in proportion to what it has copied), written when it ends
    long count = pages[1];
    long d = pages[2];
    int device = (int) ((d >>> 32) & 0xff);
    while (pagesRead < count && pageReads < cfg.readsInFlight()
        && (copyTotal == 0 || (double) pagesRead / count <= (double) copied / copyTotal)) {
      ctx.send(deviceLinks[device], ctx.now() + linkNanos, DeviceProtocol.READ, PAGE_READ_TAG, cfg.pageBytes(),
          pages[0] + pagesRead * cfg.pageBytes(), d & 0xffff_ffffL);
      pagesRead++;
      pageReads++;
    }
    boolean replayed = copy >= copyCount && copyReads == 0 && copyWrites == 0 && pagesRead == count && pageReads == 0;
    while (replayed && pagesWritten < count && pageWrites < cfg.readsInFlight()) {
      ctx.send(deviceLinks[device], ctx.now() + linkNanos, DeviceProtocol.WRITE, PAGE_WRITE_TAG, cfg.pageBytes(),
          pages[0] + pagesWritten * cfg.pageBytes(), d & 0xffff_ffffL);
      pagesWritten++;
      pageWrites++;
    }
  }

  private void restoreCompleted(Context ctx, long tag, long bytes) {
    if (tag == ZERO_TAG) {
      if (midZeroing) {
        midZeroing = false;
        replayZeroNanos += ctx.now() - midZeroStart;
        midZero = firstMidZero(midZero + 1);
      } else if (--zerosLeft == 0) {
        zeroesDone(ctx);
        return;
      }
    } else if (tag == PAGE_READ_TAG) {
      pageReads--;
    } else if (tag == PAGE_WRITE_TAG) {
      pageWrites--;
    } else if ((tag & COPY_READ_TAG) != 0) {
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
    pumpRestore(ctx);
    restoreIfDone(ctx);
  }

  private void restoreIfDone(Context ctx) {
    if (zeroDoneAt < 0 || midZeroing || midZero < zeroCount || copy < copyCount || copyReads > 0 || copyWrites > 0
        || pagesWritten < pages[1] || pageReads > 0 || pageWrites > 0 || historyAt >= 0) {
      return;
    }
    historyAt = Math.max(ctx.now(), applyBusyUntil); // the replay's end
    ctx.schedule(historyAt, TIMER_APPLIED, 0, 0);
  }

  private void restoreDone(Context ctx) {
    long now = ctx.now();
    long pageCount = (copied + cfg.pageBytes() - 1) / cfg.pageBytes();
    double seconds = (now - start) / 1e9;
    messages.add(new Message(now, String.format(Locale.ROOT, "%s successfully processed %d pages in %.3f seconds"
        + " (%.3f MB/sec).", BackupProtocol.command(type), pageCount, seconds,
        seconds > 0 ? copied / (double) (1 << 20) / seconds : 0)));
    restores.add(new Restore(number, BackupProtocol.typeName(type), start, zeroDoneAt, now, zeroedBytes, copied,
        replayZeroNanos, pages[1]));
    ctx.send(replyLink, now + linkNanos, BackupProtocol.DONE, number, pageCount, now, 0);
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
        Arrays.copyOf(zeros, zeroCount * 4), Arrays.copyOf(copies, copyCount * 4), pages.clone(),
        new long[] {zerosLeft, zeroedBytes, zeroDoneAt, midZero, midZeroing ? 1 : 0, midZeroStart, replayZeroNanos, copy,
            copyDone, copyIssued, copyTotal, copyReads, copyWrites, copied, applyBusyUntil, pagesRead, pageReads,
            pagesWritten, pageWrites},
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
    zeroCount = s.zeros().length / 4;
    zeros = Arrays.copyOf(s.zeros(), Math.max(16, s.zeros().length));
    copyCount = s.copies().length / 4;
    copies = Arrays.copyOf(s.copies(), Math.max(16, s.copies().length));
    pages = s.pages().clone();
    long[] c = s.progress();
    zerosLeft = (int) c[0];
    zeroedBytes = c[1];
    zeroDoneAt = c[2];
    midZero = (int) c[3];
    midZeroing = c[4] != 0;
    midZeroStart = c[5];
    replayZeroNanos = c[6];
    copy = (int) c[7];
    copyDone = c[8];
    copyIssued = c[9];
    copyTotal = c[10];
    copyReads = (int) c[11];
    copyWrites = (int) c[12];
    copied = c[13];
    applyBusyUntil = c[14];
    pagesRead = c[15];
    pageReads = (int) c[16];
    pagesWritten = c[17];
    pageWrites = (int) c[18];
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
      List<Backup> backups, List<Message> messages, long[] zeros, long[] copies, long[] pages, long[] progress,
      List<Restore> restores, long[] dest) implements CborSerializable {}

  @Override
  public Object results() {
    return new Stats(List.copyOf(backups), List.copyOf(restores), List.copyOf(messages));
  }
}
