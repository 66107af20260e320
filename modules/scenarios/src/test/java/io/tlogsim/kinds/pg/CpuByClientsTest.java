package io.tlogsim.kinds.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * pg-commit's CPU by clients (cpuPerTxnUsAtN, measured with synchronous_commit=off): a transaction's CPU follows the
 * sessions wanting the cores. With commits that do not wait, the model must give back what was measured: one client's
 * transaction costs the 1-client CPU, and 64 clients on one core saturate it at 10^6 / the 64-client CPU. The expected
 * figures are computed from the inputs, not copied from a run.
 */
class CpuByClientsTest {
  static final double FLAT = 40, AT1 = 20, AT64 = 80, ROUND_TRIP = 5;

  private static Map<String, Object> run(int clients, boolean sync, String... more) {
    List<String> kv = new ArrayList<>(List.of("simulatedSeconds", "1", "fsyncUs", "200", "cpuPerTxnUs", "" + FLAT,
        "roundTripUs", "" + ROUND_TRIP, "cores", "1", "clients", "" + clients, "synchronousCommit", "" + sync));
    kv.addAll(List.of(more));
    return ScenarioRuns.run(ScenarioRuns.scenario("pg-commit", kv.toArray(new String[0])), 7, 2);
  }

  private static Map<String, Object> measured(int clients, boolean sync) {
    return run(clients, sync, "cpuPerTxnUsAt1", "" + AT1, "cpuPerTxnUsAt64", "" + AT64);
  }

  @Test
  void withCommitsThatDoNotWaitTheModelGivesBackTheCpuItWasGiven() {
    // one client: round trip + its CPU at 1 client + two hops of 0.1 us (to the log manager and back: APPENDED)
    double one = ScenarioRuns.num(measured(1, false), "commits.perSecond");
    double expected = 1e6 / (ROUND_TRIP + AT1 + 0.2);
    assertEquals(expected, one, expected * 0.01, "1 client");
    // 64 clients on one core: saturated at the 64-client CPU (the 63 others are queued for the core at each start)
    double many = ScenarioRuns.num(measured(64, false), "commits.perSecond");
    assertEquals(1e6 / AT64, many, 1e6 / AT64 * 0.02, "64 clients");
    // without the curve: the flat figure at both
    assertEquals(1e6 / FLAT, ScenarioRuns.num(run(64, false), "commits.perSecond"), 1e6 / FLAT * 0.02);
  }

  @Test
  void aCurveThatIsFlatIsTheModelWithoutOneAndAWaitedCommitFollowsTheCurve() {
    Map<String, Object> none = run(16, true);
    Map<String, Object> flat = run(16, true, "cpuPerTxnUsAt1", "" + FLAT, "cpuPerTxnUsAt64", "" + FLAT);
    assertEquals(none.get("digest"), flat.get("digest"));
    assertNotEquals(none.get("digest"), measured(16, true).get("digest"));
  }

  @Test
  void aCurveNeedsTheCpuItScales() {
    BadInputException e = assertThrows(BadInputException.class, () -> ScenarioRuns.run(ScenarioRuns.scenario(
        "pg-commit", "cpuPerTxnUs", "0", "cpuPerTxnUsAt1", "20"), 7, 1));
    assertEquals(true, e.getMessage().contains("cpuPerTxnUs"), e.getMessage());
  }
}
