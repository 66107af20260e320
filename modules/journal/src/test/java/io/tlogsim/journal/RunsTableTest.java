package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code tlogsim runs} shows the simulated time a run reached, not its configured limit. */
class RunsTableTest {
  @Test
  void aCompletedRunShowsTheSimulatedTimeItReachedAndAnUnfinishedOneWhereItsLastCheckpointWas() {
    Scenario s = Gcm1Fixture.scenario("simulatedSeconds", "80000"); // a limit a script ends long before
    RunState st = RunState.EMPTY.apply(new RunEvent.Started(Gcm1Fixture.spec("r", s, 1, TraceLevel.SUMMARY),
        Attempt.current()));
    st = st.apply(new RunEvent.CheckpointTaken(7, 12_250_000_000L, null));
    String[] running = RunsTable.row(new RunStore.Listed("r", st, null, null, null));
    assertEquals("12.250 of 80000", running[5]);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("simulatedSeconds", 363.5);
    summary.put("digest", "abc");
    st = st.apply(new RunEvent.Completed(null, summary, new RunEvent.Seal(2, 1)));
    String[] done = RunsTable.row(new RunStore.Listed("r", st, null, null, null));
    assertEquals(List.of("completed", "363.500", "abc"), List.of(done[3], done[5], done[6]));
  }
}
