package io.tlogsim.storage.load;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.storage.LatencyHistograms;
import org.HdrHistogram.Histogram;

/**
 * The completed I/Os of one direction (reads or writes) of a job group: count, bytes, and completion latency (from
 * submission to completion, fio's clat) as min, max, sum, sum of squares and histogram (ns, 3 significant digits).
 */
public record IoDirectionStats(long ios, long bytes, long latencySumNanos, double latencySumSquares,
    long latencyMinNanos, long latencyMaxNanos, byte[] histogram) implements CborSerializable {

  public double meanUs() {
    return ios == 0 ? 0 : latencySumNanos / (double) ios / 1e3;
  }

  public double stddevUs() {
    if (ios < 2) return 0;
    double mean = latencySumNanos / (double) ios;
    double var = Math.max(0, latencySumSquares / ios - mean * mean);
    return Math.sqrt(var) / 1e3;
  }

  /** A completion-latency percentile in us, bounded by the exact maximum. */
  public double percentileUs(double p) {
    if (ios == 0) return 0;
    return Math.min(latencies().getValueAtPercentile(p), latencyMaxNanos) / 1e3;
  }

  public Histogram latencies() {
    return LatencyHistograms.decode(histogram);
  }

  /** Mutable form, kept by the job component. */
  static final class Recorder {
    long ios, bytes, sum, min = Long.MAX_VALUE, max;
    double squares;
    Histogram hist = LatencyHistograms.newHistogram();

    void add(long bytesMoved, long latency) {
      ios++;
      bytes += bytesMoved;
      sum += latency;
      squares += (double) latency * latency;
      min = Math.min(min, latency);
      max = Math.max(max, latency);
      hist.recordValue(latency);
    }

    IoDirectionStats freeze() {
      return new IoDirectionStats(ios, bytes, sum, squares, ios == 0 ? 0 : min, max, LatencyHistograms.encode(hist));
    }

    void restore(IoDirectionStats s) {
      ios = s.ios();
      bytes = s.bytes();
      sum = s.latencySumNanos();
      squares = s.latencySumSquares();
      min = s.ios() == 0 ? Long.MAX_VALUE : s.latencyMinNanos();
      max = s.latencyMaxNanos();
      hist = s.latencies();
    }
  }
}
