package io.tlogsim.kinds.logspace;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The durability invariant on SQL Server's database (issue 20), with log backups between the statements and a power
 * loss at a random point, over {@link #SEEDS} seeds: no commit acknowledged as durable is lost (a commit that waits
 * is hardened), the commits lost are exactly those acknowledged early and not hardened, and recovery, which rebuilds
 * what to roll back from the log space's transaction table, rolls back exactly the transactions the crash ledger
 * (kept apart) says have records but no commit in the hardened log, and rolls forward the commits after the last
 * checkpoint.
 */
class CrashesWithBackupsTest {
  static final int SEEDS = Integer.getInteger("tlogsim.durabilitySeeds", 150);

  static Scenario scenario(String durability) {
    String loop = "step = insert, commitEvery = 3, thinkUs = 50, think = exponential";
    return ScenarioRuns.scenario("log-space", "simulatedSeconds", "0.2", "sessions", "4", "cores", "2",
        "logDevice", "ssd", "backupDevice", "ssd", "logSizeMB", "1", "logGrowthMB", "1", "tableRows", "10000",
        "delayedDurability", durability, "crashRandomSeconds", "0.03", "script",
        "[{ " + loop + ", rows = 60 }, { step = backup-log }, { " + loop + ", rows = 60 }, { step = backup-log },"
            + " { " + loop + ", seconds = 1 }]");
  }

  @ParameterizedTest(name = "delayed durability {0}")
  @ValueSource(strings = {"DISABLED", "FORCED"})
  void noDurableCommitIsLostAndRecoveryRollsBackExactlyWhatHadNoHardenedCommit(String durability) {
    boolean allWait = durability.equals("DISABLED");
    Scenario scenario = scenario(durability);
    long lostTotal = 0, rolledBack = 0, backups = 0, recovered = 0;
    try (SimulationHost host = SimulationHost.start("tlogsim-host", com.typesafe.config.ConfigFactory.empty())) {
      for (long seed = 1; seed <= SEEDS; seed++) {
        String at = durability + ", seed " + seed;
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
        long lost = 0;
        for (int s = 0; s < acked.length; s++) {
          if (allWait && acked[s] > hardened[s]) {
            fail(at + ": session " + s + " was told " + acked[s] + " commits were durable; the log holds "
                + hardened[s]);
          }
          lost += Math.max(0, acked[s] - hardened[s]);
        }
        long exposed = crash.exposedLazy(); // acknowledged (APPENDED received), not hardened
        assertEquals(exposed, lost, at + ": the commits lost are those acknowledged and not hardened");
        assertEquals(lost, ((Number) ScenarioRuns.at(summary, "commits.lost")).longValue());
        assertEquals(Boolean.TRUE, ScenarioRuns.at(summary, "recovery.finished"), at + ": recovered");
        assertEquals(crash.rolledBack(), ((Number) ScenarioRuns.at(summary, "recovery.rolledBack")).longValue(),
            at + ": the transactions recovery rolls back are those with records and no commit in the hardened log");
        assertEquals(crash.rolledForward(), ((Number) ScenarioRuns.at(summary, "recovery.rolledForward")).longValue(),
            at + ": rolled forward");
        Object b = summary.get("backups");
        if (b instanceof List<?> l) backups += l.size();
        lostTotal += lost;
        rolledBack += crash.rolledBack();
        recovered++;
      }
    }
    System.out.printf("delayed durability %s: %d seeds, %d recovered, %d log backups before the crash, %d commits"
        + " lost, %d transactions rolled back%n", durability, SEEDS, recovered, backups, lostTotal, rolledBack);
    assertTrue(backups > SEEDS / 2, "crashes after log backups are exercised");
    assertTrue(rolledBack > 0, "crashes that leave transactions to roll back are exercised");
    if (!allWait) assertTrue(lostTotal > 0, "crashes that lose early acknowledgements are exercised");
  }
}
