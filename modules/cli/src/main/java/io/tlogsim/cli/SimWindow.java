package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
import picocli.CommandLine.Option;

/**
 * {@code --from A --to B}: a window [A, B) of a stored run's simulated time, in seconds, for {@code facts} and
 * {@code replay}. Both ends are optional for {@code facts} (the whole run) and checked against the run: not negative,
 * B above A, neither beyond the simulated time the run reached.
 */
final class SimWindow {
  @Option(names = "--from", paramLabel = "A", description = "Start of the window, simulated seconds (inclusive; "
      + "default 0).")
  Double from;

  @Option(names = "--to", paramLabel = "B", description = "End of the window, simulated seconds (exclusive; default: "
      + "the run's end).")
  Double to;

  /** A checked window in simulated nanoseconds, [fromNanos, toNanos). */
  record Nanos(long fromNanos, long toNanos) {
    boolean contains(long t) {
      return t >= fromNanos && t < toNanos;
    }

    double fromSeconds() {
      return fromNanos / 1e9;
    }

    double toSeconds() {
      return toNanos / 1e9;
    }
  }

  boolean given() {
    return from != null || to != null;
  }

  /**
   * The window for a run that reached {@code endNanos} of simulated time: bad input (exit 2, one line) when an end is
   * negative, not a number, B is not above A, or an end lies beyond the run.
   */
  Nanos check(long endNanos, String runId) {
    double end = endNanos / 1e9;
    double a = from == null ? 0 : from;
    double b = to == null ? end : to;
    if (Double.isNaN(a) || Double.isInfinite(a) || a < 0) {
      throw new BadInputException("--from " + Text.plain(a) + ": must be a number of simulated seconds >= 0");
    }
    if (Double.isNaN(b) || Double.isInfinite(b) || b < 0) {
      throw new BadInputException("--to " + Text.plain(b) + ": must be a number of simulated seconds >= 0");
    }
    long fa = Math.round(a * 1e9), fb = Math.round(b * 1e9);
    if (fa >= endNanos) {
      throw new BadInputException("--from " + Text.plain(a) + ": beyond the run " + runId + ", which reached "
          + Text.plain(end) + " simulated s");
    }
    if (b <= a) {
      throw new BadInputException("--from " + Text.plain(a) + " --to " + Text.plain(b) + ": the window's end must be"
          + " after its start");
    }
    if (fb > endNanos) {
      throw new BadInputException("--to " + Text.plain(b) + ": beyond the run " + runId + ", which reached "
          + Text.plain(end) + " simulated s (give at most " + Text.plain(end) + ")");
    }
    return new Nanos(fa, fb);
  }
}
