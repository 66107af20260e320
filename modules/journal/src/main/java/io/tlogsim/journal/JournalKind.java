package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Where runs are journaled (DESIGN.md principle 6): nowhere, an embedded H2 file (the default), or PostgreSQL. */
public enum JournalKind {
  NONE, H2, POSTGRES;

  public static final JournalKind DEFAULT = H2;

  /** The value of {@code --journal}. */
  public String option() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static List<String> options() {
    return Arrays.stream(values()).map(JournalKind::option).toList();
  }

  /** Parses {@code --journal}; anything else is bad input naming the allowed values. */
  public static JournalKind parse(String s) {
    for (JournalKind k : values()) if (k.option().equals(s)) return k;
    throw new BadInputException("--journal " + s + ": unknown; allowed: " + String.join(", ", options()));
  }
}
