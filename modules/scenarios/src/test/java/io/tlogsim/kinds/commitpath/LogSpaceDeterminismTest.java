package io.tlogsim.kinds.commitpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.database.logspace.ManagedLogSpace;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.kinds.logspace.LogSpaceKind;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A log-space run (growth, zeroing, 9002, the VLF layout) gives the same digest on any number of threads and when
 * resumed from any of its checkpoints after a round trip through CBOR (what the journal stores).
 */
class LogSpaceDeterminismTest {
  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());

  @ParameterizedTest
  @ValueSource(strings = {"two-log-files", "log-full-9002", "log-backup-cadence"})
  void sameDigestOnAnyThreadsAndAfterAResumeFromEveryCheckpoint(String name) throws Exception {
    Scenario s = ScenarioRuns.scenario(name, "logMaxSizeMB", name.equals("log-full-9002") ? "12" : "0");
    Map<String, Object> one = ScenarioRuns.run(s, 7, 1);
    assertEquals(one.get("digest"), ScenarioRuns.run(s, 7, 2).get("digest"));

    Params p = s.params();
    long end = s.endTimeNanos();
    List<Checkpoint> taken = new ArrayList<>();
    CommitPathModel.Model m = CommitPathModel.build(LogSpaceKind.runSpec(p, name, 7));
    RunOutcome whole = Simulation.run(m.topology(), m.components(),
        RunSettings.of(end, 7, 2).withCheckpoints(CheckpointPolicy.everyWindows(name.equals("two-log-files") ? 50
            : name.equals("log-backup-cadence") ? 40_000 : 2000), taken::add));
    assertTrue(taken.size() >= 3, "checkpoints " + taken.size());
    int step = Math.max(1, taken.size() / 6);
    for (int k = 0; k < taken.size(); k += step) {
      Checkpoint cp = taken.get(k);
      Checkpoint stored = CBOR.readValue(CBOR.writeValueAsBytes(cp), Checkpoint.class);
      CommitPathModel.Model fresh = CommitPathModel.build(LogSpaceKind.runSpec(p, name, 7));
      RunOutcome resumed = Simulation.run(fresh.topology(), fresh.components(),
          RunSettings.of(end, 7, 2).resumingFrom(stored));
      assertEquals(whole.digestHex(), resumed.digestHex(), name + ", window " + cp.window());
      ManagedLogSpace.Report a = (ManagedLogSpace.Report) CommitPathModel.log(m, whole).logSpace();
      ManagedLogSpace.Report b = (ManagedLogSpace.Report) CommitPathModel.log(fresh, resumed).logSpace();
      assertEquals(a.logInfo(), b.logInfo());
      assertEquals(a.messages(), b.messages());
      assertEquals(a.fullErrors(), b.fullErrors());
    }
  }
}
