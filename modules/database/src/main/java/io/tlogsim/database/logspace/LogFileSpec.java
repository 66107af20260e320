package io.tlogsim.database.logspace;

/**
 * A log file as a database declares it: initial size, growth (bytes, or percent of the file's size when
 * {@code growthPercent > 0}; 0 and 0: no autogrowth), maximum size (0: unlimited), and the device it lives on.
 */
public record LogFileSpec(String name, long initialBytes, long growthBytes, double growthPercent, long maxBytes,
    String device) {

  public LogFileSpec {
    if (initialBytes <= 0) throw new IllegalArgumentException(name + ": initial size must be > 0 bytes");
    if (growthBytes < 0 || growthPercent < 0) throw new IllegalArgumentException(name + ": growth must be >= 0");
    if (maxBytes < 0) throw new IllegalArgumentException(name + ": maximum size must be >= 0 (0: unlimited)");
  }

  public boolean autogrows() {
    return growthBytes > 0 || growthPercent > 0;
  }

  /** The next growth of a file now {@code size} bytes, capped by the maximum size; 0 when it cannot grow. */
  public long nextGrowth(long size) {
    long g = growthPercent > 0 ? (long) Math.ceil(size * growthPercent / 100.0) : growthBytes;
    if (maxBytes > 0) g = Math.min(g, maxBytes - size);
    return Math.max(0, g);
  }
}
