package io.tlogsim.kinds.readpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A read-path run that does everything (files added and dropped, backups of each kind, growth with zero-fill, an open
 * transaction, a checkpoint, a crash and its recovery, a restore) gives the same summary on 1 and 4 threads, and
 * resumes from every checkpoint, through CBOR as the journal stores it, to the uninterrupted digest.
 */
class ReadPathDeterminismTest {
  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());

  private static Scenario busy() {
    return ScenarioRuns.scenario("read-path", "logInitialMB", "2", "logGrowthMB", "1", "logDevice", "hdd",
        "dataFileMB", "4", "updateRowLogBytes", "300", "script", "[{step = backup-database},"
            + " {step = add-data-file, files = 30}, {step = insert, rows = 300, commitEvery = 7},"
            + " {step = remove-data-file, files = 20}, {step = backup-log}, {step = large-update, rows = 3000, statements = 2, commit = false},"
            + " {step = checkpoint}, {step = crash}, {step = delete, rows = 200}, {step = backup-log},"
            + " {step = backup-database, differential = true}, {step = restore-database, recovery = false},"
            + " {step = restore-log}]");
  }

  private static Map<String, Object> model(Map<String, Object> summary) {
    Map<String, Object> m = new HashMap<>(summary);
    m.remove("run");
    return m;
  }

  @Test
  void sameSummaryOnAnyThreadsAndEveryCheckpointResumesToTheDigest() throws Exception {
    Scenario s = busy();
    Map<String, Object> one = ScenarioRuns.run(s, 7, 1);
    assertEquals(model(one), model(ScenarioRuns.run(s, 7, 4)));
    assertEquals(4, ((List<?>) ScenarioRuns.at(one, "backups")).size(), "full, log, log, differential");
    assertTrue(ScenarioRuns.num(one, "log.growths") > 0, "the log grew: " + ScenarioRuns.at(one, "log"));
    assertEquals(1.0, ScenarioRuns.num(one, "recovery.rolledBack"));

    Params p = s.params();
    long end = s.endTimeNanos();
    List<Checkpoint> taken = new ArrayList<>();
    ReadPathRun.Built b = ReadPathRun.build(p);
    RunOutcome whole = Simulation.run(b.topology(), b.models(),
        RunSettings.of(end, 7, 4).withCheckpoints(CheckpointPolicy.everyWindows(200), taken::add));
    assertTrue(taken.size() >= 5, "checkpoints " + taken.size());
    int step = Math.max(1, taken.size() / 10);
    for (int k = 0; k < taken.size(); k += step) {
      Checkpoint cp = taken.get(k);
      assertEquals(List.of(), cp.inconsistencies(b.topology()), "window " + cp.window());
      Checkpoint stored = CBOR.readValue(CBOR.writeValueAsBytes(cp), Checkpoint.class);
      ReadPathRun.Built fresh = ReadPathRun.build(p);
      RunOutcome resumed = Simulation.run(fresh.topology(), fresh.models(), RunSettings.of(end, 7, 2)
          .resumingFrom(stored));
      assertEquals(whole.digestHex(), resumed.digestHex(), "window " + cp.window());
    }
  }
}
