package io.tlogsim.database.readers;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Protocol;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.List;

/**
 * msdb, the database that keeps backup history (REFERENCE.md 3, 5.4), as a database of the simulation: its
 * {@code backupfile} table is a clustered index whose leaf pages hold {@code rowsPerPage} rows each, and its data file
 * and log lie on a device of the server (the data device).
 *
 * <p>After a backup set is written the backup agent asks for its rows ({@link #WRITE}). The server writes them in one
 * transaction, one row at a time: first it looks the file up among the rows already in {@code backupfile} (a scan of
 * the index: {@code lookupRowUs} of CPU per row examined), then it inserts the row ({@code insertRowUs}) into the last
 * leaf page; a full page is written to the device and a new one allocated. Each row's log record joins msdb's log
 * buffer; a full log block is written at once (at most {@code maxOutstandingWrites} at a time, the rows waiting when
 * more would be needed), and the commit writes the rest and waits for it. So the time to write a backup's history
 * grows with the rows the table already holds: it comes out of the rows written before, not from a formula.
 */
public final class Msdb implements SimComponent {
  /** Input ports: the backup agent's requests, the device's completions. */
  public static final int REQUESTS_PORT = 0;
  public static final int DEVICE_PORT = 1;
  /** Write a backup set's history: a = backup number, b = rows. */
  public static final int WRITE = 95;
  /** The history is written and committed: a = backup number, b = rows, c = ns it took. */
  public static final int WRITTEN = 96;
  static final int TIMER_ROW = 97;

  public static final Protocol REQUESTS = Protocol.of("msdb requests", WRITE, "write");
  public static final Protocol REPLIES = Protocol.of("msdb replies", WRITTEN, "written");

  private static final long LOG_TAG = 1L << 48;
  private static final long PAGE_TAG = 1L << 49;
  /** Where msdb's files lie on the device: the data file here, its log 1 GiB further (apart from the user data). */
  public static final long DATA_OFFSET = 256L << 30;
  public static final long LOG_OFFSET = DATA_OFFSET + (1L << 30);

  /**
   * @param lookupRowUs CPU per backupfile row a lookup examines
   * @param insertRowUs CPU of one row's insert, besides its lookup
   * @param rowsPerPage backupfile rows per leaf page
   * @param rowLogBytes log bytes of one row's insert
   * @param commitLogBytes log bytes of the transaction's begin and commit
   * @param logBlockBytes msdb's largest log write (SQL Server: 60 KB)
   * @param sectorBytes a commit's write is rounded up to whole sectors
   * @param maxOutstandingWrites log writes in flight at most
   * @param pageBytes a data page
   * @param fileId msdb's file id in the device's per-file statistics
   */
  public record Config(double lookupRowUs, double insertRowUs, int rowsPerPage, int rowLogBytes, int commitLogBytes,
      int logBlockBytes, int sectorBytes, int maxOutstandingWrites, int pageBytes, int fileId)
      implements CborSerializable {}

  /** One backup set's history: its rows, the rows the table held before, the time, and what it wrote. */
  public record History(int backup, long rows, long rowsBefore, long nanos, long rowsExamined, long logWrites,
      long pageWrites) implements CborSerializable {}

  public record Stats(List<History> histories, long tableRows, long pages) implements CborSerializable {}

  private final Config cfg;
  private final int deviceLink;
  private final int replyLink;
  private final long linkNanos;

  // ---- state (snapshot: State) ----
  private long tableRows; // rows in backupfile
  private long pages; // its leaf pages (the last one is being filled)
  private int backup = -1; // the backup whose history is being written (-1: none)
  private long rows; // ... its rows
  private long done; // ... written so far
  private long rowsBefore;
  private long start;
  private long buffered; // log bytes not yet written
  private long logOffset; // where msdb's log is written next
  private int logWrites; // in flight
  private boolean waitingForLog; // a row waits for a log buffer (too many writes in flight)
  private boolean committing; // the commit's write is on its way
  private long examined;
  private long writesIssued;
  private long pageWrites;
  private final List<History> histories = new ArrayList<>();

