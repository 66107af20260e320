package io.tlogsim.database.log;

import io.tlogsim.database.series.Histograms;
import io.tlogsim.database.series.Intervals;
import io.tlogsim.database.series.LogInterval;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.VirtualTime;
import org.HdrHistogram.Histogram;

/**
 * A log manager's writes per report interval ({@link Intervals}): counted as they are issued, recorded as one
 * {@link LogInterval} when the interval is over (at the log manager's first event past it, or when the run finishes).
 * The log's statistics cover the whole run, warm-up included, so its grid is not split at the warm-up's end.
 */
final class WriteIntervals {
  /** Write sizes to 2 significant digits: enough for a histogram of flush sizes, small in the journal. */
  private static final int DIGITS = 2;

  private long step;
  private long openFrom;
  private long openTo = VirtualTime.NEVER;
  private long writes;
  private long pages;
  private long bytes;
  private Histogram sizes = newSizes();

  private static Histogram newSizes() {
    Histogram h = new Histogram(DIGITS);
    h.setAutoResize(true);
    return h;
  }

  void start(long endNanos) {
    step = Intervals.step(endNanos);
    openFrom = 0;
    openTo = Intervals.next(0, step, 0, endNanos);
  }

  /** Before an event at {@code now}: closes the intervals that ended by then. */
  void advance(Context ctx, long now) {
    while (now >= openTo) {
      close(ctx);
      openFrom = openTo;
      openTo = Intervals.next(openFrom, step, 0, ctx.endTime());
    }
  }

  void wrote(long writePages, long writeBytes) {
    writes++;
    pages += writePages;
    bytes += writeBytes;
    sizes.recordValue(writeBytes);
  }

  /** The run is over: the last interval. */
  void finish(Context ctx) {
    close(ctx);
  }

  private void close(Context ctx) {
    ctx.record(new LogInterval(openFrom, Math.min(openTo, ctx.endTime()), writes, pages, bytes,
        Histograms.encode(sizes)));
    writes = 0;
    pages = 0;
    bytes = 0;
    sizes.reset();
  }

  State state() {
    return new State(new long[] {step, openFrom, openTo, writes, pages, bytes}, Histograms.encode(sizes));
  }

  void restore(State s) {
    if (s == null) return;
    long[] v = s.values();
    step = v[0];
    openFrom = v[1];
    openTo = v[2];
    writes = v[3];
    pages = v[4];
    bytes = v[5];
    sizes = newSizes();
    sizes.add(Histograms.decode(s.sizes()));
  }

  /** The open interval in a checkpoint. */
  public record State(long[] values, byte[] sizes) implements CborSerializable {}
}
