package io.tlogsim.database.readers;

import io.tlogsim.database.logspace.LogSpace.ReadPiece;
import io.tlogsim.kernel.CborSerializable;
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
 */
public record RecoveryPlan(long hardenedLsn, long analysisFromLsn, long redoFromLsn, List<ReadPiece> headers,
    List<ReadPiece> analysis, List<ReadPiece> redo, long[] redoPages, long[] redoPageNeededAt, long redoPagesApplied,
    int dataDevice, int dataFileId, int pageBytes, List<Loser> losers, long rolledForward)
    implements CborSerializable {

  /**
   * A transaction to roll back: its log read backward from its last record to its first, each change compensated
   * by a record of {@code clrBytes} written through the log manager, the pages it changed read where redo did not.
   *
   * @param pieces its log, newest first, each read from its end back
   * @param rowRanges the rows its records changed, pairs (first row, count), newest first (-1: no row)
   * @param pages device offsets of the pages to read, newest change first (those redo did not bring in)
   */
  public record Loser(int session, long firstLsn, long lastLsn, List<ReadPiece> pieces, long[] rowRanges,
      long[] pages, int clrBytes) implements CborSerializable {

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
