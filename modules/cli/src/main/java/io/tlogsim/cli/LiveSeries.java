package io.tlogsim.cli;

import io.tlogsim.engine.scenario.Text;
import io.tlogsim.engine.series.CommitInterval;
import io.tlogsim.engine.series.Histograms;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.IntervalFact;
import io.tlogsim.kernel.RecordedFact;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The run's fact sink on the command line's side (the clock's thread calls it): keeps the interval facts for the
 * report of a run without a journal, and the commit intervals for the progress lines, which ask (from another thread)
 * for the commit rate and latency of the intervals completed since they last asked, as pgbench's -P does.
 */
final class LiveSeries implements Consumer<FactBatch> {
  private final boolean keep;
  private final List<RecordedFact> kept = new ArrayList<>();
  private final TreeMap<Long, Open> open = new TreeMap<>(); // intervals not yet complete, by start
  // complete intervals since the last progress line
  private long commits;
  private long sumNanos;
  private long fromNanos = -1;
  private long toNanos;
  private Histogram latencies = newHistogram();
  private List<String> last = List.of();

  /** @param keep whether to keep the interval facts for the report (no journal keeps them) */
  LiveSeries(boolean keep) {
    this.keep = keep;
  }

  private static Histogram newHistogram() {
    Histogram h = new Histogram(3);
    h.setAutoResize(true);
    return h;
  }

  private static final class Open {
    final long to;
    long commits;
    long sum;
    final Histogram h = newHistogram();

    Open(long to) {
      this.to = to;
    }
  }

  @Override
  public synchronized void accept(FactBatch batch) {
    for (RecordedFact f : batch.facts()) {
      if (!(f.fact() instanceof IntervalFact)) continue;
      if (keep) kept.add(f);
      if (f.fact() instanceof CommitInterval c) commitInterval(c);
    }
  }

  /**
   * Pools record each interval once, at their first event past it, so they can be a little apart; an interval counts
   * as complete once some pool has recorded one that starts a whole interval after it ends (a pool gone idle does not
   * hold the figures back). Several databases in one run count as one.
   */
  private void commitInterval(CommitInterval c) {
    Open o = open.computeIfAbsent(c.fromNanos(), k -> new Open(c.toNanos()));
    o.commits += c.commits();
    o.sum += c.latencySumNanos();
    if (c.commits() > 0) o.h.add(Histograms.decode(c.latencies()));
    long latestStart = open.lastKey();
    while (!open.isEmpty() && open.firstEntry().getValue().to < latestStart) {
      var e = open.pollFirstEntry();
      if (fromNanos < 0) fromNanos = e.getKey();
      toNanos = e.getValue().to;
      commits += e.getValue().commits;
      sumNanos += e.getValue().sum;
      latencies.add(e.getValue().h);
    }
  }

  /** The interval facts of the run, in the order the kernel handed them out. */
  synchronized List<RecordedFact> facts() {
    return List.copyOf(kept);
  }

  /**
   * "673,889 commits/s, latency mean 483.5 us, p99 646.1 us (1.2-1.4 s)" over the intervals completed since the last
   * call; the previous figures again when none completed meanwhile; nothing before the first.
   */
  synchronized List<String> sinceLastAsked() {
    if (fromNanos < 0) return last;
    double span = (toNanos - fromNanos) / 1e9;
    List<String> items = new ArrayList<>();
    items.add(Text.whole(span > 0 ? commits / span : 0) + " commits/s");
    if (commits > 0) {
      items.add("latency mean " + Text.latencyUs(sumNanos / (double) commits / 1e3) + ", p99 "
          + Text.latencyUs(latencies.getValueAtPercentile(99) / 1e3));
    }
    items.add(String.format(Locale.ROOT, "in %s-%s simulated s", Text.number(Math.round(fromNanos / 1e6) / 1e3),
        Text.number(Math.round(toNanos / 1e6) / 1e3)));
    last = items;
    fromNanos = -1;
    commits = 0;
    sumNanos = 0;
    latencies = newHistogram();
    return items;
  }
}
