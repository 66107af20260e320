package io.tlogsim.storage.load;

import io.tlogsim.kernel.CborSerializable;

/** What a job group completed within its runtime, per direction, and how many I/Os it submitted in all. */
public record IoJobStats(IoDirectionStats read, IoDirectionStats write, long submitted, long runtimeNanos)
    implements CborSerializable {

  public long ios() {
    return read.ios() + write.ios();
  }
}