  /** @param deviceLink the device msdb's files lie on */
  public Msdb(Config cfg, int deviceLink, int replyLink, long linkNanos) {
    this.cfg = cfg;
    this.deviceLink = deviceLink;
    this.replyLink = replyLink;
    this.linkNanos = linkNanos;
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case WRITE -> {
        if (backup >= 0) throw new SimulationException("msdb: history of backup " + ev.a() + " while " + backup);
        backup = (int) ev.a();
        rows = ev.b();
        done = 0;
        rowsBefore = tableRows;
        start = ctx.now();
        examined = 0;
        writesIssued = 0;
        pageWrites = 0;
        buffered += cfg.commitLogBytes(); // the transaction's begin
        nextRow(ctx);
      }
      case TIMER_ROW -> rowDone(ctx);
      case DeviceProtocol.DONE -> {
        if ((ev.a() & LOG_TAG) != 0) {
          logWrites--;
          if (waitingForLog) {
            waitingForLog = false;
            drainLogThenGoOn(ctx);
          } else if (committing && logWrites == 0) {
            committed(ctx);
          }
        }
      }
      default -> throw new SimulationException("msdb: unknown event kind " + ev.kind());
    }
  }

  /** The next row: its lookup over the rows already in the table, then its insert, on the CPU. */
  private void nextRow(Context ctx) {
    if (done == rows) {
      commit(ctx);
      return;
    }
    examined += tableRows;
    double us = cfg.lookupRowUs() * tableRows + cfg.insertRowUs();
    ctx.schedule(ctx.now() + Math.round(us * 1000), TIMER_ROW, 0, 0);
  }

  /** A row is in its page and its record in the log buffer. */
  private void rowDone(Context ctx) {
    tableRows++;
    done++;
    if (tableRows > pages * cfg.rowsPerPage()) { // the last page is full: written, a new one allocated
      if (pages > 0) {
        ctx.send(deviceLink, ctx.now() + linkNanos, DeviceProtocol.WRITE, PAGE_TAG, cfg.pageBytes(),
            DATA_OFFSET + (pages - 1) * cfg.pageBytes(), cfg.fileId());
        pageWrites++;
      }
      pages++;
    }
    buffered += cfg.rowLogBytes();
    drainLogThenGoOn(ctx);
  }

  /** Full log blocks are written at once; with too many in flight the next row waits for one to complete. */
  private void drainLogThenGoOn(Context ctx) {
    while (buffered >= cfg.logBlockBytes()) {
      if (logWrites >= cfg.maxOutstandingWrites()) {
        waitingForLog = true;
        return;
      }
      writeLog(ctx, cfg.logBlockBytes());
      buffered -= cfg.logBlockBytes();
    }
    nextRow(ctx);
  }

  private void writeLog(Context ctx, long bytes) {
    ctx.send(deviceLink, ctx.now() + linkNanos, DeviceProtocol.WRITE, LOG_TAG, bytes, LOG_OFFSET + logOffset,
        cfg.fileId());
    logOffset += bytes;
    logWrites++;
    writesIssued++;
  }

  /** The commit: what the buffer holds goes to the log (whole sectors), and the history is done when it is hard. */
  private void commit(Context ctx) {
    buffered += cfg.commitLogBytes();
    long bytes = (buffered + cfg.sectorBytes() - 1) / cfg.sectorBytes() * cfg.sectorBytes();
    writeLog(ctx, bytes);
    buffered = 0;
    committing = true;
  }

  private void committed(Context ctx) {
    committing = false;
    long nanos = ctx.now() - start;
    histories.add(new History(backup, rows, rowsBefore, nanos, examined, writesIssued, pageWrites));
    ctx.send(replyLink, ctx.now() + linkNanos, WRITTEN, backup, rows, nanos, 0);
    backup = -1;
  }

  /** It answers at once: a request, a completion or its timer may cause a send at the same instant. */
  @Override
  public long inputDelay(int port) {
    return 0;
  }

  @Override
  public Object snapshot() {
    return new State(new long[] {tableRows, pages, backup, rows, done, rowsBefore, start, buffered, logOffset, logWrites,
        waitingForLog ? 1 : 0, committing ? 1 : 0, examined, writesIssued, pageWrites}, List.copyOf(histories));
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    long[] c = s.counters();
    tableRows = c[0];
    pages = c[1];
    backup = (int) c[2];
    rows = c[3];
    done = c[4];
    rowsBefore = c[5];
    start = c[6];
    buffered = c[7];
    logOffset = c[8];
    logWrites = (int) c[9];
    waitingForLog = c[10] != 0;
    committing = c[11] != 0;
    examined = c[12];
    writesIssued = c[13];
    pageWrites = c[14];
    histories.clear();
    histories.addAll(s.histories());
  }

  public record State(long[] counters, List<History> histories) implements CborSerializable {}

  @Override
  public Object results() {
    return new Stats(List.copyOf(histories), tableRows, pages);
  }
}
