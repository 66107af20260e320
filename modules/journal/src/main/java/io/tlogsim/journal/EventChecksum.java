package io.tlogsim.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The checksum of a run's events as the journal stores them: a chain of CRC-32C, each step over the previous value and
 * one event's bytes (its payload as Pekko's serializer wrote it, the bytes the database holds), starting from 0. The
 * writer computes it as it writes ({@link RunWriter}); a reader computes it from the rows ({@link JournalCheck}), so
 * that an end record ({@link RunEvent.Seal}, the ledger's line) tells whether the journal still holds what was written.
 */
final class EventChecksum {
  static final long EMPTY = 0;

  private EventChecksum() {}

  static long next(long previous, byte[] eventBytes) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(Long.BYTES).putLong(0, previous));
    crc.update(eventBytes);
    return crc.getValue();
  }
}
