package io.tlogsim.kinds.commitpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tlogsim.database.log.LogCrash;
import io.tlogsim.database.log.LogStats;
import io.tlogsim.database.session.PoolStats;
import io.tlogsim.kernel.SimulationHost;
import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The durability invariant (issue 9), over {@link #SEEDS} seeds with a power loss at a random point, under every flush
 * policy and each of its settings that changes who waits:
 *
 * <ul>
 *   <li>no commit acknowledged as durable is ever lost: for every session, the hardened log holds at least the commits
 *       it was told were durable;
 *   <li>under a policy that acknowledges before hardening, the commits lost are exactly those acknowledged after the
 *       last hardened block: the log manager's own count of acknowledged commits not hardened (kept for LogHardened
 *       facts, apart from the crash ledger), plus those still waiting for a log buffer, plus those the sessions had
 *       acknowledged whose requests were still on their way;
 *   <li>recovery rolls them back: the hardened log holds none of them (each session's hardened commits are a prefix
 *       of what it was told), and a transaction with records there but no hardened commit is rolled back.
 * </ul>
 */
class DurabilityInvariantTest {
  static final int SEEDS = Integer.getInteger("tlogsim.durabilitySeeds", 1_000);

  /** Whether every commit waits for its log (a durable acknowledgement) under the setting. */
  record Setting(String name, boolean allWait, String... keyValues) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> settings() {
    return Stream.of(
        new Setting("per-commit", true, "flushPolicy", "per-commit"),
        new Setting("group-commit", true, "flushPolicy", "group-commit", "groupCommitDelayUs", "200"),
        new Setting("buffered", false, "flushPolicy", "buffered"),
        new Setting("delayed-durability FORCED", false, "flushPolicy", "delayed-durability", "delayedDurability",
            "FORCED"),
        new Setting("postgresql synchronous_commit on", true, "flushPolicy", "postgresql", "synchronousCommit",
            "true", "commitDelayUs", "100"),
        new Setting("postgresql synchronous_commit off", false, "flushPolicy", "postgresql", "synchronousCommit",
            "false", "walWriterDelayMs", "5"),
        new Setting("mysql 1", true, "flushPolicy", "mysql", "innodbFlushLogAtTrxCommit", "1"),
        new Setting("mysql 0", false, "flushPolicy", "mysql", "innodbFlushLogAtTrxCommit", "0"),
        new Setting("mysql 2", false, "flushPolicy", "mysql", "innodbFlushLogAtTrxCommit", "2"),
        new Setting("db2 mincommit 4", true, "flushPolicy", "db2", "db2Mincommit", "4"),
        new Setting("oracle IMMEDIATE WAIT", true, "flushPolicy", "oracle"),
        new Setting("oracle BATCH NOWAIT", false, "flushPolicy", "oracle", "oracleCommitLogging", "BATCH",
            "oracleCommitWait", "NOWAIT", "oracleBatchDelayUs", "3000"))
        .map(Arguments::of);
  }

