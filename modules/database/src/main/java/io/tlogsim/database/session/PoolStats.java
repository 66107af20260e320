package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a session pool measured: its commits (latency from the session's COMMIT to its acknowledgement: the ACK of
 * its flush, or for a commit that does not wait for it the APPENDED of its record), statements and rows, the time
 * its sessions waited for a core (the CPU wait) and the CPU they used, how many sessions finished their script, and its phases (the steps its sessions started).
 *
 * @param acknowledgedAtCrash when the server lost power: by session, the commits it had been told were done (null: no
 *     crash)
 * @param arrivals at a fixed arrival rate: {transactions scheduled, started late, total lag ns, most lag ns}; null
 *     without one
 * @param hostCosts what waiting for flushes cost the host ({@link WaitCharger#counts()}: wakes, idle wakes, flushes,
 *     wake CPU ns, sleep CPU ns, flush CPU ns, sleeps, second sleeps, commit_delay sleeps); null without host costs
 */
public record PoolStats(CommitStats commits, long lazyCommits, long statements, long rows, long cpuWaits,
    long cpuWaitNanos, long cpuMaxWaitNanos, long cpuBusyNanos, int sessions, int sessionsDone, List<Phase> phases,
    long[] acknowledgedAtCrash, long[] arrivals, long[] hostCosts) implements CborSerializable {

  public PoolStats(CommitStats commits, long lazyCommits, long statements, long rows, long cpuWaits,
      long cpuWaitNanos, long cpuMaxWaitNanos, long cpuBusyNanos, int sessions, int sessionsDone, List<Phase> phases,
      long[] acknowledgedAtCrash, long[] arrivals) {
    this(commits, lazyCommits, statements, rows, cpuWaits, cpuWaitNanos, cpuMaxWaitNanos, cpuBusyNanos, sessions,
        sessionsDone, phases, acknowledgedAtCrash, arrivals, null);
  }

  public PoolStats(CommitStats commits, long lazyCommits, long statements, long rows, long cpuWaits,
      long cpuWaitNanos, long cpuMaxWaitNanos, long cpuBusyNanos, int sessions, int sessionsDone, List<Phase> phases) {
    this(commits, lazyCommits, statements, rows, cpuWaits, cpuWaitNanos, cpuMaxWaitNanos, cpuBusyNanos, sessions,
        sessionsDone, phases, null, null);
  }

  /**
   * One step of the script as a phase: when its first session started it, when its last ended it, and how many
   * sessions ended it (all of them when {@code ended == sessions}).
   */
  public record Phase(int step, String name, long startNanos, long endNanos, int ended) implements CborSerializable {}

  /**
   * The stats of several pools as one (in session order): a phase spans from its first start to its last end in any
   * pool.
   */
  public static PoolStats merge(List<PoolStats> parts) {
    long lazy = 0, statements = 0, rows = 0, waits = 0, waitNs = 0, maxWait = 0, busy = 0;
    int sessions = 0, done = 0;
    long[] acked = parts.stream().allMatch(p -> p.acknowledgedAtCrash != null) && !parts.isEmpty()
        ? new long[parts.stream().mapToInt(p -> p.acknowledgedAtCrash.length).sum()] : null;
    List<CommitStats> commits = new ArrayList<>();
    Map<Integer, Phase> phases = new TreeMap<>();
    long[] arrivals = parts.stream().anyMatch(p -> p.arrivals != null) ? new long[4] : null;
    long[] host = parts.stream().anyMatch(p -> p.hostCosts != null)
        ? new long[parts.stream().mapToInt(p -> p.hostCosts == null ? 0 : p.hostCosts.length).max().orElse(0)] : null;
    for (PoolStats p : parts) {
      if (p.hostCosts != null) {
        for (int k = 0; k < p.hostCosts.length; k++) host[k] += p.hostCosts[k];
      }
      if (p.arrivals != null) {
        for (int k = 0; k < 3; k++) arrivals[k] += p.arrivals[k];
        arrivals[3] = Math.max(arrivals[3], p.arrivals[3]);
      }
      commits.add(p.commits);
      lazy += p.lazyCommits;
      statements += p.statements;
      rows += p.rows;
      waits += p.cpuWaits;
      waitNs += p.cpuWaitNanos;
      maxWait = Math.max(maxWait, p.cpuMaxWaitNanos);
      busy += p.cpuBusyNanos;
      if (acked != null) System.arraycopy(p.acknowledgedAtCrash, 0, acked, sessions, p.acknowledgedAtCrash.length);
      sessions += p.sessions;
      done += p.sessionsDone;
      for (Phase f : p.phases) {
        phases.merge(f.step(), f, (a, b) -> new Phase(a.step(), a.name(), Math.min(a.startNanos(), b.startNanos()),
            Math.max(a.endNanos(), b.endNanos()), a.ended() + b.ended()));
      }
    }
    return new PoolStats(CommitStats.merge(commits), lazy, statements, rows, waits, waitNs, maxWait, busy, sessions,
        done, List.copyOf(phases.values()), acked, arrivals, host);
  }
}
