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
    return run(cores, clients, host, 300);
  }

  private static Map<String, Object> run(int cores, int clients, boolean host, double fsyncUs, String... more) {
    List<String> kv = new ArrayList<>(List.of("simulatedSeconds", "1", "fsyncUs", "" + fsyncUs, "cpuPerTxnUs", "" + C,
        "roundTripUs", "10", "cores", "" + cores, "clients", "" + clients));
    kv.addAll(List.of(more));
    if (host) {
      kv.addAll(List.of("hostWakeCpuUs", "" + WAKE, "hostSleepCpuUs", "" + SLEEP, "hostSameCoreWakeCpuUs",
          "" + SAME_WAKE, "hostSameCoreSleepCpuUs", "" + SAME_SLEEP, "hostIdleWakeUs", "" + IDLE, "hostWriteCpuUs",
          "" + WRITE, "hostFlushCpuUs", "" + FLUSH));
    }
    return ScenarioRuns.run(ScenarioRuns.scenario("pg-commit", kv.toArray(new String[0])), 7, 1); // one thread: as ScenarioRuns.run
  }

  /**
   * One core, 64 clients: the core is saturated and every wake is a same-core wake. WALWriteLock is the pool's
   * (docs/commit-path-host-costs.md 4.4): every commit sleeps on it once, and again for each time it was woken
   * unflushed (second sleeps), except a holder that found it free on entering (at most one per flush); each sleep costs
   * a wake (w) on the releaser's core and a resume (s); each flush its write per 8 kB page and its fdatasync. So per
   * commit the core runs c + (wakes / commits)(w + s) + (write x pages + flush x flushes) / commits, and TPS is 10^6
   * over that. (fsyncUs = 100: with 300 the lock's hand-off leaves the one core about 2% idle at 64 clients, the
   * releaser waiting for the core while the groups of commits alternate, and the formula is for a saturated core.)
   */
  @Test
  void oneSaturatedCoreRunsAsFewCommitsAsTheWaitingSessionsCpuSays() {
    Map<String, Object> on = run(1, 64, true, 100);
    double commits = ScenarioRuns.num(on, "commits.count");
    double writes = ScenarioRuns.num(on, "log.writes");
    double pages = ScenarioRuns.num(on, "log.pages");
    double flushes = ScenarioRuns.num(on, "cpu.hostCosts.flushes");
    double wakes = ScenarioRuns.num(on, "cpu.hostCosts.wakes");
    double second = ScenarioRuns.num(on, "cpu.hostCosts.secondSleeps");
    double perCommitUs = C + wakes / commits * (SAME_WAKE + SAME_SLEEP) + (WRITE * pages + FLUSH * flushes) / commits;
    double expected = 1e6 / perCommitUs;
    double tps = ScenarioRuns.num(on, "commits.perSecond");
    assertEquals(1.0, ScenarioRuns.num(on, "cpu.utilization"), 0.005, "saturated: " + on.get("cpu"));
    assertEquals(expected, tps, expected * 0.02, perCommitUs + " us a commit");
    // the core's busy time is exactly what was charged
    double busyUs = commits * C + wakes * (SAME_WAKE + SAME_SLEEP) + pages * WRITE + flushes * FLUSH;
    assertEquals(busyUs / 1e6, ScenarioRuns.num(on, "cpu.busySeconds"), busyUs / 1e6 * 0.005 + 0.001);
    // the summary's cpu.hostCosts: a flush per log write (the lock holder's), a resume per wake, and the sleeps as
    // the lock makes them: at least one per commit but one per flush, one more per second sleep
    assertEquals(writes, flushes, 0);
    assertEquals(wakes, ScenarioRuns.num(on, "cpu.hostCosts.sleeps"), 0, "every woken session resumed");
    assertTrue(wakes >= commits - flushes + second && wakes <= commits + second, on.get("cpu") + ", " + commits);
    // one core: a release's first woken session takes the lock before the others resume, and most of its group,
    // which entered XLogFlush during the same flush, sleeps again
    assertTrue(second > commits / 2, "second sleeps " + second + " of " + commits + " commits");
    assertEquals(0, ScenarioRuns.num(on, "cpu.hostCosts.idleWakes"), 0, "one core: no other core to be idle");
    assertEquals((pages * WRITE + flushes * FLUSH) / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.flushCpuMs"), 0.01);
    assertEquals(wakes * SAME_WAKE / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.wakeCpuMs"), 0.01);
    assertEquals(wakes * SAME_SLEEP / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.sleepCpuMs"), 0.01);
    Map<String, Object> none = run(1, 64, false, 100);
    assertTrue(!((Map<?, ?>) none.get("cpu")).containsKey("hostCosts"),
        "no host costs, no cpu.hostCosts: " + none.get("cpu"));
    double off = ScenarioRuns.num(none, "commits.perSecond");
    assertEquals(1e6 / C, off, 1e6 / C * 0.02, "no host costs: the CPU limit of the transactions alone");
    assertTrue(tps < off * 0.9, tps + " against " + off);
  }

  /**
   * Two cores: the wakes cross cores (an idle core, or a sleeper that last ran on the other one) and cost more, so the
   * saturated TPS lies below the bound with every wake on one core, 2 x 10^6 u / (c + (wakes / commits)(w' + s') + p),
   * p the flushes' CPU per commit, u the cores' busy share; it cannot be below the bound with every wake across cores.
   */
  @Test
  void twoCoresSaturatedLieBetweenSameCoreAndCrossCoreWakes() {
    Map<String, Object> on = run(2, 64, true);
    double commits = ScenarioRuns.num(on, "commits.count");
    double perCommit = ScenarioRuns.num(on, "cpu.hostCosts.wakes") / commits;
    double p = (WRITE * ScenarioRuns.num(on, "log.pages") + FLUSH * ScenarioRuns.num(on, "cpu.hostCosts.flushes"))
        / commits;
    // saturated: the cores are busy but for the moments a core, taken by a wake-up on its way, runs nothing yet
    double u = ScenarioRuns.num(on, "cpu.utilization");
    assertTrue(u > 0.98 && u <= 1.0, "saturated: " + on.get("cpu"));
    double same = 2e6 * u / (C + perCommit * (SAME_WAKE + SAME_SLEEP) + p);
    double cross = 2e6 * u / (C + perCommit * (WAKE + SLEEP) + p);
    double tps = ScenarioRuns.num(on, "commits.perSecond");
    assertTrue(tps < same && tps > cross * 0.98, cross + " < " + tps + " < " + same);
  }

  /**
   * Busy-core figures (calibrate-host's wake onto a core that runs something): on two saturated cores some wakes queue
   * their sleeper on the other, busy core, and those cost the busy figures: more CPU a wake, fewer commits.
   */
  @Test
  void wakesOntoABusyCoreCostTheBusyCoreFiguresWhereTheProfileHasThem() {
    Map<String, Object> plain = run(2, 64, true);
    Map<String, Object> busy = run(2, 64, true, 300, "hostBusyCoreWakeCpuUs", "" + 3 * WAKE,
        "hostBusyCoreSleepCpuUs", "" + 3 * SLEEP);
    double perWakePlain = perWake(plain);
    double perWakeBusy = perWake(busy);
    assertTrue(perWakeBusy > perWakePlain * 1.05, perWakeBusy + " ms a wake against " + perWakePlain);
    assertTrue(perWakeBusy <= 3 * WAKE / 1e3, "no wake costs more than the busy-core call: " + perWakeBusy);
    assertTrue(ScenarioRuns.num(busy, "commits.perSecond") < ScenarioRuns.num(plain, "commits.perSecond"),
        busy.get("commits") + " against " + plain.get("commits"));
  }

  /**
   * The engine's own sleep (sessionSleepCpuUs, measured in PostgreSQL: commit-path-host-costs.md 4.7) stands for
   * every sleep figure of the profile: on one saturated core every resume costs it instead of the same-core figure,
   * the wake calls are the profile's, and TPS is 10^6 over the CPU per commit that charge makes.
   */
  @Test
  void theEngineMeasuredSleepReplacesTheProfilesSleepFigures() {
    double engine = 40;
    Map<String, Object> on = run(1, 64, true, 100, "sessionSleepCpuUs", "" + engine);
    double commits = ScenarioRuns.num(on, "commits.count");
    double sleeps = ScenarioRuns.num(on, "cpu.hostCosts.sleeps");
    double wakes = ScenarioRuns.num(on, "cpu.hostCosts.wakes");
    assertEquals(sleeps * engine / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.sleepCpuMs"), 0.01);
    assertEquals(wakes * SAME_WAKE / 1e3, ScenarioRuns.num(on, "cpu.hostCosts.wakeCpuMs"), 0.01);
    double flushCpuUs =
        WRITE * ScenarioRuns.num(on, "log.pages") + FLUSH * ScenarioRuns.num(on, "cpu.hostCosts.flushes");
    double perCommitUs = C + (wakes * SAME_WAKE + sleeps * engine + flushCpuUs) / commits;
    assertEquals(1e6 / perCommitUs, ScenarioRuns.num(on, "commits.perSecond"), 1e6 / perCommitUs * 0.02);
    assertTrue(
        ScenarioRuns.num(on, "commits.perSecond") < ScenarioRuns.num(run(1, 64, true, 100), "commits.perSecond"));
    // without a host profile it is still charged: a wait costs what the engine measured, nothing else
    Map<String, Object> alone = run(1, 64, false, 100, "sessionSleepCpuUs", "" + engine);
    assertEquals(ScenarioRuns.num(alone, "cpu.hostCosts.sleeps") * engine / 1e3,
        ScenarioRuns.num(alone, "cpu.hostCosts.sleepCpuMs"), 0.01);
    assertEquals(0, ScenarioRuns.num(alone, "cpu.hostCosts.wakeCpuMs"), 0);
  }

  /** Wake-call CPU a wake, ms. */
  private static double perWake(Map<String, Object> summary) {
    return ScenarioRuns.num(summary, "cpu.hostCosts.wakeCpuMs") / ScenarioRuns.num(summary, "cpu.hostCosts.wakes");
  }

  /**
   * commit_delay with the lock in the pool: 16 clients leave the holder at most 15 others in a transaction, so
   * commit_siblings = 16 never lets it sleep (the run is the run without commit_delay) while 5 makes
   * some holders sleep (at most one sleep per flush), which joins more commits to each flush.
   */
  @Test
  void commitDelayOnlyWhenEnoughOtherSessionsAreInATransaction() {
    Map<String, Object> plain = run(2, 16, true, 300);
    Map<String, Object> tooFew = run(2, 16, true, 300, "commitDelayUs", "100", "commitSiblings", "16");
    Map<String, Object> enough = run(2, 16, true, 300, "commitDelayUs", "100", "commitSiblings", "5");
    assertEquals(0, ScenarioRuns.num(tooFew, "cpu.hostCosts.commitDelays"), 0);
    for (String k : List.of("commits.count", "commits.latencyUs.mean", "log.writes", "cpu.busySeconds")) {
      assertEquals(ScenarioRuns.num(plain, k), ScenarioRuns.num(tooFew, k), 0, k);
    }
    double delays = ScenarioRuns.num(enough, "cpu.hostCosts.commitDelays");
    double flushes = ScenarioRuns.num(enough, "cpu.hostCosts.flushes");
    assertTrue(delays > 0 && delays <= flushes, delays + " commit_delay sleeps, " + flushes + " flushes");
    assertTrue(ScenarioRuns.num(enough, "commits.count") / ScenarioRuns.num(enough, "log.writes")
        > ScenarioRuns.num(plain, "commits.count") / ScenarioRuns.num(plain, "log.writes"), "more commits per flush");
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
