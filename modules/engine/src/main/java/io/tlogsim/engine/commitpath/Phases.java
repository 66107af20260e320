package io.tlogsim.engine.commitpath;

import io.tlogsim.engine.session.PhaseEnded;
import io.tlogsim.engine.session.PhaseStarted;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.VirtualTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The phases of a run (summary.json {@code phases[]}), gathered from the facts the session pools record: a step
 * starts when the first session of any pool starts it and ends when the last session of every pool has ended it.
 */
public final class Phases implements Consumer<FactBatch> {
  private final int pools;
  private final Map<Integer, long[]> byStep = new TreeMap<>(); // step -> {start, end, pools ended}
  private final Map<Integer, String> names = new TreeMap<>();

  Phases(int pools) {
    this.pools = pools;
  }

  @Override
  public void accept(FactBatch batch) {
    for (RecordedFact f : batch.facts()) {
      if (f.fact() instanceof PhaseStarted s) {
        long[] p = byStep.computeIfAbsent(s.step(), k -> new long[] {VirtualTime.NEVER, -1, 0});
        p[0] = Math.min(p[0], f.time());
        names.put(s.step(), s.name());
      } else if (f.fact() instanceof PhaseEnded e) {
        long[] p = byStep.computeIfAbsent(e.step(), k -> new long[] {VirtualTime.NEVER, -1, 0});
        p[1] = Math.max(p[1], f.time());
        p[2]++;
      }
    }
  }

  /** One phase: its step's name, when it started and how long it took (until the run's end if it did not end). */
  public record Phase(String name, long startNanos, long endNanos, boolean ended) {}

  List<Phase> phases(long runEnd) {
    List<Phase> out = new ArrayList<>();
    byStep.forEach((step, p) -> {
      boolean ended = p[2] >= pools;
      out.add(new Phase(names.getOrDefault(step, "step " + step), p[0], ended ? p[1] : runEnd, ended));
    });
    return out;
  }

  /** When the last phase ended, if every phase did; else -1. */
  long workloadEnd(int steps) {
    if (byStep.size() < steps) return -1;
    long end = 0;
    for (long[] p : byStep.values()) {
      if (p[2] < pools) return -1;
      end = Math.max(end, p[1]);
    }
    return end;
  }

  static List<Map<String, Object>> toSummary(List<Phase> phases) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Phase p : phases) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("startSeconds", round6(p.startNanos() / 1e9));
      m.put("seconds", round6((p.endNanos() - p.startNanos()) / 1e9));
      if (!p.ended()) m.put("ended", false);
      out.add(m);
    }
    return out;
  }

  private static double round6(double v) {
    return Math.round(v * 1e6) / 1e6;
  }
}
