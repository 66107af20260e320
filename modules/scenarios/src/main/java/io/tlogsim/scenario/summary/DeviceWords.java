package io.tlogsim.scenario.summary;

import io.tlogsim.scenario.Text;
import io.tlogsim.storage.DeviceStats;
import java.util.Locale;

/**
 * What a device's cap did to a run, in words beside its figures: a cloud disk far below its IOPS cap gives the same
 * run as a larger tier would (P30 and P40 alike), which otherwise shows only as identical results.
 */
public final class DeviceWords {
  /** Below this share of its cap in its busiest second, a device's cap is said not to have limited the run. */
  static final double FAR_BELOW = 0.5;

  private DeviceWords() {}

  /** A sentence on the device's IOPS cap, or "" when it has none. */
  public static String capNote(DeviceStats d, double seconds) {
    Long cap = d.counters().get("iopsCap");
    if (cap == null || cap <= 0) return "";
    long peak = seconds >= 2 ? DeviceSummary.peakIops(d.series(), 1, (int) Math.ceil(seconds))
        : Math.round((d.reads() + d.writes()) / Math.max(seconds, 1e-9));
    if (d.throttledNanos() > 0 && peak >= FAR_BELOW * cap) {
      return "held at its cap of " + Text.count(cap) + " IOPS (requests waited " + Text.latencyUs(d.throttledNanos()
          / 1e3) + " for it in all)";
    }
    if (peak < FAR_BELOW * cap) {
      return String.format(Locale.ROOT, "at most %s IOPS in a second, %.0f%% of its cap of %s IOPS: the cap never "
          + "limited this run (a larger tier gives the same run)", Text.count(peak), 100.0 * peak / cap,
          Text.count(cap));
    }
    return "";
  }
}
