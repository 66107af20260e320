package io.tlogsim.kinds.commitpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.Scenario;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A busy commit path (sessions sharing cores, a data file with its lazy writer and checkpoints, log buffers that run
 * out, a policy with timers) gives the same summary and digest on 1, 2 and 8 threads, and resumes from every
 * checkpoint, through CBOR as the journal stores it, to the uninterrupted digest.
 */
class CommitPathDeterminismTest {
  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());

  private static Scenario busy(String policy, String... more) {
    List<String> kv = new ArrayList<>(List.of("sessions", "12", "cores", "2", "tableRows", "20000",
        "rowsPerPage", "20", "lazyWriterIntervalMs", "2", "lazyWriterThresholdPages", "50", "checkpointIntervalS",
        "0.01", "logBuffers", "3", "logBlockBytes", "4096", "logDevice", "simple", "simpleLatencyUs", "300", "flushPolicy", policy,
        "groupCommitDelayUs", "200", "groupCommitCount", "4", "commitDelayUs", "50", "commitSiblings", "2",
        "maxOutstandingWrites", "2", "script", "[{step = insert, rows = 200, commitEvery = 3}, {step = checkpoint},"
            + " {step = delayed-durability, on = true}, {step = update, seconds = 0.01, access = random},"
            + " {step = flush-log}, {step = large-update, rows = 500, rollback = true}]"));
    kv.addAll(List.of(more));
    return ScenarioRuns.scenario("commit-path", kv.toArray(new String[0]));
  }

  private static Map<String, Object> model(Map<String, Object> summary) {
    Map<String, Object> m = new HashMap<>(summary);
    m.remove("run");
    return m;
  }

  @ParameterizedTest
  @ValueSource(strings = {"group-commit", "postgresql", "delayed-durability", "buffered"})
  void sameSummaryOnAnyThreadsAndEveryCheckpointResumesToTheDigest(String policy) throws Exception {
    deterministicAndResumes(policy, busy(policy));
  }

  /** The same with the host's costs of waiting charged on the cores (wakes across cores and on one, idle wakes). */
  @ParameterizedTest
  @ValueSource(strings = {"group-commit", "postgresql", "delayed-durability", "per-commit"})
  void withHostCostsTooSameSummaryOnAnyThreadsAndEveryCheckpointResumes(String policy) throws Exception {
    Scenario s = busy(policy, HOST);
    Map<String, Object> plain = ScenarioRuns.run(busy(policy), 7, 2);
    Map<String, Object> charged = deterministicAndResumes(policy + " with host costs", s);
    assertTrue(ScenarioRuns.num(charged, "cpu.busySeconds") > ScenarioRuns.num(plain, "cpu.busySeconds"),
        "host costs are CPU: " + charged.get("cpu") + " against " + plain.get("cpu"));
  }

  static final String[] HOST = {"hostWakeCpuUs", "12", "hostSleepCpuUs", "20", "hostSameCoreWakeCpuUs", "2",
      "hostSameCoreSleepCpuUs", "1", "hostIdleWakeUs", "8", "hostWriteCpuUs", "15", "hostFlushCpuUs", "60"};

  private Map<String, Object> deterministicAndResumes(String policy, Scenario s) throws Exception {
    Map<String, Object> one = ScenarioRuns.run(s, 7, 1);
    for (int threads : new int[] {2, 8}) assertEquals(model(one), model(ScenarioRuns.run(s, 7, threads)));
    assertTrue(ScenarioRuns.num(one, "commits.count") > 100, "commits " + one.get("commits"));
    assertNotEquals(one.get("digest"), ScenarioRuns.run(s, 8, 2).get("digest"), "another seed, another run");

    Params p = s.params();
    long end = s.endTimeNanos();
    List<Checkpoint> taken = new ArrayList<>();
    CommitPathModel.Model m = CommitPathModel.build(CommitPathKind.spec(p));
    RunOutcome whole = Simulation.run(m.topology(), m.components(),
        RunSettings.of(end, 7, 8).withCheckpoints(CheckpointPolicy.everyWindows(500), taken::add));
    assertTrue(taken.size() >= 5, "checkpoints " + taken.size());
    int step = Math.max(1, taken.size() / 12); // a dozen of them, spread over the run
    for (int k = 0; k < taken.size(); k += step) {
      Checkpoint cp = taken.get(k);
      assertEquals(List.of(), cp.inconsistencies(m.topology()), "window " + cp.window());
      Checkpoint stored = CBOR.readValue(CBOR.writeValueAsBytes(cp), Checkpoint.class);
      CommitPathModel.Model fresh = CommitPathModel.build(CommitPathKind.spec(p));
      RunOutcome resumed = Simulation.run(fresh.topology(), fresh.components(),
          RunSettings.of(end, 7, 2).resumingFrom(stored));
      assertEquals(whole.digestHex(), resumed.digestHex(), policy + ", window " + cp.window());
      assertEquals(CommitPathModel.log(m, whole), CommitPathModel.log(fresh, resumed));
      assertEquals(CommitPathModel.sessions(m, whole).phases(), CommitPathModel.sessions(fresh, resumed).phases());
    }
    System.out.printf("commit path, %s: %d of %d checkpoints resumed to digest %s, %s simulated s%n", policy,
        (taken.size() + step - 1) / step, taken.size(),
        whole.digestHex(), one.get("simulatedSeconds"));
    assertTrue(VirtualTime.seconds(ScenarioRuns.num(one, "simulatedSeconds")) < end, "the script finished");
    return one;
  }

  /** A power loss mid-run: the same crash figures on any threads, and from every checkpoint before it. */
  @ParameterizedTest
  @ValueSource(strings = {"delayed-durability", "group-commit"})
  void aCrashRunIsDeterministicAndResumes(String policy) throws Exception {
    Scenario s = busy(policy, "crashRandomSeconds", "0.12", "simulatedSeconds", "0.12"); // the script takes ~0.2 s
    Map<String, Object> one = ScenarioRuns.run(s, 7, 1);
    assertTrue(one.containsKey("crash") && one.containsKey("recovery"), "crash figures: " + one.keySet());
    assertEquals(model(one), model(ScenarioRuns.run(s, 7, 8)));
    assertNotEquals(one.get("crash"), ScenarioRuns.run(s, 9, 2).get("crash"), "another seed, another crash time");

    Params p = s.params();
    long end = s.endTimeNanos();
    List<Checkpoint> taken = new ArrayList<>();
    CommitPathModel.Model m = CommitPathModel.build(CommitPathKind.spec(p).withCrashAt(CommitPathKind.crashNanos(p, 7)));
    RunOutcome whole = Simulation.run(m.topology(), m.components(),
        RunSettings.of(end, 7, 4).withCheckpoints(CheckpointPolicy.everyWindows(20), taken::add));
    assertTrue(taken.size() >= 3, "checkpoints " + taken.size() + ", crash " + one.get("crash"));
    for (int k = 0; k < taken.size(); k += Math.max(1, taken.size() / 6)) {
      Checkpoint stored = CBOR.readValue(CBOR.writeValueAsBytes(taken.get(k)), Checkpoint.class);
      CommitPathModel.Model fresh = CommitPathModel.build(
          CommitPathKind.spec(p).withCrashAt(CommitPathKind.crashNanos(p, 7)));
      RunOutcome resumed = Simulation.run(fresh.topology(), fresh.components(),
          RunSettings.of(end, 7, 2).resumingFrom(stored));
      assertEquals(whole.digestHex(), resumed.digestHex(), policy + ", window " + stored.window());
      var a = CommitPathModel.log(m, whole).crash();
      var b = CommitPathModel.log(fresh, resumed).crash();
      assertEquals(a.withoutSessions(), b.withoutSessions());
      assertEquals(Arrays.toString(a.hardenedCommits()), Arrays.toString(b.hardenedCommits()));
      assertEquals(Arrays.toString(CommitPathModel.sessions(m, whole).acknowledgedAtCrash()),
          Arrays.toString(CommitPathModel.sessions(fresh, resumed).acknowledgedAtCrash()));
    }
    System.out.printf("commit path crash, %s: %s; recovery %s%n", policy, one.get("crash"), one.get("recovery"));
  }
}
