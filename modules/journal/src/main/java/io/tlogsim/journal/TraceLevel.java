package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.kernel.IntervalFact;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How much of a run's facts the journal keeps (DESIGN.md principle 5). {@code summary} (the default) keeps the
 * per-interval aggregates models record ({@link IntervalFact}): enough for every chart of the report, and a few
 * rows per simulated interval whatever the load. {@code full} keeps every fact (each commit acknowledged, each
 * flush, each I/O): for looking at single events, at the cost of journal size and speed.
 */
public enum TraceLevel {
  SUMMARY, FULL;

  public static final TraceLevel DEFAULT = SUMMARY;

  public String option() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a fact a model recorded is kept at this level. */
  public boolean keeps(Object fact) {
    return this == FULL || fact instanceof IntervalFact;
  }

  public static List<String> options() {
    return Arrays.stream(values()).map(TraceLevel::option).toList();
  }

  public static TraceLevel parse(String s, String what) {
    for (TraceLevel t : values()) if (t.option().equals(s)) return t;
    throw new BadInputException(what + " " + s + ": unknown trace level; allowed: " + String.join(", ", options()));
  }
}
