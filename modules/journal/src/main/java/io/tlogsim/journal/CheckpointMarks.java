package io.tlogsim.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.BadInputException;
import java.time.Duration;
import java.util.Locale;

/**
 * Checkpoints at simulated-time marks ({@code tlogsim.journal.checkpoint-every-simulated}), beside those taken every
 * few wall seconds: {@code replay --at T} and {@code run --branch} restore the last checkpoint at or before T and
 * re-simulate from there, so marks bound that work in simulated time whatever the wall speed of the recording machine
 * was. A checkpoint changes no result (DESIGN.md principle 2): the digest and summary are those of a run without marks.
 *
 * <p>A mark reached less than {@code minWallGap} of wall time after the run's last mark checkpoint (before the first:
 * its first window) is passed over ({@code tlogsim.journal.checkpoint-min-gap}): re-simulating from the checkpoint
 * before costs less than writing one, and on a run short in wall time the marks' checkpoints were most of what its
 * journal cost (docs/journal.md). The gap counts from marks only: a run whose marks come that far apart keeps them all.
 * Being wall time, it makes a resumed run's or a branch's marks those its own pace allows, not the first run's.
 *
 * @param text as configured: "10%" (of the run's simulated-time limit), a duration ("30s", "500ms"), or "off"
 * @param minWallGap wall time from the last mark's checkpoint before the next mark's is taken; zero: every mark
 */
public record CheckpointMarks(String text, Duration minWallGap) {
  static final String KEY = "tlogsim.journal.checkpoint-every-simulated";
  static final String GAP_KEY = "tlogsim.journal.checkpoint-min-gap";
  static final String GAP_OPTION = "--checkpoint-min-gap";

  public CheckpointMarks {
    parse(text, VirtualTime.NS_PER_S); // refused here, naming the key, before anything is run
    if (minWallGap == null || minWallGap.isNegative()) {
      throw new BadInputException(GAP_KEY + ": must be a wall duration (500ms, 2s) or 0s, got " + minWallGap);
    }
  }

  /** The marks the application's config asks for. */
  public static CheckpointMarks configured() {
    return of(ConfigFactory.load());
  }

  public static CheckpointMarks of(Config config) {
    return of(config, null, null);
  }

  /**
   * The config's marks and gap, each replaced by its command-line option when that is given (null: not given; run
   * --checkpoint-every-simulated, --checkpoint-min-gap): a config value an option replaces is not read.
   */
  public static CheckpointMarks of(Config config, String marksOption, String gapOption) {
    String text = marksOption != null ? marksOption : configured(config, KEY);
    Duration gap = gapOption != null ? wallGap(gapOption, GAP_OPTION) : wallGap(configured(config, GAP_KEY), GAP_KEY);
    return new CheckpointMarks(text, gap);
  }

  /** The config's value at {@code key} as written (a duration, a percent, a number), or one bad-input line. */
  private static String configured(Config config, String key) {
    try {
      return String.valueOf(config.getValue(key).unwrapped());
    } catch (ConfigException e) {
      throw new BadInputException(key + ": " + e.getMessage().replace('\n', ' '));
    }
  }

  /**
   * "500ms", "2s", "0s", "0": a wall duration of zero or more with its unit (a bare number would be milliseconds to
   * the config's parser, seconds to a reader of --at), or one bad-input line naming where it came from.
   */
  private static Duration wallGap(String gap, String where) {
    String g = gap == null ? "" : gap.strip();
    long nanos;
    try {
      nanos = g.matches("[0-9.]+") && Double.parseDouble(g) != 0 ? -1
          : ConfigFactory.parseString("d = \"" + g.replace("\"", "") + "\"").getDuration("d").toNanos();
    } catch (ConfigException | NumberFormatException e) {
      nanos = -1;
    }
    if (nanos < 0) {
      throw new BadInputException(where + ": must be a wall duration with its unit (500ms, 2s) or 0s, got '" + gap
          + "'");
    }
    return Duration.ofNanos(nanos);
  }

  /** The distance between two marks of a run whose limit is {@code endTimeNanos}; 0: no marks. */
  public long markNanos(long endTimeNanos) {
    return parse(text, endTimeNanos);
  }

  /** The policy of a run whose limit is {@code endTimeNanos}, or null when there are no marks. */
  public CheckpointPolicy policy(long endTimeNanos) {
    return policy(endTimeNanos, 0);
  }

  /** As {@link #policy(long)} for a run that goes on from a checkpoint at {@code startNanos}: the marks after it. */
  public CheckpointPolicy policy(long endTimeNanos, long startNanos) {
    long mark = markNanos(endTimeNanos);
    if (mark <= 0) return null;
    CheckpointPolicy marks = CheckpointPolicy.everySimulatedNanos(mark, startNanos);
    long gap = minWallGap.toNanos();
    return gap == 0 ? marks : passingOverWithin(gap, marks);
  }

  /**
   * {@code marks}, but a mark reached less than {@code gapNanos} of wall time after the last one taken (before the
   * first: after the first window asked) is passed over. {@code marks} is asked first, so a mark passed over is spent:
   * the next checkpoint is at a later mark, not at the first window once the gap is over. Asked on the clock's thread;
   * the wall clock is read at the first window and at marks only.
   */
  static CheckpointPolicy passingOverWithin(long gapNanos, CheckpointPolicy marks) {
    long[] lastTaken = {Long.MIN_VALUE}; // System.nanoTime() of the last mark taken, or of the first window
    return (window, simulatedNanos) -> {
      if (lastTaken[0] == Long.MIN_VALUE) lastTaken[0] = System.nanoTime();
      if (!marks.checkpointNow(window, simulatedNanos)) return false;
      long now = System.nanoTime();
      if (now - lastTaken[0] < gapNanos) return false;
      lastTaken[0] = now;
      return true;
    };
  }

  private static long parse(String text, long endTimeNanos) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    if (t.equals("off") || t.equals("0") || t.equals("none")) return 0;
    try {
      if (t.endsWith("%")) {
        double percent = Double.parseDouble(t.substring(0, t.length() - 1).strip());
        if (!(percent > 0 && percent <= 100)) throw new NumberFormatException();
        return Math.max(1, Math.round(endTimeNanos * percent / 100));
      }
      long nanos = ConfigFactory.parseString("d = \"" + t.replace("\"", "") + "\"").getDuration("d").toNanos();
      if (nanos <= 0) throw new NumberFormatException();
      return nanos;
    } catch (NumberFormatException | ConfigException e) {
      throw new BadInputException(KEY + ": must be a percent of the run's simulated time (10%), a simulated duration"
          + " (30s, 500ms) or off, got '" + text + "'");
    }
  }
}
