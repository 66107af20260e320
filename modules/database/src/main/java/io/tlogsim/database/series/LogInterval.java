package io.tlogsim.database.series;

import io.tlogsim.kernel.IntervalFact;
import java.util.Arrays;
import java.util.Base64;

/**
 * A log manager's writes issued in one report interval [fromNanos, toNanos): how many, their pages and bytes, and
 * the histogram of their sizes in bytes ({@link Histograms#encode}), from which the report draws the flush-size
 * histogram.
 */
public record LogInterval(long fromNanos, long toNanos, long writes, long pages, long bytes,
    byte[] writeBytes) implements IntervalFact {

  // a histogram's bytes compare by content (a record compares arrays by identity)
  @Override
  public boolean equals(Object o) {
    return o instanceof LogInterval l && fromNanos == l.fromNanos && toNanos == l.toNanos && writes == l.writes
        && pages == l.pages && bytes == l.bytes && Arrays.equals(writeBytes, l.writeBytes);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(fromNanos) * 31 + Arrays.hashCode(writeBytes);
  }

  @Override
  public String toString() {
    return "LogInterval[fromNanos=" + fromNanos + ", toNanos=" + toNanos + ", writes=" + writes + ", pages=" + pages
        + ", bytes=" + bytes + ", writeBytes=" + Base64.getEncoder().encodeToString(writeBytes) + "]";
  }
}
