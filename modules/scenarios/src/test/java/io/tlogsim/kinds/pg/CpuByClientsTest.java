package io.tlogsim.kinds.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.kinds.ScenarioRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * pg-commit's CPU per transaction with cpuPerTxnUsOneClient measured (docs/commit-path-host-costs.md 7): the model
 * gives back the synchronous_commit=off figures its inputs were measured from, at one client and at 64; between them
 * the CPU follows log2 of the clients. Each expected figure is computed by hand from the inputs.
 */
class CpuByClientsTest {
  static final double SATURATED = 150, ONE = 60, ROUND_TRIP = 40; // us

  private static Map<String, Object> run(int clients, int cores, double one) {
    List<String> kv = new ArrayList<>(List.of("simulatedSeconds", "1", "fsyncUs", "300", "cpuPerTxnUs", "" + SATURATED,
        "cpuPerTxnUsOneClient", "" + one, "roundTripUs", "" + ROUND_TRIP, "cores", "" + cores, "clients",
        "" + clients, "synchronousCommit", "false"));
    return ScenarioRuns.run(ScenarioRuns.scenario("pg-commit", kv.toArray(new String[0])), 7, 1); // one thread: as ScenarioRuns.run
  }

  @Test
  void oneClientGetsBackTheTpsItsRoundTripWasMeasuredFrom() {
    // roundTripUs = 10^6 / TPS(1 client, off) - that run's CPU per transaction: the model's one client must run a
    // transaction in roundTripUs + cpuPerTxnUsOneClient again
    double tps = ScenarioRuns.num(run(1, 2, ONE), "commits.perSecond");
    assertEquals(1e6 / (ROUND_TRIP + ONE), tps, 1e6 / (ROUND_TRIP + ONE) * 0.01);
    // without it, that client carries the saturation's CPU (the single-figure recipe's miss)
    double single = ScenarioRuns.num(run(1, 2, 0), "commits.perSecond");
    assertEquals(1e6 / (ROUND_TRIP + SATURATED), single, 1e6 / (ROUND_TRIP + SATURATED) * 0.01);
  }

  @Test
  void saturationKeepsCpuPerTxnUsAndEightClientsOnOneCoreRunAtTheInterpolatedCpu() {
    // 64 clients on one core: the core's limit, cores x 10^6 / cpuPerTxnUs, whatever one client's figure
    double sat = ScenarioRuns.num(run(64, 1, ONE), "commits.perSecond");
    assertEquals(1e6 / SATURATED, sat, 1e6 / SATURATED * 0.02);
    // 8 clients on one core saturate it too: CPU = ONE + (SATURATED - ONE) x log2(8) / log2(64) = 105 us
    double cpu8 = ONE + (SATURATED - ONE) * 3 / 6.0;
    double eight = ScenarioRuns.num(run(8, 1, ONE), "commits.perSecond");
    assertEquals(1e6 / cpu8, eight, 1e6 / cpu8 * 0.02);
    assertEquals(cpu8, PgCommitKind.cpuPerTxnUs(ScenarioRuns.scenario("pg-commit", "cpuPerTxnUs", "" + SATURATED,
        "cpuPerTxnUsOneClient", "" + ONE).params(), 8), 1e-9);
  }

  @Test
  void cpuPerTxnUsMeasuredAtFewerClientsMovesTheLine() {
    // calibrate-postgres --clients 1,16: cpuPerTxnUs is the 16-client figure, reached at 16 clients, not at 64
    var p = ScenarioRuns.scenario("pg-commit", "cpuPerTxnUs", "" + SATURATED, "cpuPerTxnUsOneClient", "" + ONE,
        "cpuPerTxnUsClients", "16").params();
    assertEquals(ONE + (SATURATED - ONE) * 3 / 4.0, PgCommitKind.cpuPerTxnUs(p, 8), 1e-9);
    assertEquals(SATURATED, PgCommitKind.cpuPerTxnUs(p, 16), 1e-9);
    assertEquals(SATURATED, PgCommitKind.cpuPerTxnUs(p, 64), 1e-9);
    assertEquals(ONE, PgCommitKind.cpuPerTxnUs(p, 1), 1e-9);
  }
}
