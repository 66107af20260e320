package io.tlogsim.storage.load;

import java.util.List;

/**
 * A fio-like job group, in fio's own terms: {@code rw} (read, write, randread, randwrite, randrw), block size,
 * iodepth, numjobs, rwmixread and size, for {@code runtime} (fio's time_based: the jobs loop over their files until
 * the runtime is over). Each job has a file of {@code sizeBytes} of its own, placed one after another from
 * {@code startBytes} on the device, as fio creates one file per job.
 *
 * @param submitNanos the one-way delay from the job to the device (the lookahead of that link): fio's submission
 * @param flushEachWrite fio's sync on a device with a volatile write cache: each write is followed by a flush and
 *     completes (its latency ends) when the flush does
 */
public record IoJobSpec(String rw, long blockBytes, int iodepth, int numjobs, int rwmixread, long sizeBytes,
    long startBytes, long runtimeNanos, long submitNanos, boolean flushEachWrite, double rateIops) {

  /** Jobs that keep their iodepth full (no rate_iops). */
  public IoJobSpec(String rw, long blockBytes, int iodepth, int numjobs, int rwmixread, long sizeBytes,
      long startBytes, long runtimeNanos, long submitNanos, boolean flushEachWrite) {
    this(rw, blockBytes, iodepth, numjobs, rwmixread, sizeBytes, startBytes, runtimeNanos, submitNanos, flushEachWrite,
        0);
  }

  public IoJobSpec(String rw, long blockBytes, int iodepth, int numjobs, int rwmixread, long sizeBytes,
      long startBytes, long runtimeNanos, long submitNanos) {
    this(rw, blockBytes, iodepth, numjobs, rwmixread, sizeBytes, startBytes, runtimeNanos, submitNanos, false);
  }

  public static final List<String> PATTERNS = List.of("read", "write", "randread", "randwrite", "randrw");

  public IoJobSpec {
    if (!PATTERNS.contains(rw)) {
      throw new IllegalArgumentException("rw: must be one of " + String.join(", ", PATTERNS) + ", got '" + rw + "'");
    }
    if (blockBytes < 1) throw new IllegalArgumentException("bs: must be >= 1 byte, got " + blockBytes);
    if (iodepth < 1) throw new IllegalArgumentException("iodepth: must be >= 1, got " + iodepth);
    if (numjobs < 1) throw new IllegalArgumentException("numjobs: must be >= 1, got " + numjobs);
    if (rwmixread < 0 || rwmixread > 100) {
      throw new IllegalArgumentException("rwmixread: must be from 0 to 100, got " + rwmixread);
    }
    if (sizeBytes < blockBytes) {
      throw new IllegalArgumentException("size: must hold at least one block (" + blockBytes + " bytes), got "
          + sizeBytes);
    }
    if (runtimeNanos <= 0) throw new IllegalArgumentException("runtime: must be > 0, got " + runtimeNanos + " ns");
    if (submitNanos <= 0) throw new IllegalArgumentException("submit delay must be > 0 ns, got " + submitNanos);
    if (!(rateIops >= 0)) throw new IllegalArgumentException("rate_iops: must be >= 0, got " + rateIops);
  }

  /** fio's rate_iops: each job issues at most this many I/Os a second, evenly spaced (0: as fast as iodepth lets). */
  public long issueGapNanos() {
    return rateIops > 0 ? Math.max(1, Math.round(1e9 / rateIops)) : 0;
  }

  public boolean random() {
    return rw.startsWith("rand");
  }

  /** Share of reads, percent: 100 for read patterns, 0 for write patterns, rwmixread for randrw. */
  public int readPercent() {
    return switch (rw) {
      case "read", "randread" -> 100;
      case "write", "randwrite" -> 0;
      default -> rwmixread;
    };
  }

  /** Bytes the jobs' files take on the device, from startBytes. */
  public long spanBytes() {
    return sizeBytes * numjobs;
  }
}
