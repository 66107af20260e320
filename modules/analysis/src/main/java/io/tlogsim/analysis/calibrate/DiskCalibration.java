package io.tlogsim.analysis.calibrate;

import io.tlogsim.storage.DeviceProfiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Measures the disk under a directory the way a transaction log uses it: synchronous writes (O_DSYNC: each write
 * returns when it is durable) of 512 B to 60 KB, and of 1 MiB for the sequential rate, one in flight, appended in
 * order to a file written beforehand (a log reuses its space, so no write extends the file); then 4 KB synchronous
 * writes with 8 in flight (8 threads, each its own part of the file); then a flush (fdatasync) with nothing to write.
 * Bounded in bytes written and in wall time; the file is deleted at the end.
 */
public final class DiskCalibration {
  /** What was measured for one size: count, mean and percentiles in ns. */
  public record SizeResult(long bytes, long count, double meanNanos, long p50Nanos, long p99Nanos, double seconds) {
    public double mbPerSec() {
      return count * bytes / seconds / 1e6;
    }
  }

  /** Queue depth 8: the rate and the mean latency of 4 KB synchronous writes. */
  public record QueueResult(long bytes, int depth, long count, double iops, double meanNanos) {
    /**
     * Writes in flight on average (Little's law: rate x latency): {@code depth} when the threads always had one
     * outstanding, fewer when they waited for a CPU between writes (a busy host).
     */
    public double effectiveDepth() {
      return iops * meanNanos / 1e9;
    }
  }

  public record Result(Path dir, List<SizeResult> sizes, QueueResult qd8, double flushMeanNanos, long bytesWritten,
      double seconds) {
    public SizeResult size(long bytes) {
      return sizes.stream().filter(s -> s.bytes() == bytes).findFirst().orElseThrow();
    }

    /** Rate at 8 in flight x the 4 KB latency alone: how much queueing gains. */
    public double qd8Speedup() {
      return Math.max(0.1, Math.min(64, qd8.iops() * size(4096).meanNanos() / 1e9));
    }
  }

  /** Limits: at most {@code maxBytes} written (the file included) and about {@code seconds} of wall time. */
  public record Limits(long maxBytes, double seconds, long fileBytes) {
    public Limits {
      if (maxBytes < 8L << 20) throw new IllegalArgumentException("--max-mb: at least 8 MB");
      if (seconds < 1) throw new IllegalArgumentException("--seconds: at least 1");
    }
  }

  private static final String FILE = "tlogsim-calibrate.tmp";
  private final Path dir;
  private final Limits limits;
  private final Consumer<String> progress;
  private long written;

  public DiskCalibration(Path dir, Limits limits, Consumer<String> progress) {
    this.dir = dir;
    this.limits = limits;
    this.progress = progress;
  }

