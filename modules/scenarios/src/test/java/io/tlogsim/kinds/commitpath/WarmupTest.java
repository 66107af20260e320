package io.tlogsim.kinds.commitpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** warmupSeconds: commits acknowledged before it are left out of the statistics; rates are over the rest. */
class WarmupTest {
  @SuppressWarnings("unchecked")
  private static Map<String, Object> commits(String warmup) {
    Scenario s = ScenarioKinds.loader().load("oltp-commits", Map.of("sessions", "50", "simulatedSeconds", "1",
        "warmupSeconds", warmup));
    return (Map<String, Object>) s.run(new RunControl(s.seed(), 1, null)).summary().get("commits");
  }

  @Test
  void commitsInTheWarmupAreNotCountedAndTheRateIsOverTheTimeAfterIt() {
    Map<String, Object> all = commits("0");
    Map<String, Object> late = commits("0.5");
    long n = ((Number) all.get("count")).longValue();
    long m = ((Number) late.get("count")).longValue();
    // the same run (same seed): the warm-up only changes what is counted; a steady load commits about half after 0.5 s
    assertTrue(m < n && m > 0.45 * n && m < 0.55 * n, n + " then " + m);
    assertEquals(m / 0.5, ((Number) late.get("perSecond")).doubleValue(), 0.01);
    assertEquals(0.5, ((Number) late.get("warmupSeconds")).doubleValue());
    assertEquals(n / 1.0, ((Number) all.get("perSecond")).doubleValue(), 0.01);
  }

  @Test
  void aWarmupAsLongAsTheRunIsRefused() {
    BadInputException e = assertThrows(BadInputException.class, () -> ScenarioKinds.loader().load("oltp-commits",
        Map.of("simulatedSeconds", "1", "warmupSeconds", "1")));
    assertTrue(e.getMessage().contains("warmupSeconds"), e.getMessage());
  }
}
