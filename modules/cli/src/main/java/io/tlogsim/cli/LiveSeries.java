package io.tlogsim.cli;

import io.tlogsim.scenario.Text;
import io.tlogsim.database.series.CommitInterval;
import io.tlogsim.database.series.Histograms;
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
  private List<byte[]> latencies = new ArrayList<>(); // encoded: decoded when a progress line asks, or in bulk
  private Histogram folded = newHistogram(); // what was decoded in bulk (a run whose progress nobody asks for)
  private Figures last;

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
    final List<byte[]> h = new ArrayList<>();

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
    // kept encoded: decoding every pool's interval here, on the clock's thread, cost GCM-1 at N = 100,000 a third of
    // its speed; a progress line decodes what it shows
    if (c.commits() > 0) o.h.add(c.latencies());
    long latestStart = open.lastKey();
    while (!open.isEmpty() && open.firstEntry().getValue().to < latestStart) {
      var e = open.pollFirstEntry();
      if (fromNanos < 0) fromNanos = e.getKey();
      toNanos = e.getValue().to;
      commits += e.getValue().commits;
      sumNanos += e.getValue().sum;
      latencies.addAll(e.getValue().h);
      if (latencies.size() > 256) fold(); // bounded memory when no progress line asks
    }
  }

  /** The interval facts of the run, in the order the kernel handed them out. */
  synchronized List<RecordedFact> facts() {
    return List.copyOf(kept);
  }

  /** The commit rate and latency of some intervals [fromNanos, toNanos); latencies NaN without commits. */
  record Figures(double commitsPerSecond, double meanUs, double p99Us, long fromNanos, long toNanos) {
    /** "673,889 commits/s", "latency mean 483.5 us, p99 646.1 us", "in 1.2-1.4 simulated s" */
    List<String> items() {
      List<String> items = new ArrayList<>();
      items.add(Text.whole(commitsPerSecond) + " commits/s");
      if (!Double.isNaN(meanUs)) items.add("latency mean " + Text.latencyUs(meanUs) + ", p99 " + Text.latencyUs(p99Us));
      items.add(String.format(Locale.ROOT, "in %s-%s simulated s", Text.number(Math.round(fromNanos / 1e6) / 1e3),
          Text.number(Math.round(toNanos / 1e6) / 1e3)));
      return items;
    }

    /** "754k/s p99 127 ms": what fits after a progress bar in 80 columns. */
    String brief() {
      String rate = commitsPerSecond >= 1e4 ? Text.whole(commitsPerSecond / 1e3) + "k/s" : Text.whole(commitsPerSecond)
          + "/s";
      if (Double.isNaN(p99Us)) return rate;
      String p99 = p99Us < 1_000 ? String.format(Locale.ROOT, "%.0f us", p99Us)
          : p99Us < 100_000 ? String.format(Locale.ROOT, "%.1f ms", p99Us / 1e3)
          : p99Us < 1e6 ? String.format(Locale.ROOT, "%.0f ms", p99Us / 1e3)
          : String.format(Locale.ROOT, "%.2f s", p99Us / 1e6);
      return rate + " p99 " + p99;
    }
  }

  /**
   * The figures of the intervals completed since the last call; the previous ones again when none completed
   * meanwhile; null before the first.
   */
  synchronized Figures sinceLastAsked() {
    if (fromNanos < 0) return last;
    double span = (toNanos - fromNanos) / 1e9;
    fold();
    Histogram h = folded;
    last = new Figures(span > 0 ? commits / span : 0, commits > 0 ? sumNanos / (double) commits / 1e3 : Double.NaN,
        commits > 0 ? h.getValueAtPercentile(99) / 1e3 : Double.NaN, fromNanos, toNanos);
    fromNanos = -1;
    commits = 0;
    sumNanos = 0;
    folded = newHistogram();
    return last;
  }

  private void fold() {
    for (byte[] b : latencies) Histograms.addTo(folded, b); // in place: no decoded histogram made
    latencies = new ArrayList<>();
  }
}
