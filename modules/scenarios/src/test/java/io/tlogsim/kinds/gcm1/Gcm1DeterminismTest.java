package io.tlogsim.kinds.gcm1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.database.session.CommitStats;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Same scenario and seed: same summary and digest, whatever the threads, the repetition or a resume. */
class Gcm1DeterminismTest {

  /** The summary without the run section (wall time, speed), which is all that may differ. */
  private static Map<String, Object> model(Map<String, Object> summary) {
    Map<String, Object> m = new HashMap<>(summary);
    m.remove("run");
    return m;
  }

  @Test
  void sameSummaryAndDigestOn1_2And8Threads() {
    // ten pools, so that threads have components to run side by side
    Scenario s = Gcm1Runs.scenario("sessions", "5000", "simulatedSeconds", "0.2", "sessionsPerPool", "500");
    Map<String, Object> one = Gcm1Runs.run(s, 42, 1);
    for (int threads : new int[] {2, 8}) {
      Map<String, Object> other = Gcm1Runs.run(s, 42, threads);
      assertEquals(model(one), model(other), threads + " threads");
    }
    assertTrue(((Number) Gcm1Runs.at(one, "commits.count")).longValue() > 0);
  }

  @Test
  void twentyRepeatedRunsAgreeAndAnotherSeedDiffers() {
    Scenario s = Gcm1Runs.scenario("sessions", "1000", "simulatedSeconds", "0.05");
    Map<String, Object> first = Gcm1Runs.run(s, 7, 2);
    for (int i = 1; i < 20; i++) assertEquals(model(first), model(Gcm1Runs.run(s, 7, 2)), "repetition " + i);
    Map<String, Object> other = Gcm1Runs.run(s, 8, 2);
    assertNotEquals(first.get("digest"), other.get("digest"));
  }

  @Test
  void resumingFromACheckpointGivesTheSameDigest() throws Exception {
    Params p = Gcm1Runs.params("sessions", "3000", "simulatedSeconds", "0.1");
    long end = VirtualTime.seconds(0.1);
    List<Checkpoint> taken = new ArrayList<>();
    Gcm1Kind.Model m = Gcm1Kind.build(p);
    RunOutcome whole = Simulation.run(m.topology(), m.components(),
        RunSettings.of(end, 42, 2).withCheckpoints(CheckpointPolicy.everyWindows(100), taken::add));
    assertTrue(taken.size() >= 2, "checkpoints: " + taken.size());

    ObjectMapper cbor = new ObjectMapper(new CBORFactory());
    Checkpoint cp = cbor.readValue(cbor.writeValueAsBytes(taken.get(taken.size() / 2)), Checkpoint.class);
    Gcm1Kind.Model fresh = Gcm1Kind.build(p);
    RunOutcome resumed = Simulation.run(fresh.topology(), fresh.components(),
        RunSettings.of(end, 42, 1).resumingFrom(cp));
    assertEquals(whole.digestHex(), resumed.digestHex());
    assertEquals(whole.events(), resumed.events());
    CommitStats a = Gcm1Kind.commits(m, whole), b = Gcm1Kind.commits(fresh, resumed);
    assertEquals(a.count(), b.count());
    assertEquals(a.latencySumNanos(), b.latencySumNanos());
    assertEquals(Gcm1Kind.log(m, whole), Gcm1Kind.log(fresh, resumed));
  }

  @Test
  void resultsDoNotDependOnHowSessionsAreSplitIntoPools() {
    Map<String, Object> auto = Gcm1Runs.run(Gcm1Runs.scenario("sessions", "2000", "simulatedSeconds", "0.1"), 3, 2);
    Map<String, Object> small = Gcm1Runs.run(
        Gcm1Runs.scenario("sessions", "2000", "simulatedSeconds", "0.1", "sessionsPerPool", "77"), 3, 2);
    assertEquals(Gcm1Runs.at(auto, "commits"), Gcm1Runs.at(small, "commits"));
    assertEquals(Gcm1Runs.at(auto, "log"), Gcm1Runs.at(small, "log"));
  }
}
