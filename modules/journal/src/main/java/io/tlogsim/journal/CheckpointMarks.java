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
 * <p>A mark reached less than {@code minWallGap} of wall time after the run's last checkpoint is passed over
 * ({@code tlogsim.journal.checkpoint-min-gap}): re-simulating from that checkpoint to the mark costs less than writing
 * one, and on a run short in wall time the marks' checkpoints were most of what its journal cost (docs/journal.md).
 *
 * @param text as configured: "10%" (of the run's simulated-time limit), a duration ("30s", "500ms"), or "off"
 * @param minWallGap wall time from the last checkpoint before a mark's is taken; zero: every mark
 */
public record CheckpointMarks(String text, Duration minWallGap) {
  static final String KEY = "tlogsim.journal.checkpoint-every-simulated";
  static final String GAP_KEY = "tlogsim.journal.checkpoint-min-gap";

  public CheckpointMarks {
    parse(text, VirtualTime.NS_PER_S); // refused here, naming the key, before anything is run
    if (minWallGap == null || minWallGap.isNegative()) {
      throw new BadInputException(GAP_KEY + ": must be a wall duration (250ms) or 0s, got " + minWallGap);
    }
  }

  /** The marks the application's config asks for. */
  public static CheckpointMarks configured() {
    return of(ConfigFactory.load());
  }

  public static CheckpointMarks of(Config config) {
    String text;
    try {
      text = config.getString(KEY);
    } catch (ConfigException e) {
      throw new BadInputException(KEY + ": " + e.getMessage().replace('\n', ' '));
    }
    try {
      return new CheckpointMarks(text, config.getDuration(GAP_KEY));
    } catch (ConfigException e) {
      throw new BadInputException(GAP_KEY + ": must be a wall duration (250ms) or 0s; " + e.getMessage()
          .replace('\n', ' '));
    }
  }

  /** These marks at {@code marks} instead ("10%", "30s", "off": run --checkpoint-every-simulated). */
  public CheckpointMarks withText(String marks) {
    return new CheckpointMarks(marks, minWallGap);
  }

  /** These marks with {@code gap} (a duration as in the config: "250ms", "0s"; run --checkpoint-min-gap). */
  public CheckpointMarks withMinWallGap(String gap) {
    long nanos;
    try {
      nanos = ConfigFactory.parseString("d = \"" + (gap == null ? "" : gap.strip().replace("\"", "")) + "\"")
          .getDuration("d").toNanos();
    } catch (ConfigException e) {
      nanos = -1;
    }
    if (nanos < 0) {
      throw new BadInputException(GAP_KEY + ": must be a wall duration (250ms) or 0s, got '" + gap + "'");
    }
    return new CheckpointMarks(text, Duration.ofNanos(nanos));
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
    return mark <= 0 ? null : CheckpointPolicy.everySimulatedNanos(mark, startNanos);
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
