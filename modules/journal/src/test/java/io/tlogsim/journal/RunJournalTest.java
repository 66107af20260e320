package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.RunOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run entity and the run store on a fresh H2 journal, with real GCM-1 checkpoints and outcomes. */
class RunJournalTest {
  @TempDir
  Path data;

  private JournalSettings h2() {
    return JournalSettings.of(JournalKind.H2, data);
  }

  @Test
  void aCompletedRunIsStoredWithItsFactsCheckpointsAndOutcome() throws Exception {
    Scenario s = Gcm1Fixture.scenario("sessions", "600", "simulatedSeconds", "0.05");
    RunOutcome whole;
    Map<String, Object> stored;
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("gcm1-1", s, 1, TraceLevel.SUMMARY));
      whole = Gcm1Fixture.run(s, 1, 50, c -> {
        rec.fact(c.window(), c.simulatedNanos(), 0, new TestFacts.CommitsInInterval(0, c.simulatedNanos(), c.window()));
        rec.fact(c.window(), c.simulatedNanos(), 0, new TestFacts.CommitAcknowledged(7, 100)); // not at summary level
        rec.checkpoint(c);
      }, null);
      assertTrue(rec.checkpoints() >= 2, "a 50 ms run of 600 sessions spans several 50-window checkpoints");
      Map<String, Object> latency = new java.util.LinkedHashMap<>();
      latency.put("p99", 646.143);
      latency.put("mean", 483.467);
      Map<String, Object> summary = new java.util.LinkedHashMap<>();
      summary.put("digest", whole.digestHex());
      summary.put("commits", Map.of("latencyUs", latency, "count", 1347777L));
      summary.put("backups", List.of(Map.of("seconds", 2.5)));
      rec.completed(whole, summary);
      stored = summary;
    }
    assertTrue(Files.exists(data.resolve("journal/tlogsim.mv.db")), "the H2 file is under the data directory");

    try (Journal j = Journal.openForReading(h2())) {
      RunStore store = j.store();
      List<RunStore.Listed> runs = store.list();
      assertEquals(1, runs.size());
      RunState st = runs.get(0).state();
      assertEquals(RunStatus.COMPLETED, st.effectiveStatus());
      assertEquals("gcm1", st.spec().scenario());
      assertEquals(600, ((Number) st.spec().params().get("sessions")).intValue());
      assertEquals(whole.digestHex(), st.summary().get("digest"));
      // The summary comes back as it was stored: Java maps and lists, keys in their order, the same JSON text
      // (numbers may come back narrower, e.g. a long as an int, which prints the same).
      assertTrue(st.summary().get("commits") instanceof java.util.LinkedHashMap, "a Java map, not a Scala one");
      var json = new com.fasterxml.jackson.databind.ObjectMapper();
      assertEquals(json.writeValueAsString(stored), json.writeValueAsString(st.summary()));
      assertNotNull(st.lastCheckpoint());

      RunStore.StoredRun run = store.load("gcm1-1");
      assertEquals(whole.digest(), run.outcome().digest());
      assertEquals(whole.events(), run.outcome().events());
      assertEquals(whole.results().size(), run.outcome().results().size());
      assertEquals(whole.results().get(0).getClass(), run.outcome().results().get(0).getClass());
      assertTrue(run.facts().stream().allMatch(f -> f.fact() instanceof TestFacts.CommitsInInterval),
          "summary trace keeps interval aggregates only");
      assertEquals(st.checkpointSequenceNrs().size(), run.facts().size());
    }
  }

  @Test
  void aRunResumedFromItsJournaledCheckpointEndsWithTheUninterruptedDigest() {
    Scenario s = Gcm1Fixture.scenario("sessions", "800", "simulatedSeconds", "0.04");
    RunOutcome whole = Gcm1Fixture.run(s, 9, 0, null, null);
    List<Checkpoint> cps = Gcm1Fixture.checkpoints(s, 9, 40);
    assertTrue(cps.size() >= 2);

    // The "killed" run got as far as its second checkpoint: only those reached the journal.
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("gcm1-9", s, 9, TraceLevel.FULL));
      rec.checkpoint(cps.get(0));
      rec.checkpoint(cps.get(1));
      rec.interrupted("test");
    }
    Checkpoint from;
    try (Journal j = Journal.openForReading(h2())) {
      RunState st = j.store().resumable("gcm1-9");
      from = j.store().lastCheckpoint("gcm1-9", st);
      assertEquals(cps.get(1).window(), from.window());
    }
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.resume(j, "gcm1-9", from.window());
      RunOutcome resumed = Gcm1Fixture.run(s, 9, 40, rec::checkpoint, from);
      assertEquals(whole.digestHex(), resumed.digestHex(), "journaled checkpoint resumes to the same digest");
      rec.completed(resumed, Map.of());
    }
    try (Journal j = Journal.openForReading(h2())) {
      RunState done = j.store().state("gcm1-9");
      assertEquals(RunStatus.COMPLETED, done.effectiveStatus());
      assertTrue(done.first().startedAtMillis() < done.attempt().startedAtMillis(),
          "the run started before it was resumed; runs shows when it started");
      BadInputException e = assertThrows(BadInputException.class, () -> j.store().resumable("gcm1-9"));
      assertTrue(e.getMessage().contains("completed"), e.getMessage());
    }
  }

  @Test
  void factsSupersededByAResumeAreDropped() {
    Scenario s = Gcm1Fixture.scenario("sessions", "500", "simulatedSeconds", "0.01");
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("r", s, 1, TraceLevel.FULL));
      for (long w = 0; w < 10; w++) rec.fact(w, w * 1000, 1, new TestFacts.CommitAcknowledged(w, 1));
      rec.interrupted("test"); // facts of windows 0..9 stored
    }
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.resume(j, "r", 5); // windows 5.. are run again and record their facts again
      for (long w = 5; w < 12; w++) rec.fact(w, w * 1000, 1, new TestFacts.CommitAcknowledged(w, 2));
      rec.failed("test");
    }
    try (Journal j = Journal.openForReading(h2())) {
      List<StoredFact> facts = j.store().load("r").facts();
      assertEquals(12, facts.size());
      for (int w = 0; w < 12; w++) {
        TestFacts.CommitAcknowledged f = (TestFacts.CommitAcknowledged) facts.get(w).fact();
        assertEquals(w, f.session());
        assertEquals(w < 5 ? 1 : 2, f.latencyNanos(), "window " + w);
      }
      assertEquals(RunStatus.FAILED, j.store().state("r").effectiveStatus());
    }
  }

  @Test
  void anUnknownRunIdIsBadInputAndAnAbsentJournalIsNotCreatedByReading() {
    try (Journal j = Journal.openForReading(h2())) {
      assertTrue(j.store().list().isEmpty());
      BadInputException e = assertThrows(BadInputException.class, () -> j.store().state("nope"));
      assertTrue(e.getMessage().startsWith("unknown run id 'nope'"), e.getMessage());
    }
    assertTrue(!Files.exists(data.resolve("journal")), "reading created nothing");
    try (Journal j = Journal.openForWriting(h2())) {
      assertNull(j.store().list().isEmpty() ? null : "x");
      assertThrows(BadInputException.class, () -> j.store().state("nope"));
    }
  }

  @Test
  void theScenarioComesBackFromTheJournalWithItsParameterTypesAndReference() {
    Scenario s = io.tlogsim.kinds.ScenarioKinds.loader().load("gcm1", Map.of("sessions", "700"));
    Scenario ref = io.tlogsim.kinds.ScenarioKinds.loader().load("gcm1", Map.of());
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder.start(j, RunSpec.of("a", s.withSeed(5, "--seed"), 2, TraceLevel.SUMMARY, "/tmp/a", "tlogsim run gcm1",
          Map.of())).interrupted("test");
      RunRecorder.start(j, RunSpec.of("b", ref, 2, TraceLevel.SUMMARY, "/tmp/b", "tlogsim run gcm1", Map.of()))
          .interrupted("test");
    }
    try (Journal j = Journal.openForReading(h2())) {
      Scenario back = j.store().load("a").spec().scenario(io.tlogsim.kinds.ScenarioKinds.all());
      assertEquals(s.params().asMap(), back.params().asMap());
      s.params().asMap().forEach((k, v) -> assertEquals(v.getClass(), back.params().asMap().get(k).getClass(), k));
      assertEquals(5, back.seed());
      assertNull(back.reference(), "--set sessions dropped the published figures");
      assertEquals(s.droppedReference(), back.droppedReference());
      assertEquals(s.origins(), back.origins());
      assertEquals(s.source(), back.source());
      Scenario refBack = j.store().load("b").spec().scenario(io.tlogsim.kinds.ScenarioKinds.all());
      assertEquals(ref.reference(), refBack.reference());
      assertEquals(ref.seedOrigin(), refBack.seedOrigin());
      assertEquals(ref.endTimeNanos(), refBack.endTimeNanos());

      List<String> table = RunsTable.lines(j.store().list());
      assertEquals(3, table.size());
      assertTrue(table.get(0).startsWith("RUN"), table.get(0));
      assertTrue(table.get(1).matches("a\\s+gcm1\\s+5\\s+interrupted\\s+\\S+ \\S+\\s+0 of 2\\s+-"), table.get(1));
    }
  }

  @Test
  void anIntervalWithManyFactsIsWrittenInSeveralWritesNotOnePerFact() {
    JournalSettings small = new JournalSettings(JournalKind.H2, h2().location(), "tlogsim", "", TraceLevel.FULL,
        java.time.Duration.ofSeconds(2), 1000);
    Scenario s = Gcm1Fixture.scenario();
    try (Journal j = Journal.openForWriting(small)) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("f", s, 1, TraceLevel.FULL));
      for (int i = 0; i < 2500; i++) rec.fact(i / 100, i, 0, new TestFacts.CommitAcknowledged(i, 1));
      rec.failed("test");
    }
    try (Journal j = Journal.openForReading(small)) {
      RunState st = j.store().state("f");
      assertEquals(2500, st.factsStored());
      assertEquals(1 + 3 + 1, st.sequenceNr(), "start, 1000 + 1000 + 500 facts, end");
      List<StoredFact> facts = j.store().load("f").facts();
      assertEquals(2500, facts.size());
      for (int i = 0; i < facts.size(); i++) assertEquals(i, facts.get(i).time());
    }
  }

  @Test
  void factsOfWindowsARollbackRunsAgainAreKeptOnce() {
    JournalSettings small = new JournalSettings(JournalKind.H2, h2().location(), "tlogsim", "", TraceLevel.FULL,
        java.time.Duration.ofSeconds(2), 7);
    try (Journal j = Journal.openForWriting(small)) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("rb", Gcm1Fixture.scenario(), 1, TraceLevel.FULL));
      for (long w = 0; w < 10; w++) rec.fact(w, w, 0, new TestFacts.CommitAcknowledged(w, 1)); // 7 written, 3 held
      rec.rolledBack(4); // a component was lost: back to the checkpoint of window 4
      for (long w = 4; w < 12; w++) rec.fact(w, w, 0, new TestFacts.CommitAcknowledged(w, 2));
      rec.failed("test");
    }
    try (Journal j = Journal.openForReading(small)) {
      List<StoredFact> facts = j.store().load("rb").facts();
      assertEquals(12, facts.size());
      for (int w = 0; w < 12; w++) {
        assertEquals(w, facts.get(w).window());
        assertEquals(w < 4 ? 1 : 2, ((TestFacts.CommitAcknowledged) facts.get(w).fact()).latencyNanos(), "window " + w);
      }
    }
  }
}
