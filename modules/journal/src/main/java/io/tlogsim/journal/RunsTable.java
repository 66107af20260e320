package io.tlogsim.journal;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What {@code tlogsim runs} prints: one line per stored run, in columns, oldest first. */
public final class RunsTable {
  private static final DateTimeFormatter START = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  private static final String[] HEADER = {"RUN", "SCENARIO", "SEED", "STATUS", "STARTED", "SIMULATED S", "DIGEST"};

  private RunsTable() {}

  public static List<String> lines(List<RunStore.Listed> runs) {
    List<String[]> rows = new ArrayList<>();
    rows.add(HEADER);
    for (RunStore.Listed l : runs) rows.add(row(l));
    int[] width = new int[HEADER.length];
    for (String[] r : rows) for (int i = 0; i < r.length; i++) width[i] = Math.max(width[i], r[i].length());
    List<String> out = new ArrayList<>();
    for (String[] r : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        if (i > 0) sb.append("  ");
        sb.append(i == r.length - 1 ? r[i] : String.format(Locale.ROOT, "%-" + width[i] + "s", r[i]));
      }
      out.add(sb.toString().stripTrailing());
    }
    return out;
  }

  public static String[] row(RunStore.Listed l) {
    RunState s = l.state();
    if (s == null) {
      String started = l.ledger() == null || l.ledger().startedAtMillis() == 0 ? "?"
          : START.format(java.time.Instant.ofEpochMilli(l.ledger().startedAtMillis()).atZone(ZoneId.systemDefault()));
      return new String[] {l.runId(), "?", "?", l.status(), started, "?", l.unreadable()};
    }
    String started = START.format(s.first().startedAt().atZone(ZoneId.systemDefault()));
    String end = seconds(s.spec().endTimeNanos());
    // the simulated time the run reached: a completed run's own (a script may end before the limit), else where its
    // last checkpoint was, of the limit
    String simulated = s.effectiveStatus() == RunStatus.COMPLETED ? seconds(s.simulatedNanosReached())
        : seconds(s.simulatedNanosReached()) + " of " + end;
    Object digest = s.summary() == null ? null : s.summary().get("digest");
    return new String[] {l.runId(), s.spec().scenario(), String.valueOf(s.spec().seed()), l.status(), started,
        simulated, digest == null ? "-" : String.valueOf(digest)};
  }

  private static String seconds(long nanos) {
    double s = nanos / 1e9;
    return s == Math.rint(s) ? String.valueOf((long) s) : String.format(Locale.ROOT, "%.3f", s);
  }
}
