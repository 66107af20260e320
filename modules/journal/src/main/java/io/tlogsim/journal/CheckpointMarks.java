package io.tlogsim.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.BadInputException;
import java.util.Locale;

/**
 * Checkpoints at simulated-time marks ({@code tlogsim.journal.checkpoint-every-simulated}), beside those taken every
 * few wall seconds: {@code replay --at T} and {@code run --branch} restore the last checkpoint at or before T and
 * re-simulate from there, so marks bound that work in simulated time whatever the wall speed of the recording machine
 * was. A checkpoint changes no result (DESIGN.md principle 2): the digest and summary are those of a run without marks.
 *
 * @param text as configured: "10%" (of the run's simulated-time limit), a duration ("30s", "500ms"), or "off"
 */
public record CheckpointMarks(String text) {
  static final String KEY = "tlogsim.journal.checkpoint-every-simulated";

  public CheckpointMarks {
    parse(text, VirtualTime.NS_PER_S); // refused here, naming the key, before anything is run
  }

  /** The marks the application's config asks for. */
  public static CheckpointMarks configured() {
    return of(ConfigFactory.load());
  }

  public static CheckpointMarks of(Config config) {
    try {
      return new CheckpointMarks(config.getString(KEY));
    } catch (ConfigException e) {
      throw new BadInputException(KEY + ": " + e.getMessage().replace('\n', ' '));
    }
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
