package io.tlogsim.engine.log;

import io.tlogsim.kernel.CborSerializable;

/**
 * What the log manager wrote: records, writes, bytes written (whole blocks) and record bytes.
 * Pages are log blocks of {@code blockBytes} (REFERENCE.md section 2: 512 B steps).
 */
public record LogStats(long records, long writes, long bytesWritten, long recordBytes, int blockBytes)
    implements CborSerializable {

  public long pages() {
    return bytesWritten / blockBytes;
  }
}
