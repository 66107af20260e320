package io.tlogsim.engine.session;

import io.tlogsim.kernel.CborSerializable;
import java.util.List;

/**
 * What a session pool measured: its commits (latency from the session's COMMIT to its acknowledgement; a commit that
 * does not wait counts its CPU time), statements and rows, the time its sessions waited for a core (the CPU wait) and
 * the CPU they used, and how many sessions finished their script.
 */
public record PoolStats(CommitStats commits, long lazyCommits, long statements, long rows, long cpuWaits,
    long cpuWaitNanos, long cpuMaxWaitNanos, long cpuBusyNanos, int sessionsDone) implements CborSerializable {

  /** The stats of several pools as one. */
  public static PoolStats merge(List<PoolStats> parts) {
    long lazy = 0, statements = 0, rows = 0, waits = 0, waitNs = 0, maxWait = 0, busy = 0;
    int done = 0;
    List<CommitStats> commits = new java.util.ArrayList<>();
    for (PoolStats p : parts) {
      commits.add(p.commits);
      lazy += p.lazyCommits;
      statements += p.statements;
      rows += p.rows;
      waits += p.cpuWaits;
      waitNs += p.cpuWaitNanos;
      maxWait = Math.max(maxWait, p.cpuMaxWaitNanos);
      busy += p.cpuBusyNanos;
      done += p.sessionsDone;
    }
    return new PoolStats(CommitStats.merge(commits), lazy, statements, rows, waits, waitNs, maxWait, busy, done);
  }
}
