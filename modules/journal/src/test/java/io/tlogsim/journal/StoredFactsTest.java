package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.scenario.Scenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's facts streamed from the journal ({@link RunStore#facts}) are the facts {@link RunStore#load} gives, in its
 * order, those superseded by a roll-back left out, and as many as the recorder counted live (summary.json's
 * journal.facts). The facts are written a few at a time (facts-per-write 3), so that the stream reads many rows and
 * the roll-back supersedes rows already written.
 */
class StoredFactsTest {
  @TempDir
  Path data;

  /** Records facts, rolls back to the start, records some again, completes; checks the three agree. */
  static void theStreamIsTheLoadAndTheCount(JournalSettings given) {
    JournalSettings js = new JournalSettings(given.kind(), given.location(), given.user(), given.password(),
        TraceLevel.FULL, Duration.ofSeconds(2), 3);
    Scenario s = Gcm1Fixture.scenario("sessions", "300", "simulatedSeconds", "0.02");
    List<Checkpoint> cps = Gcm1Fixture.checkpoints(s, 2, 30);
    long counted;
    try (Journal j = Journal.openForWriting(js)) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("sf", s, 2, TraceLevel.FULL));
      for (long w = 0; w < 20; w++) rec.fact(w, w * 1000, 1, new TestFacts.CommitAcknowledged(w, 7));
      rec.rolledBack(0); // a component lost before any checkpoint: all of it comes again
      for (long w = 0; w < 40; w++) {
        rec.fact(w, w * 1000, 1, new TestFacts.CommitAcknowledged(w, 9));
        if (w % 10 == 0) rec.fact(w, w * 1000, 0, new TestFacts.CommitsInInterval(w * 1000, w * 1000 + 999, 1));
        if (w == 25) rec.checkpoint(cps.get(0));
      }
      RunOutcome outcome = Gcm1Fixture.run(s, 2, 0, null, null);
      counted = rec.factsKept();
      rec.completed(outcome, Map.of("digest", outcome.digestHex()));
    }
    try (Journal j = Journal.openForReading(js)) {
      RunStore.StoredRun run = j.store().load("sf");
      List<StoredFact> streamed = new ArrayList<>();
      long n = j.store().facts("sf", streamed::add);
      assertEquals(44, run.facts().size(), "40 acknowledged and 4 interval facts after the roll-back");
      assertEquals(run.facts(), streamed);
      assertEquals(streamed.size(), n);
      assertEquals(n, counted, "the recorder's live count");
      assertTrue(j.store().state("sf").factsStored() > n, "the roll-back superseded facts already written");
      for (StoredFact f : streamed) {
        if (f.fact() instanceof TestFacts.CommitAcknowledged a) assertEquals(9, a.latencyNanos(), "none from before it");
      }
    }
  }

  @Test
  void onH2() {
    theStreamIsTheLoadAndTheCount(JournalSettings.of(JournalKind.H2, data));
  }
}