  public Result run() throws IOException {
    long start = System.nanoTime();
    Path file = dir.resolve(FILE);
    // bytes: 1/8 for the file, 1/16 for each size up to 60 KB, 3/8 for 1 MiB (the sequential rate), 1/8 at depth 8
    long fileBytes = Math.min(limits.fileBytes(), limits.maxBytes() / 8) / (1 << 20) * (1 << 20);
    try {
      prepare(file, fileBytes);
      // time: 10% for each of the 7 sizes, 15% at queue depth 8, the rest for the file and the flush
      double slice = limits.seconds() * 0.10;
      List<SizeResult> sizes = new ArrayList<>();
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.DSYNC)) {
        for (long size : DeviceProfiles.SIZES) {
          long budget = size >= 1 << 20 ? limits.maxBytes() * 3 / 8 : limits.maxBytes() / 16;
          SizeResult r = syncWrites(ch, fileBytes, (int) size, slice, budget);
          sizes.add(r);
          progress.accept(String.format(java.util.Locale.ROOT,
              "%7d B synchronous writes: %,d in %.1f s, mean %.1f us, p99 %.1f us, %.2f MB/s", size, r.count(),
              r.seconds(), r.meanNanos() / 1e3, r.p99Nanos() / 1e3, r.mbPerSec()));
        }
      }
      QueueResult qd8 = queueDepth(file, fileBytes, 4096, 8, limits.seconds() * 0.15,
          Math.min(limits.maxBytes() / 8, limits.maxBytes() - written));
      progress.accept(String.format(java.util.Locale.ROOT,
          "   4096 B synchronous writes, 8 in flight: %,d, %.0f IOPS, mean %.1f us", qd8.count(), qd8.iops(),
          qd8.meanNanos() / 1e3));
      double flush = cleanFlush(file, Math.min(1.0, limits.seconds() * 0.02));
      progress.accept(String.format(java.util.Locale.ROOT, "flush with nothing to write: mean %.1f us", flush / 1e3));
      return new Result(dir, sizes, qd8, flush, written, (System.nanoTime() - start) / 1e9);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** The file the writes reuse, written and made durable first (as a log file is created before use). */
  private void prepare(Path file, long bytes) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
        StandardOpenOption.WRITE)) {
      for (long at = 0; at < bytes; at += zeros.capacity()) {
        zeros.clear();
        while (zeros.hasRemaining()) ch.write(zeros, at + zeros.position());
      }
      ch.force(true);
    }
    written += bytes;
    progress.accept(String.format(java.util.Locale.ROOT, "file %s: %d MiB written and synced", file, bytes >> 20));
  }

  private SizeResult syncWrites(FileChannel ch, long fileBytes, int size, double seconds, long maxBytes)
      throws IOException {
    ByteBuffer buf = ByteBuffer.allocateDirect(size);
    for (int i = 0; i < size; i++) buf.put(i, (byte) (i * 31));
    long[] lat = new long[1 << 16];
    int n = 0;
    long spent = 0; // warm-up writes included: the budget bounds what reaches the disk
    long at = 0;
    int warm = size >= 1 << 20 ? 1 : 5; // the first writes of a size settle caches and the JIT
    long begin = System.nanoTime();
    long deadline = begin + (long) (seconds * 1e9);
    long measuredStart = begin;
    while (n < lat.length && spent + size <= maxBytes && (n < 20 || System.nanoTime() < deadline)) {
      if (at + size > fileBytes) at = 0;
      buf.clear();
      long t0 = System.nanoTime();
      while (buf.hasRemaining()) ch.write(buf, at + buf.position());
      long t1 = System.nanoTime();
      at += size;
      written += size;
      spent += size;
      if (warm > 0) {
        warm--;
        measuredStart = t1;
        continue;
      }
      lat[n++] = t1 - t0;
    }
    if (n == 0) throw new IOException("the byte budget leaves no room for a " + size + " B write; raise --max-mb");
    double elapsed = (System.nanoTime() - measuredStart) / 1e9;
    long[] l = Arrays.copyOf(lat, n);
    Arrays.sort(l);
    double mean = Arrays.stream(l).average().orElse(0);
    return new SizeResult(size, n, mean, l[(int) Math.min(n - 1, Math.floor(n * 0.50))],
        l[(int) Math.min(n - 1, Math.floor(n * 0.99))], elapsed);
  }

  private QueueResult queueDepth(Path file, long fileBytes, int size, int depth, double seconds, long maxBytes)
      throws IOException {
    long part = fileBytes / depth / size * size;
    AtomicLong count = new AtomicLong();
    AtomicLong latency = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    // all threads start together and all stop when the first meets the time or byte limit, so that 8 writes are in
    // flight for the whole measured time (stragglers finish one write at most)
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    AtomicLong begin = new AtomicLong();
    java.util.concurrent.CyclicBarrier ready = new java.util.concurrent.CyclicBarrier(depth,
        () -> begin.set(System.nanoTime()));
    List<Thread> threads = new ArrayList<>();
    IOException[] failure = new IOException[1];
    for (int t = 0; t < depth; t++) {
      long base = t * part;
      Thread th = new Thread(() -> {
        ByteBuffer buf = ByteBuffer.allocateDirect(size);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.DSYNC)) {
          ready.await();
          long deadline = begin.get() + (long) (seconds * 1e9);
          long at = 0;
          while (!stop.get()) {
            if (System.nanoTime() >= deadline || bytes.addAndGet(size) > maxBytes) {
              stop.set(true);
              break;
            }
            if (at + size > part) at = 0;
            buf.clear();
            long t0 = System.nanoTime();
            while (buf.hasRemaining()) ch.write(buf, base + at + buf.position());
            latency.addAndGet(System.nanoTime() - t0);
            count.incrementAndGet();
            at += size;
          }
        } catch (IOException e) {
          synchronized (failure) {
            failure[0] = e;
          }
        } catch (InterruptedException | java.util.concurrent.BrokenBarrierException e) {
          Thread.currentThread().interrupt();
        }
      }, "calibrate-qd" + t);
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      try {
        th.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted");
      }
    }
    long end = System.nanoTime();
    if (failure[0] != null) throw failure[0];
    double elapsed = (end - begin.get()) / 1e9;
    written += count.get() * size;
    long n = Math.max(1, count.get());
    return new QueueResult(size, depth, count.get(), count.get() / elapsed, latency.get() / (double) n);
  }

  /** fdatasync of a file with nothing dirty: what a flush costs by itself. */
  private static double cleanFlush(Path file, double seconds) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(false);
      long n = 0;
      long begin = System.nanoTime();
      long deadline = begin + (long) (seconds * 1e9);
      while (n < 10 || (System.nanoTime() < deadline && n < 100_000)) {
        ch.force(false);
        n++;
      }
      // a page-cache flush can take well under 1 us; the model needs a flush to take time, so 1 us at least
      return Math.max(1000, (System.nanoTime() - begin) / (double) n);
    }
  }
}
