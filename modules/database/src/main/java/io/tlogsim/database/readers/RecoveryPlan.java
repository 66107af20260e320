package io.tlogsim.database.readers;

import io.tlogsim.database.data.DataFiles;
import io.tlogsim.database.logspace.LogSpace.ReadPiece;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.database.logspace.TransactionTable;
import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What crash recovery must read and write (REFERENCE.md 3), as the restarting server finds it in its log and its data
 * file; the log manager builds it at the crash from its transaction table, the last checkpoint's record and the dirty
 * page table, and the recovery manager carries it out through the devices.
 *
 * @param hardenedLsn the end of the log that survived: every phase reads up to it
 * @param analysisFromLsn the last checkpoint's begin: analysis reads from here
 * @param redoFromLsn MinLSN as the checkpoint recorded it and analysis completed it: the older of the oldest recLSN
 *     and the oldest active transaction's first LSN; redo reads from here
 * @param headers every VLF's header, file by file (start-up opens them one after the other)
 * @param analysis the log from {@code analysisFromLsn} to the end, one piece per VLF
 * @param redo the log from {@code redoFromLsn} to the end, one piece per VLF
 * @param redoPages device offsets of the data pages redo reads to compare their page LSN, in the order it meets them
 * @param redoPageNeededAt for each of {@code redoPages}: how far into the redo range (bytes) its first record lies
 * @param redoPagesApplied how many of those pages are older on the device than the log (their changes are applied)
 * @param dataDevice the data file's device (the index the pieces use for devices)
 * @param losers the transactions without a commit in the hardened log, rolled back newest first
 * @param rolledForward transactions with a commit in the redo range
 * @param purpose {@link #CRASH}: a crash's recovery; {@link #RESTORE}: the one that ends a restore WITH RECOVERY;
 *     {@link #ROLLBACK}: the rollback of one transaction while the database runs (after error 9002)
 */
public record RecoveryPlan(long hardenedLsn, long analysisFromLsn, long redoFromLsn, List<ReadPiece> headers,
    List<ReadPiece> analysis, List<ReadPiece> redo, long[] redoPages, long[] redoPageNeededAt, long redoPagesApplied,
    int dataDevice, int dataFileId, int pageBytes, List<Loser> losers, long rolledForward, int purpose)
    implements CborSerializable {
  public static final int CRASH = 0, RESTORE = 1, ROLLBACK = 2;

  public boolean afterRestore() {
    return purpose == RESTORE;
  }

  /** Compensation records analysis found in the log, of rollbacks a crash interrupted (undo does not write them). */
  public long compensationRecordsFound() {
    long n = 0;
    for (Loser l : losers) n += l.compensated();
    return n;
  }

  /** A crash's recovery. */
  public RecoveryPlan(long hardenedLsn, long analysisFromLsn, long redoFromLsn, List<ReadPiece> headers,
      List<ReadPiece> analysis, List<ReadPiece> redo, long[] redoPages, long[] redoPageNeededAt, long redoPagesApplied,
      int dataDevice, int dataFileId, int pageBytes, List<Loser> losers, long rolledForward) {
    this(hardenedLsn, analysisFromLsn, redoFromLsn, headers, analysis, redo, redoPages, redoPageNeededAt,
        redoPagesApplied, dataDevice, dataFileId, pageBytes, losers, rolledForward, CRASH);
  }

  /**
   * A transaction to roll back: its log read backward from its last record to its first, each change compensated
   * by a record of {@code clrBytes} written through the log manager, the pages it changed read where redo did not.
   *
   * @param pieces its log, newest first, each read from its end back
   * @param rowRanges the rows its records changed, pairs (first row, count), newest first (-1: no row)
   * @param pages device offsets of the pages to read, newest change first (those redo did not bring in)
   * @param compensated changes whose compensation records a rollback under way at the crash had already hardened:
   *     redo redid them, undo goes on from the change before them ({@code rowRanges} and {@code pieces} are the rest)
   */
  public record Loser(int session, long firstLsn, long lastLsn, List<ReadPiece> pieces, long[] rowRanges,
      long[] pages, int clrBytes, long compensated) implements CborSerializable {

    public Loser(int session, long firstLsn, long lastLsn, List<ReadPiece> pieces, long[] rowRanges, long[] pages,
        int clrBytes) {
      this(session, firstLsn, lastLsn, pieces, rowRanges, pages, clrBytes, 0);
    }

    /** The records undo compensates: one per changed row. */
    public long records() {
      long n = 0;
      for (int i = 1; i < rowRanges.length; i += 2) n += rowRanges[i];
      return n;
    }

    public long bytes() {
      long n = 0;
      for (ReadPiece p : pieces) n += p.bytes();
      return n;
    }
  }

  /**
   * The plan a crash leaves: the log hardened up to {@code hardenedLsn} in {@code space}, the data file {@code data}
   * (null: none) on device {@code dataDevice}, {@code rolledForward} commits after the last checkpoint.
   */
  public static RecoveryPlan of(ManagedLogSpace space, DataFiles data, int dataDevice, long hardenedLsn,
      long rolledForward) {
    return of(space, data, dataDevice, hardenedLsn, rolledForward, 1);
  }

  /**
   * The same, each of the data file's pages standing for {@code pageScale} pages of the table (its rows' page splits
   * made that many of each: redo and undo read them all, the next ones beside it).
   */
  public static RecoveryPlan of(ManagedLogSpace space, DataFiles data, int dataDevice, long hardenedLsn,
      long rolledForward, double pageScale) {
    return of(space, data, dataDevice, hardenedLsn, space.analysisFromLsn(hardenedLsn), space.redoFromLsn(hardenedLsn),
        rolledForward, pageScale, CRASH);
  }

  /**
   * The recovery that ends a restore WITH RECOVERY (REFERENCE.md 3): the database starts on the log restored up to
   * {@code endLsn} and recovers it as after a crash: start-up reads every VLF's header, analysis reads from the
   * checkpoint record the backup holds ({@code checkpointLsn}) to the end, undo rolls back every transaction open at
   * the end, backward, with its compensation records. Redo has nothing left: the restore's replay (RESTORE LOG's pass
   * over the pages its records changed) was the roll-forward, so it is not counted twice. The transactions are those
   * the backup's log holds: a restore replaces the database, so what ran after the backup is not there.
   */
  public static RecoveryPlan ofRestore(ManagedLogSpace space, DataFiles data, int dataDevice, long endLsn,
      long checkpointLsn, double pageScale) {
    long analysisFrom = Math.min(endLsn, Math.max(space.activeStartLsn(), checkpointLsn));
    return of(space, data, dataDevice, endLsn, analysisFrom, endLsn, 0, pageScale, RESTORE);
  }

  /**
   * The rollback of {@code session}'s open transaction while the database runs (after error 9002, REFERENCE.md 1 and
   * 3): the undo phase alone, as recovery does it: its log read backward from its last record to its first (what is
   * still in the log buffers, not yet placed in the files, is read from memory), a compensation record for each change
   * written through the log manager, using the transaction's reservation. The pages it changes are in the buffer pool
   * (it has just changed them): none is read. No start-up, analysis or redo: the server knows the transaction.
   */
  public static RecoveryPlan ofRollback(ManagedLogSpace space, int session) {
    List<Loser> losers = new ArrayList<>();
    long placed = space.layout().endLsn();
    for (TransactionTable.Txn t : space.losers(Long.MAX_VALUE)) { // the open transactions, all their records
      if (t.session() != session) continue;
      long from = Math.max(t.firstLsn(), space.layout().activeStartLsn());
      List<ReadPiece> forward = space.readPieces(from, Math.max(from, Math.min(t.lastLsn(), placed)));
      List<ReadPiece> back = new ArrayList<>(forward.size());
      for (int i = forward.size() - 1; i >= 0; i--) back.add(forward.get(i));
      losers.add(new Loser(session, t.firstLsn(), t.lastLsn(), back, newestFirst(t.rowRanges()), new long[0],
          t.clrBytes()));
    }
    return new RecoveryPlan(placed, placed, placed, List.of(), List.of(), List.of(), new long[0], new long[0], 0, -1, 0,
        8192, losers, 0, ROLLBACK);
  }

  /** Row ranges (pairs) in the opposite order: the newest first. */
  private static long[] newestFirst(long[] r) {
    long[] out = new long[r.length];
    for (int i = 0, j = r.length - 2; j >= 0; i += 2, j -= 2) {
      out[i] = r[j];
      out[i + 1] = r[j + 1];
    }
    return out;
  }

  private static RecoveryPlan of(ManagedLogSpace space, DataFiles data, int dataDevice, long hardenedLsn,
      long analysisFrom, long redoFrom, long rolledForward, double pageScale, int purpose) {
    boolean afterRestore = purpose == RESTORE;
    long[] pageOffsets = new long[0];
    long[] neededAt = new long[0];
    long applied = 0;
    int fileId = 0;
    int pageBytes = 8192;
    boolean[] inRedo = null;
    if (data != null && afterRestore) { // no redo: every page is still to be read by undo
      fileId = data.config().fileId();
      pageBytes = data.config().pageBytes();
      inRedo = new boolean[data.config().pages()];
    } else if (data != null) {
      long[][] at = new long[1][];
      // the dirty page table analysis rebuilds: pages changed since the checkpoint began (it wrote those dirty before)
      int[] pages = data.redoPages(analysisFrom, hardenedLsn, at);
      pageOffsets = scaled(data, pages, pageScale);
      neededAt = new long[pageOffsets.length];
      for (int i = 0; i < neededAt.length; i++) neededAt[i] = at[0][(int) (i / pageScale)] + (analysisFrom - redoFrom);
      applied = Math.round(data.olderOnDevice(pages) * pageScale);
      fileId = data.config().fileId();
      pageBytes = data.config().pageBytes();
      inRedo = new boolean[data.config().pages()];
      for (int p : pages) inRedo[p] = true;
    }
    List<Loser> losers = new ArrayList<>();
    List<TransactionTable.Txn> txns = new ArrayList<>(space.losers(hardenedLsn));
    txns.sort((x, y) -> Long.compare(y.lastLsn(), x.lastLsn())); // the newest first
    for (TransactionTable.Txn t : txns) {
      // undo reads back from the transaction's last record; after a rollback's compensation records (a crash during a
      // rollback) it follows the last one's undo-next LSN to the change before those it compensated and reads from
      // there (TransactionTable: that LSN spread evenly over the transaction's changes, an approximation)
      long readFrom = t.compensated() > 0 ? Math.min(t.lastLsn(), t.undoNextLsn()) : t.lastLsn();
      List<ReadPiece> forward = space.readPieces(Math.max(t.firstLsn(), space.layout().activeStartLsn()),
          Math.max(t.firstLsn(), readFrom));
      List<ReadPiece> back = new ArrayList<>(forward.size());
      for (int i = forward.size() - 1; i >= 0; i--) back.add(forward.get(i));
      long[] r = t.rowRanges();
      long[] newestFirst = new long[r.length];
      for (int i = 0, j = r.length - 2; j >= 0; i += 2, j -= 2) {
        newestFirst[i] = r[j];
        newestFirst[i + 1] = r[j + 1];
      }
      long[] undoPages = new long[0];
      if (data != null) { // the pages its changes lie on that redo did not read, newest change first
        boolean[] seen = inRedo.clone();
        long[] out = new long[16];
        int n = 0;
        for (int i = 0; i < newestFirst.length; i += 2) {
          if (newestFirst[i] < 0) continue;
          for (long k = newestFirst[i + 1] - 1; k >= 0; k--) {
            int page = data.pageOf(newestFirst[i] + k);
            if (seen[page]) continue;
            seen[page] = true;
            if (n == out.length) out = Arrays.copyOf(out, n * 2);
            out[n++] = data.pageOffset(page);
          }
        }
        undoPages = Arrays.copyOf(out, n);
        undoPages = scaledOffsets(data, undoPages, pageScale); // the table's pages its rows now lie on
      }
      losers.add(new Loser(t.session(), t.firstLsn(), t.lastLsn(), back, newestFirst, undoPages, t.clrBytes(),
          t.compensated()));
    }
    return new RecoveryPlan(hardenedLsn, analysisFrom, redoFrom, space.headerPieces(),
        space.readPieces(analysisFrom, hardenedLsn), space.readPieces(redoFrom, hardenedLsn), pageOffsets, neededAt,
        applied, dataDevice, fileId, pageBytes, losers, rolledForward, purpose);
  }

  /** The device offsets of {@code pages}, each standing for {@code scale} of the table's pages (the file spread). */
  private static long[] scaled(DataFiles data, int[] pages, double scale) {
    long[] offsets = new long[pages.length];
    for (int i = 0; i < pages.length; i++) offsets[i] = data.pageOffset(pages[i]);
    return scaledOffsets(data, offsets, scale);
  }

  private static long[] scaledOffsets(DataFiles data, long[] offsets, double scale) {
    if (scale <= 1) return offsets;
    int n = (int) Math.round(offsets.length * scale);
    long[] out = new long[n];
    long base = data.pageOffset(0);
    int pageBytes = data.config().pageBytes();
    for (int i = 0; i < n; i++) { // page p of the loaded table is page p x scale (and the next ones) of the split one
      long p = (offsets[(int) Math.min(offsets.length - 1, (long) (i / scale))] - base) / pageBytes;
      out[i] = base + (Math.round(p * scale) + (long) (i % Math.max(1, (long) Math.ceil(scale)))) * pageBytes;
    }
    return out;
  }

  public long redoBytes() {
    long n = 0;
    for (ReadPiece p : redo) n += p.bytes();
    return n;
  }

  public long analysisBytes() {
    long n = 0;
    for (ReadPiece p : analysis) n += p.bytes();
    return n;
  }
}
