package io.tlogsim.kinds.gcm1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GCM-1 against the reference results of BENCH.md: within 1% of the commits and 2% of the mean latency. */
class Gcm1ReferenceTest {

  @ParameterizedTest(name = "N={0}")
  @CsvSource({
      // N, commits in 2 s (the two reference implementations), mean commit latency us (both)
      "1000, 1347453, 1348028, 483.2, 483.6",
      "100000, 1507678, 1507678, 127260, 127261"})
  void matchesTheReferenceResults(int sessions, long commitsA, long commitsB, double latencyA, double latencyB) {
    Map<String, Object> s = Gcm1Runs.run(Gcm1Runs.scenario("sessions", String.valueOf(sessions)), 42, 2);
    long commits = ((Number) Gcm1Runs.at(s, "commits.count")).longValue();
    double latency = ((Number) Gcm1Runs.at(s, "commits.latencyUs.mean")).doubleValue();
    double refCommits = (commitsA + commitsB) / 2.0, refLatency = (latencyA + latencyB) / 2;
    assertTrue(Math.abs(commits - refCommits) <= 0.01 * refCommits, "commits " + commits + " vs " + refCommits);
    assertTrue(Math.abs(latency - refLatency) <= 0.02 * refLatency, "latency " + latency + " vs " + refLatency);
    assertEquals(2.0, ((Number) Gcm1Runs.at(s, "simulatedSeconds")).doubleValue());
  }
}
