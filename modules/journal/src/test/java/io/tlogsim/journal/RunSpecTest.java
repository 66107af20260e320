package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run stored by an older version, before a parameter was added, still rebuilds (resume, replay, runs show). */
class RunSpecTest {

  private static RunSpec stored(Map<String, Object> params, Scenario s) {
    RunSpec live = RunSpec.of("gcm1-old", s, 1, TraceLevel.SUMMARY, "out", "tlogsim run gcm1", Map.of());
    return new RunSpec(live.runId(), live.scenario(), live.kind(), live.description(), live.seed(), live.seedOrigin(),
        params, live.origins(), live.overrides(), live.source(), live.reference(), live.droppedReference(),
        live.endTimeNanos(), live.threads(), live.trace(), live.outDir(), live.commandLine(), live.provenance());
  }

  @Test
  void aParameterAddedSinceTheRunWasStoredTakesItsDefault() {
    Scenario s = ScenarioKinds.loader().load("gcm1", Map.of());
    Map<String, Object> params = new LinkedHashMap<>(s.params().asMap());
    Object sessions = params.get("sessions");
    assertEquals("group-commit", params.remove("flushPolicy"), "gcm1's default policy");
    Scenario rebuilt = stored(params, s).scenario(ScenarioKinds.all());
    assertEquals("group-commit", rebuilt.params().getString("flushPolicy"));
    assertEquals(((Number) sessions).intValue(), rebuilt.params().getInt("sessions"), "stored values kept");
  }

  @Test
  void aStoredKindThisVersionDoesNotKnowIsOneClearError() {
    Scenario s = ScenarioKinds.loader().load("gcm1", Map.of());
    RunSpec live = stored(s.params().asMap(), s);
    RunSpec other = new RunSpec(live.runId(), live.scenario(), "no-such-kind", live.description(), live.seed(),
        live.seedOrigin(), live.params(), live.origins(), live.overrides(), live.source(), live.reference(),
        live.droppedReference(), live.endTimeNanos(), live.threads(), live.trace(), live.outDir(), live.commandLine(),
        live.provenance());
    BadInputException e = assertThrows(BadInputException.class, () -> other.scenario(ScenarioKinds.all()));
    assertTrue(e.getMessage().contains("no-such-kind"), e.getMessage());
  }
}
