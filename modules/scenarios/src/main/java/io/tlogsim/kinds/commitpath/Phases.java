package io.tlogsim.kinds.commitpath;

import io.tlogsim.database.session.PoolStats;
import io.tlogsim.scenario.summary.Summary.Phase;
import java.util.ArrayList;
import java.util.List;

/**
 * The phases of a commit-path run (summary.json {@code phases[]}): each step of the script, from when its first session
 * started it to when its last session ended it (the pools record these moments as facts and keep them in their state).
 */
public final class Phases {
  private Phases() {}

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

}
