package io.tlogsim.kinds.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.ScenarioRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CPU of waiting (docs/commit-path-host-costs.md 4.2, 4.3, 4.6), on pg-commit: each figure expected here is
 * computed by hand from the costs and the run's own counts of commits and flushes, never copied from a run.
 */
class HostCostsTest {
  static final double C = 56.4; // cpuPerTxnUs
  static final double WAKE = 12.6, SLEEP = 23.9, SAME_WAKE = 2.0, SAME_SLEEP = 0.8, IDLE = 7.6, WRITE = 20, FLUSH = 85;

  private static Map<String, Object> run(int cores, int clients, boolean host) {
    List<String> kv = new ArrayList<>(List.of("simulatedSeconds", "1", "fsyncUs", "300", "cpuPerTxnUs", "" + C,
        "roundTripUs", "10", "cores", "" + cores, "clients", "" + clients));
    if (host) {
      kv.addAll(List.of("hostWakeCpuUs", "" + WAKE, "hostSleepCpuUs", "" + SLEEP, "hostSameCoreWakeCpuUs",
          "" + SAME_WAKE, "hostSameCoreSleepCpuUs", "" + SAME_SLEEP, "hostIdleWakeUs", "" + IDLE, "hostWriteCpuUs",
          "" + WRITE, "hostFlushCpuUs", "" + FLUSH));
    }
    return ScenarioRuns.run(ScenarioRuns.scenario("pg-commit", kv.toArray(new String[0])), 7, 2);
  }

  /**
   * One core, 64 clients: the core is saturated and every wake is a same-core wake. Per flush of k commits the core
   * runs k transactions (c each), wakes k - 1 sleepers (the flusher woke on its own I/O) at w + s each, and the
   * flush's write (per 8 kB page) and fdatasync: TPS = 10^6 / (c + (w + s)(1 - 1/k) + (write x pages + flush) / k).
   */
  @Test
  void oneSaturatedCoreRunsAsFewCommitsAsTheWaitingSessionsCpuSays() {
    Map<String, Object> on = run(1, 64, true);
    double commits = ScenarioRuns.num(on, "commits.count");
    double writes = ScenarioRuns.num(on, "log.writes");
    double pages = ScenarioRuns.num(on, "log.pages");
    double k = commits / writes;
    double perCommitUs = C + (SAME_WAKE + SAME_SLEEP) * (1 - 1 / k) + (WRITE * pages / writes + FLUSH) / k;
    double expected = 1e6 / perCommitUs;
    double tps = ScenarioRuns.num(on, "commits.perSecond");
    assertEquals(1.0, ScenarioRuns.num(on, "cpu.utilization"), 0.005, "saturated: " + on.get("cpu"));
    assertEquals(expected, tps, expected * 0.02, "k = " + k + ", " + perCommitUs + " us a commit");
    // the core's busy time is exactly what was charged
    double busyUs = commits * C + (commits - writes) * (SAME_WAKE + SAME_SLEEP) + pages * WRITE + writes * FLUSH;
    assertEquals(busyUs / 1e6, ScenarioRuns.num(on, "cpu.busySeconds"), busyUs / 1e6 * 0.005 + 0.001);
    // the summary's cpu.hostCosts: a flush per log write, a wake and a sleep per commit but the flusher's own
    assertEquals(writes, ScenarioRuns.num(on, "cpu.hostCosts.flushes"), 0);
    assertEquals(commits - writes, ScenarioRuns.num(on, "cpu.hostCosts.wakes"), 0);
    assertEquals(commits - writes, ScenarioRuns.num(on, "cpu.hostCosts.sleeps"), 0);
    assertEquals(0, ScenarioRuns.num(on, "cpu.hostCosts.idleWakes"), 0, "one core: no other core to be idle");
    assertEquals((pages * WRITE + writes * FLUSH) / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.flushCpuMs"), 0.01);
    assertEquals((commits - writes) * SAME_WAKE / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.wakeCpuMs"), 0.01);
    assertEquals((commits - writes) * SAME_SLEEP / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.sleepCpuMs"), 0.01);
    Map<String, Object> none = run(1, 64, false);
    assertTrue(!((Map<?, ?>) none.get("cpu")).containsKey("hostCosts"),
        "no host costs, no cpu.hostCosts: " + none.get("cpu"));
    double off = ScenarioRuns.num(none, "commits.perSecond");
    assertEquals(1e6 / C, off, 1e6 / C * 0.02, "no host costs: the CPU limit of the transactions alone");
    assertTrue(tps < off * 0.9, tps + " against " + off);
  }

  /**
   * Two cores: the wakes cross cores (an idle core, or a sleeper that last ran on the other one) and cost more, so the
   * saturated TPS lies below the one-core-figures bound 2 x 10^6 / (c + (w' + s')(1 - 1/k) + p / k); it cannot be
   * below the bound with every wake across cores.
   */
  @Test
  void twoCoresSaturatedLieBetweenSameCoreAndCrossCoreWakes() {
    Map<String, Object> on = run(2, 64, true);
    double commits = ScenarioRuns.num(on, "commits.count");
    double writes = ScenarioRuns.num(on, "log.writes");
    double k = commits / writes;
    double p = WRITE * ScenarioRuns.num(on, "log.pages") / writes + FLUSH;
    double same = 2e6 / (C + (SAME_WAKE + SAME_SLEEP) * (1 - 1 / k) + p / k);
    double cross = 2e6 / (C + (WAKE + SLEEP) * (1 - 1 / k) + p / k);
    double tps = ScenarioRuns.num(on, "commits.perSecond");
    assertEquals(1.0, ScenarioRuns.num(on, "cpu.utilization"), 0.005, "saturated: " + on.get("cpu"));
    assertTrue(tps < same && tps > cross * 0.98, cross + " < " + tps + " < " + same);
  }

  /**
   * One client has nobody to wake and nobody to wait for a core: its flush's system calls ran within the flush
   * (pg_test_fsync's time holds them), so its TPS is the same with host costs as without.
   */
  @Test
  void oneClientIsNotSlowedByItsOwnFlushCpu() {
    for (int cores : new int[] {1, 2}) {
      assertEquals(ScenarioRuns.num(run(cores, 1, false), "commits.perSecond"),
          ScenarioRuns.num(run(cores, 1, true), "commits.perSecond"), 1e-9, cores + " cores");
    }
  }
}
