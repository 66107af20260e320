package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.session.PoolStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The phases of a run (summary.json {@code phases[]}): each step of the script, from when its first session started
 * it to when its last session ended it (the pools record these moments as facts and keep them in their state).
 */
public final class Phases {
  private Phases() {}

  /** One phase: its step's name, when it started, and when it ended (the run's end if it did not). */
  public record Phase(String name, long startNanos, long endNanos, boolean ended) {
    public double seconds() {
      return (endNanos - startNanos) / 1e9;
    }
  }

  static List<Phase> of(PoolStats sessions, long runEnd) {
    List<Phase> out = new ArrayList<>();
    for (PoolStats.Phase p : sessions.phases()) {
      boolean ended = p.ended() == sessions.sessions();
      out.add(new Phase(p.name(), p.startNanos(), ended ? p.endNanos() : runEnd, ended));
    }
    return out;
  }

  /** When the last session finished its script, or -1 if some did not. */
  static long workloadEnd(PoolStats sessions, int steps) {
    if (sessions.sessionsDone() < sessions.sessions() || sessions.phases().size() < steps) return -1;
    long end = 0;
    for (PoolStats.Phase p : sessions.phases()) end = Math.max(end, p.endNanos());
    return end;
  }

  static List<Map<String, Object>> toSummary(List<Phase> phases) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Phase p : phases) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("startSeconds", round6(p.startNanos() / 1e9));
      m.put("seconds", round6(p.seconds()));
      if (!p.ended()) m.put("ended", false);
      out.add(m);
    }
    return out;
  }

  private static double round6(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
