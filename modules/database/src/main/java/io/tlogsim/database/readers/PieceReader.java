package io.tlogsim.database.readers;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.storage.DeviceProtocol;
import java.util.Arrays;

/**
 * Reads a list of pieces (parts of VLFs, or of a data file) through the storage models, as every reader of the log
 * does (REFERENCE.md 3: "Each VLF boundary costs a positioning step and a header read"): it streams a piece in reads
 * of at most {@code readBytes}, {@code readsInFlight} at a time; before a piece that begins a VLF (or a switch to
 * another file) it lets its reads drain and reads that VLF's header, and only then goes on. So each boundary costs a
 * header read and a restart of the stream, whatever the device makes of them (a seek and a lost revolution on a
 * disk, a request's latency on any device). A piece of 0 bytes reads its header alone (what start-up does for every
 * VLF). A piece marked {@link BackupProtocol#BACKWARD} is read from its end to its start (undo walks the log back).
 * The owner sends the device completions it gets back here ({@link #completed}).
 */
final class PieceReader {
  static final long HEADER_TAG = 1L << 43;
  static final long READ_TAG = 1L << 44;

  private final int readBytes;
  private final int maxInFlight;
  private final int headerBytes;
  private final long linkNanos;
  private final int[] deviceLinks;

  private long[] pieces = new long[4 * 64]; // header offset (-1: none), offset, bytes, d (see BackupProtocol.PIECE)
  private int count;
  private int piece;
  private long pieceDone;
  private boolean headerRead;
  private boolean headerInFlight;
  private int inFlight;
  private long total;
  private long readDone;
  private long reads;
  private long headerReads;
  private long boundaries;
  private long tagBits; // added to every request's tag (its owner's generation: see RecoveryManager)

  PieceReader(int readBytes, int maxInFlight, int headerBytes, long linkNanos, int[] deviceLinks) {
    this.readBytes = readBytes;
    this.maxInFlight = maxInFlight;
    this.headerBytes = headerBytes;
    this.linkNanos = linkNanos;
    this.deviceLinks = deviceLinks.clone();
  }

  static boolean isReaderTag(long tag) {
    return tag == HEADER_TAG || (tag & READ_TAG) != 0;
  }

  /** Bits every later request's tag carries (above the reader's own): the owner tells its reads from earlier ones. */
  void tagBits(long bits) {
    tagBits = bits;
  }

  void reset() {
    count = 0;
    piece = 0;
    pieceDone = 0;
    headerRead = false;
    headerInFlight = false;
    inFlight = 0;
    total = 0;
    readDone = 0;
    reads = 0;
    headerReads = 0;
    boundaries = 0;
  }

  void add(long header, long offset, long bytes, long d) {
    if (count * 4 == pieces.length) pieces = Arrays.copyOf(pieces, pieces.length * 2);
    int i = count * 4;
    pieces[i] = header;
    pieces[i + 1] = offset;
    pieces[i + 2] = bytes;
    pieces[i + 3] = d;
    count++;
    total += bytes;
  }

  /** Issues what may be issued now: the next header once the reads before it are done, else data reads. */
  void pump(Context ctx) {
    while (piece < count) {
      int i = piece * 4;
      long d = pieces[i + 3];
      int device = (int) ((d >>> 32) & 0xff);
      int fileId = (int) (d & 0xffff_ffffL);
      boolean needsHeader = ((d >>> 40) & BackupProtocol.HEADER_FIRST) != 0 && pieces[i] >= 0;
      if (needsHeader && !headerRead) {
        if (headerInFlight || inFlight > 0) return; // a boundary: the stream drains, then the header
        headerInFlight = true;
        headerReads++;
        if (piece > 0) boundaries++;
        ctx.send(deviceLinks[device], ctx.now() + linkNanos, DeviceProtocol.READ, HEADER_TAG | tagBits, headerBytes,
            pieces[i], fileId);
        return;
      }
      boolean backward = ((d >>> 40) & BackupProtocol.BACKWARD) != 0;
      while (pieceDone < pieces[i + 2] && inFlight < maxInFlight) {
        long n = Math.min(readBytes, pieces[i + 2] - pieceDone);
        long at = backward ? pieces[i + 1] + pieces[i + 2] - pieceDone - n : pieces[i + 1] + pieceDone;
        ctx.send(deviceLinks[device], ctx.now() + linkNanos, DeviceProtocol.READ, READ_TAG | n | tagBits, n, at,
            fileId);
        pieceDone += n;
        inFlight++;
        reads++;
      }
      if (pieceDone < pieces[i + 2]) return;
      piece++;
      pieceDone = 0;
      headerRead = false;
    }
  }

  /**
   * A completion of one of this reader's requests (its tag without the owner's bits); returns the data bytes it
   * brought (0 for a header).
   */
  long completed(long tag, long bytes) {
    if (tag == HEADER_TAG) {
      headerInFlight = false;
      headerRead = true;
      return 0;
    }
    inFlight--;
    readDone += bytes;
    return bytes;
  }

  /** Bytes of the pieces read so far (completed reads). */
  long read() {
    return readDone;
  }

  /** Every piece is read. */
  boolean done() {
    return piece >= count && inFlight == 0 && !headerInFlight;
  }

  long total() {
    return total;
  }

  long reads() {
    return reads;
  }

  long headerReads() {
    return headerReads;
  }

  long boundaries() {
    return boundaries;
  }

  State state() {
    return new State(Arrays.copyOf(pieces, count * 4), count, piece, pieceDone, headerRead, headerInFlight, inFlight,
        total, readDone, reads, headerReads, boundaries, tagBits);
  }

  void restore(State s) {
    pieces = Arrays.copyOf(s.pieces(), Math.max(4 * 64, s.pieces().length));
    count = s.count();
    piece = s.piece();
    pieceDone = s.pieceDone();
    headerRead = s.headerRead();
    headerInFlight = s.headerInFlight();
    inFlight = s.inFlight();
    total = s.total();
    readDone = s.readDone();
    reads = s.reads();
    headerReads = s.headerReads();
    boundaries = s.boundaries();
    tagBits = s.tagBits();
  }

  record State(long[] pieces, int count, int piece, long pieceDone, boolean headerRead, boolean headerInFlight,
      int inFlight, long total, long readDone, long reads, long headerReads, long boundaries, long tagBits)
      implements CborSerializable {}
}
