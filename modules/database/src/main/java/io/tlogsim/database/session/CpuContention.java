package io.tlogsim.database.session;

import java.util.Arrays;

/**
 * How a session's CPU grows with the number of sessions that want the host's cores at once (running or waiting for
 * one): a measured curve of CPU per transaction against that number, as a factor on the script's nominal CPU. Where
 * it comes from (docs/commit-path.md, "pg-commit's inputs"): the CPU per transaction of the same load with commits that
 * do not wait (synchronous_commit=off) at 1, 2, 4, ... N clients, where each client is on a core or waiting for one;
 * it holds whatever that concurrency costs on that host (lock convoys on the table's last page and the shared
 * structures, caches shared by more processes, socket hand-offs across cores while cores idle), without modelling each.
 * Between measured counts the factor is linear in log2 of the count; beyond them the nearest measured one.
 *
 * @param sessions the measured counts, ascending, each at least 1
 * @param factors the CPU at each count divided by the nominal CPU (each > 0)
 */
public record CpuContention(int[] sessions, double[] factors) {
  /** No contention: the nominal CPU at every count. */
  public static final CpuContention NONE = new CpuContention(new int[0], new double[0]);

  public CpuContention {
    if (sessions.length != factors.length) throw new IllegalArgumentException("one factor per session count");
    for (int k = 0; k < sessions.length; k++) {
      if (sessions[k] < 1 || (k > 0 && sessions[k] <= sessions[k - 1])) {
        throw new IllegalArgumentException("session counts must be ascending and >= 1");
      }
      if (!(factors[k] > 0) || Double.isInfinite(factors[k])) {
        throw new IllegalArgumentException("CPU factors must be > 0");
      }
    }
    sessions = sessions.clone();
    factors = factors.clone();
  }

  public boolean isNone() {
    return sessions.length == 0;
  }

  /** The factor with {@code n} sessions on the cores or waiting for one (StrictMath: the same on every JVM). */
  public double factor(int n) {
    if (isNone()) return 1;
    if (n <= sessions[0]) return factors[0];
    int last = sessions.length - 1;
    if (n >= sessions[last]) return factors[last];
    int k = 1;
    while (sessions[k] < n) k++;
    double x0 = StrictMath.log(sessions[k - 1]);
    double x1 = StrictMath.log(sessions[k]);
    double t = (StrictMath.log(n) - x0) / (x1 - x0);
    return factors[k - 1] + t * (factors[k] - factors[k - 1]);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CpuContention c && Arrays.equals(sessions, c.sessions) && Arrays.equals(factors, c.factors);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(sessions) + Arrays.hashCode(factors);
  }

  @Override
  public String toString() {
    return "CpuContention" + Arrays.toString(sessions) + Arrays.toString(factors);
  }
}
