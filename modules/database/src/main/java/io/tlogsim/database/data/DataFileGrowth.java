package io.tlogsim.database.data;

import io.tlogsim.kernel.CborSerializable;

/**
 * A data file that grows as its rows do (REFERENCE.md 1: data files grow by size too, and each growth is
 * zero-initialized on the device unless instant file initialization is on). It starts at {@code sizeBytes} with the
 * table's pages in use; when a statement's rows need more room than the file has, the file grows by
 * {@code growthBytes} at a time, and without instant initialization the new bytes are zeroed at the device's rate
 * while the log manager takes nothing more (the statement, and every request behind it, waits).
 */
public final class DataFileGrowth {
  /** What a growth asks of the log manager. */
  public interface Host {
    long now();

    /** Writes zeros over {@code bytes} at {@code deviceOffset} of the data file's device; completes with {@code tag}. */
    void zeroData(long deviceOffset, long bytes, long tag);
  }

  /** @param sizeBytes the file at the start; growthBytes each growth; instantInit no zeroing (IFI) */
  public record Config(long sizeBytes, long growthBytes, boolean instantInit) implements CborSerializable {}

  private final Config cfg;
  private final long baseOffset;
  private long size;
  private long used;
  private int zeroing; // growths whose zeroes are still on their way
  private long stallStart = -1;
  private long growths;
  private long zeroedBytes;
  private long stallNanos;

  /** @param usedBytes what the table takes at the start; baseOffset where the file starts on its device */
  public DataFileGrowth(Config cfg, long usedBytes, long baseOffset) {
    this.cfg = cfg;
    this.baseOffset = baseOffset;
    this.size = Math.max(cfg.sizeBytes(), usedBytes);
    this.used = usedBytes;
  }

  /** Rows take {@code bytes} more; the file grows if it must (and, unless IFI, the log manager must wait). */
  public void use(Host host, long bytes) {
    used += bytes;
    while (used > size) {
      long by = cfg.growthBytes();
      growths++;
      if (!cfg.instantInit()) {
        if (zeroing++ == 0) stallStart = host.now();
        host.zeroData(baseOffset + size, by, growths);
        zeroedBytes += by;
      }
      size += by;
    }
  }

  /** True while a growth's zeroes are on their way: nothing more is admitted. */
  public boolean stalled() {
    return zeroing > 0;
  }

  /** A growth's zeroes are written; true when the file is ready again. */
  public boolean zeroed(Host host) {
    if (--zeroing > 0) return false;
    stallNanos += host.now() - stallStart;
    stallStart = -1;
    return true;
  }

  public Stats stats() {
    return new Stats(size, used, growths, zeroedBytes, stallNanos);
  }

  /** What the file did: its size and use at the end, its growths, the zeroes written, the time the log stood still. */
  public record Stats(long sizeBytes, long usedBytes, long growths, long zeroedBytes, long stallNanos)
      implements CborSerializable {}

  public long[] snapshot() {
    return new long[] {size, used, zeroing, stallStart, growths, zeroedBytes, stallNanos};
  }

  public void restore(long[] s) {
    size = s[0];
    used = s[1];
    zeroing = (int) s[2];
    stallStart = s[3];
    growths = s[4];
    zeroedBytes = s[5];
    stallNanos = s[6];
  }
}
