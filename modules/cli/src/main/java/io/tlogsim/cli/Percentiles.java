package io.tlogsim.cli;

import io.tlogsim.scenario.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** {@code run --percentiles 50,99.99}: the commit latency at the percentiles asked, from the run's histogram. */
final class Percentiles {
  private Percentiles() {}

  /** "percentiles  p50 486.7 us, p99.99 701.2 us" (values in ns in the histogram); none when none was asked. */
  static List<String> lines(List<Double> asked, Map<String, Histogram> histograms) {
    Histogram h = histograms.get("commits");
    if (asked.isEmpty()) return List.of();
    if (h == null || h.getTotalCount() == 0) return Text.lines("percentiles", "no commit latencies in this run");
    List<String> items = new ArrayList<>();
    for (double p : asked) {
      String name = p == Math.rint(p) ? String.valueOf((long) p) : String.format(Locale.ROOT, "%s", p);
      items.add("p" + name + " " + Text.latencyUs(Math.min(h.getValueAtPercentile(p), h.getMaxValue()) / 1e3));
    }
    return Text.lines("percentiles", items.toArray(new String[0]));
  }
}
