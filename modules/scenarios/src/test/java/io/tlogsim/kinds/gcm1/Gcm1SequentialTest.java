package io.tlogsim.kinds.gcm1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.database.session.SessionPool;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.Params;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pins small GCM-1 runs of the actor kernel against a plain sequential event loop of the same model (one heap,
 * no actors, the same per-session generators), which must agree to the commit and to the nanosecond.
 */
class Gcm1SequentialTest {

  /** The same model as BENCH.md's PlainLoop, with GCM-1's session generators and its 1 ns device link. */
  static long[] sequential(Params p, long seed) {
    int n = p.getInt("sessions");
    long end = VirtualTime.seconds(p.getDouble("simulatedSeconds"));
    double think = p.getDouble("thinkMeanUs") * 1e3;
    long hop = VirtualTime.micros(p.getDouble("hopUs"));
    int rec = p.getInt("recordBytes"), maxWrite = p.getInt("maxWriteBytes"), block = p.getInt("blockBytes");
    long base = VirtualTime.micros(p.getDouble("deviceLatencyUs"));
    double bytesPerNs = p.getDouble("deviceMBps") * 1e6 / 1e9;
    long link = p.getInt("deviceLinkNs");
    final int ARRIVE = 0, DONE = 1, ACK = 2;
    PriorityQueue<long[]> pq = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0])
        : x[1] != y[1] ? Long.compare(x[1], y[1]) : Long.compare(x[3], y[3]));
    long seq = 0;
    long space = Rng.seedFor(seed, SessionPool.SESSION_SEED_SPACE);
    long[] rng = new long[n], start = new long[n];
    for (int i = 0; i < n; i++) {
      rng[i] = Rng.seedFor(space, i);
      start[i] = Rng.nextExponential(rng, i, think);
      if (start[i] <= end) pq.add(new long[] {start[i] + hop, ARRIVE, i, seq++});
    }
    ArrayDeque<Integer> buffer = new ArrayDeque<>();
    int[] writing = new int[0];
    boolean busy = false;
    long commits = 0, latSum = 0, writes = 0;
    while (!pq.isEmpty() && pq.peek()[0] <= end) {
      long[] e = pq.poll();
      long t = e[0];
      int s = (int) e[2];
      if (e[1] == ARRIVE) {
        buffer.add(s);
      } else if (e[1] == DONE) {
        busy = false;
        for (int x : writing) pq.add(new long[] {t + hop, ACK, x, seq++});
      } else {
        commits++;
        latSum += t - start[s];
        start[s] = t + Rng.nextExponential(rng, s, think);
        if (start[s] <= end) pq.add(new long[] {start[s] + hop, ARRIVE, s, seq++});
      }
      if (!busy && !buffer.isEmpty()) {
        int take = 0;
        long bytes = 0;
        int[] w = new int[buffer.size()];
        while (!buffer.isEmpty() && (take == 0 || bytes + rec <= maxWrite)) {
          w[take++] = buffer.poll();
          bytes += rec;
        }
        writing = java.util.Arrays.copyOf(w, take);
        long padded = (bytes + block - 1) / block * block;
        busy = true;
        writes++;
        pq.add(new long[] {t + link + base + (long) (padded / bytesPerNs), DONE, -1, seq++});
      }
    }
    return new long[] {commits, latSum, writes};
  }

  @ParameterizedTest(name = "N={0}, {1} s, pools of {2}")
  @CsvSource({"1, 0.05, 0", "64, 0.3, 0", "700, 0.1, 0", "3000, 0.1, 0", "3000, 0.1, 333"})
  void actorKernelAgreesWithASequentialLoop(int sessions, double seconds, int perPool) {
    Params p = Gcm1Runs.params("sessions", String.valueOf(sessions), "simulatedSeconds", String.valueOf(seconds),
        "sessionsPerPool", String.valueOf(perPool));
    long[] ref = sequential(p, 42);
    Gcm1Kind.Model m = Gcm1Kind.build(p);
    RunOutcome out = Simulation.run(m.topology(), m.components(),
        RunSettings.of(VirtualTime.seconds(seconds), 42, 2));
    CommitStats c = Gcm1Kind.commits(m, out);
    LogStats log = Gcm1Kind.log(m, out);
    assertTrue(ref[0] > 0);
    assertEquals(ref[0], c.count(), "commits");
    assertEquals(ref[1], c.latencySumNanos(), "sum of commit latencies, ns");
    assertEquals(ref[2], log.writes(), "log writes");
  }
}