  /** A small OLTP load: sessions inserting a few rows per transaction, on an SSD log, for 20 simulated ms. */
  static Scenario scenario(Setting s) {
    List<String> kv = new ArrayList<>(List.of("simulatedSeconds", "0.02", "sessions", "6", "cores", "2",
        "script", "[{ step = insert, seconds = 1, commitEvery = 3, thinkUs = 50, think = exponential }]",
        "logBuffers", "4", "crashRandomSeconds", "0.02"));
    kv.addAll(List.of(s.keyValues()));
    return ScenarioRuns.scenario("commit-path", kv.toArray(new String[0]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("settings")
  void noDurableCommitIsLostAndTheLostAreExactlyTheExposed(Setting setting) {
    Scenario scenario = scenario(setting);
    long lostTotal = 0, rolledBack = 0, runsLosing = 0;
    try (SimulationHost host = SimulationHost.start("tlogsim-host", com.typesafe.config.ConfigFactory.empty())) {
      for (long seed = 1; seed <= SEEDS; seed++) {
        String at = setting + ", seed " + seed;
        RunControl control = new RunControl(seed, 1, null);
        var prepared = scenario.prepare(control);
        var outcome = host.run(prepared.topology(), prepared.models(), control.settings(scenario.endTimeNanos()));
        Map<String, Object> summary = prepared.result(outcome).summary();
        LogStats log = (LogStats) outcome.results().stream().filter(r -> r instanceof LogStats).findFirst()
            .orElseThrow();
        List<PoolStats> pools = new ArrayList<>();
        for (Object r : outcome.results()) if (r instanceof PoolStats ps) pools.add(ps);
        PoolStats sessions = PoolStats.merge(pools);
        LogCrash crash = log.crash();
        if (crash == null) fail(at + ": no crash");
        long[] acked = sessions.acknowledgedAtCrash();
        long[] hardened = crash.hardenedCommits();
        long lost = 0, hardenedTotal = 0;
        for (int s = 0; s < acked.length; s++) {
          if (setting.allWait() && acked[s] > hardened[s]) {
            fail(at + ": session " + s + " was told " + acked[s] + " commits were durable; the hardened log holds "
                + hardened[s]);
          }
          lost += Math.max(0, acked[s] - hardened[s]);
          hardenedTotal += hardened[s];
        }
        // the lost are the log manager's exposed commits: appended, not hardened, their APPENDED received (a commit
        // waiting for a buffer or on its way to the log manager was never acknowledged)
        long exposed = crash.exposedLazy();
        assertEquals(exposed, lost, at + ": lost commits are those acknowledged and not hardened");
        // appended and not yet told, counted apart: at most one per session (a session waits for its APPENDED); of
        // those, the unhardened are the crash's lazyOnTheirWay
        long notTold = log.lazyCommits() - sessions.lazyCommits();
        assertTrue(notTold >= crash.lazyOnTheirWay() && notTold <= acked.length,
            at + ": " + notTold + " appended and not told, " + crash.lazyOnTheirWay() + " of them not hardened");
        assertEquals(lost, ((Number) ScenarioRuns.at(summary, "commits.lost")).longValue(), "summary's commits.lost");
        if (setting.allWait()) assertEquals(0, exposed, at + ": nothing acknowledged early");
        // no checkpoint in this load: recovery redoes every hardened commit
        assertEquals(hardenedTotal, crash.rolledForward(), at + ": rolled forward");
        lostTotal += lost;
        rolledBack += crash.rolledBack();
        if (lost > 0) runsLosing++;
      }
    }
    System.out.printf("%s: %d seeds, %d commits lost in %d runs, %d transactions rolled back%n", setting, SEEDS,
        lostTotal, runsLosing, rolledBack);
    if (!setting.allWait()) assertTrue(runsLosing > SEEDS / 10, setting + ": crashes that lose commits are exercised");
    assertTrue(rolledBack > 0, setting + ": crashes that leave transactions to roll back are exercised");
  }

  /** A flush policy registered ({@link FlushPolicies}) without a setting here would escape the invariant. */
  @org.junit.jupiter.api.Test
  void everyRegisteredPolicyIsAmongTheSettings() {
    java.util.Set<String> covered = new java.util.TreeSet<>();
    settings().forEach(a -> {
      String[] kv = ((Setting) a.get()[0]).keyValues();
      for (int i = 0; i < kv.length; i += 2) if (kv[i].equals("flushPolicy")) covered.add(kv[i + 1]);
    });
    assertEquals(new java.util.TreeSet<>(FlushPolicies.NAMES), covered, "every registered flush policy is tried");
  }

  /**
   * Recovery redoes from the last completed checkpoint's record: one session commits 100 transactions, checkpoints,
   * commits more and loses power; every commit waits, so all the session was told of is hardened and exactly those
   * after the checkpoint are rolled forward.
   */
  @org.junit.jupiter.api.Test
  void recoveryRollsForwardTheCommitsAfterTheLastCheckpoint() {
    Scenario s = ScenarioRuns.scenario("commit-path", "simulatedSeconds", "1", "sessions", "1", "tableRows", "10000",
        "checkpointIntervalS", "0", "crashAtSeconds", "0.5", "script",
        "[{ step = insert, rows = 300, commitEvery = 3 }, { step = checkpoint },"
            + " { step = insert, seconds = 1, commitEvery = 3, thinkUs = 100 }]");
    Map<String, Object> summary = ScenarioRuns.run(s, 42, 1);
    double committed = ScenarioRuns.num(summary, "commits.count");
    assertTrue(committed > 200, "commits after the checkpoint: " + summary.get("commits"));
    assertEquals(0.0, ScenarioRuns.num(summary, "commits.lost"));
    assertEquals(1.0, ScenarioRuns.num(summary, "log.checkpoints"));
    // the session was told of every commit before its last one at most: the hardened log holds them all
    double forward = ScenarioRuns.num(summary, "recovery.rolledForward");
    assertTrue(forward >= committed - 100 && forward <= committed - 100 + 1,
        forward + " rolled forward, " + committed + " commits of which 100 before the checkpoint");
  }
}
