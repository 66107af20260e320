package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.scenario.Scenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that hands its journal thousands of small writes at once (tlogsim.journal.facts-per-write = 4 with a full
 * trace: a fast run, or a resumed one re-simulating from its checkpoint) loses none of them. Before the writer bounded
 * the writes it sends unanswered (RunWriter.MAX_IN_FLIGHT), the run's entity stashed them while it persisted, Pekko's
 * typed stash (4096 by default) dropped the overflow ("Stash buffer is full, dropping message"), and the next write
 * found a gap: "the journal holds 7331 events of the run where 7332 were written", the run failed at its end.
 */
class ManySmallWritesTest {
  @TempDir
  Path data;

  private static final int FACTS = 6000; // one write each: more than the stash holds

  @Test
  void thousandsOfWritesHandedOnAtOnceAreAllWrittenAlsoAfterAResume() {
    JournalSettings h2 = JournalSettings.of(JournalKind.H2, data);
    JournalSettings perFact = new JournalSettings(h2.kind(), h2.location(), h2.user(), h2.password(), TraceLevel.FULL,
        Duration.ofSeconds(2), 1);
    Scenario s = Gcm1Fixture.scenario();
    Attempt dead = new Attempt(Long.MAX_VALUE, Attempt.hostName(), 0, System.currentTimeMillis()); // no such pid
    try (Journal j = Journal.openForWriting(perFact)) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("m", s, 1, TraceLevel.FULL), dead);
      for (int i = 0; i < FACTS; i++) rec.fact(1, i, 0, new TestFacts.CommitAcknowledged(i, 1));
      rec.awaitWrites(); // then the process dies: no end
    }
    try (Journal j = Journal.openForWriting(perFact)) {
      assertEquals(RunStatus.INTERRUPTED, j.store().resumable("m").effectiveStatus());
      RunRecorder rec = RunRecorder.resume(j, "m", 0); // no checkpoint: from the start, every fact again
      for (int i = 0; i < FACTS; i++) rec.fact(1, i, 0, new TestFacts.CommitAcknowledged(i, 2));
      rec.failed("test"); // an end, written after every fact (it throws if the journal found a gap)
    }
    try (Journal j = Journal.openForReading(perFact)) {
      RunState st = j.store().state("m");
      assertEquals(RunStatus.FAILED, st.status());
      assertEquals(1 + FACTS + 1 + FACTS + 1, st.sequenceNr(), "start, a write per fact, resumed, again, end");
      List<StoredFact> facts = j.store().load("m").facts();
      assertEquals(FACTS, facts.size(), "the facts before the resume are superseded");
      for (int i = 0; i < FACTS; i++) {
        assertEquals(i, facts.get(i).time());
        assertEquals(2, ((TestFacts.CommitAcknowledged) facts.get(i).fact()).latencyNanos());
      }
    }
  }
}
