package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.gcm1.Gcm1Kind;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Simulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run whose process dies after some checkpoints and is resumed from the journal ends with the facts and digest of
 * an uninterrupted run: facts written with a checkpoint are kept, those of the lost tail are recorded again, and
 * facts of windows after the checkpoint resumed from that were written before the death are superseded.
 */
class FactsAcrossAResumeTest {
  @TempDir
  Path data;

  private static final Scenario S = Gcm1Fixture.scenario("sessions", "600", "simulatedSeconds", "0.03");

  /** GCM-1 whose components record facts; {@code deliver} decides what reaches the journal (a dying process). */
  private static RunOutcome run(long everyWindows, Consumer<Checkpoint> checkpoints, Consumer<FactBatch> facts,
      Checkpoint from) {
    Gcm1Kind.Model m = Gcm1Kind.build(S.params());
    List<SimComponent> comps = new ArrayList<>(m.components());
    for (int i = 0; i < comps.size(); i++) comps.set(i, new Noting(comps.get(i), 50)); // every window has facts
    RunSettings settings = RunSettings.of(S.endTimeNanos(), 8, 2).withFacts(facts)
        .withCheckpoints(CheckpointPolicy.everyWindows(everyWindows), checkpoints);
    if (from != null) settings = settings.resumingFrom(from);
    return Simulation.run(m.topology(), comps, settings);
  }

  private static List<String> kept(List<FactBatch> batches, TraceLevel trace) {
    List<String> out = new ArrayList<>();
    for (FactBatch b : batches) {
      for (RecordedFact f : b.facts()) if (trace.keeps(f.fact())) out.add(b.window() + "@" + f.time() + " " + f.fact());
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(TraceLevel.class)
  void aResumedRunHasTheFactsAndDigestOfAnUninterruptedOne(TraceLevel trace) {
    List<FactBatch> all = new ArrayList<>();
    RunOutcome whole = run(30, c -> {}, all::add, null);
    List<String> expected = kept(all, trace);
    assertTrue(expected.size() > 20, "facts kept at " + trace + ": " + expected.size());

    JournalSettings h2 = JournalSettings.of(JournalKind.H2, data);
    // facts written a few at a time: those of windows after the third checkpoint reach the journal before the death,
    // and the resume must supersede them
    JournalSettings js = new JournalSettings(h2.kind(), h2.location(), h2.user(), h2.password(), trace,
        h2.checkpointEvery(), 40);
    Attempt dead = new Attempt(Long.MAX_VALUE, Attempt.hostName(), 0, System.currentTimeMillis()); // no such pid
    try (Journal j = Journal.openForWriting(js)) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("f", S, 8, trace), dead);
      int[] delivered = {0};
      int[] after = {0};
      boolean[] dying = {false};
      run(30, c -> {
        if (dying[0]) return;
        rec.checkpoint(c);
        if (++delivered[0] == 3) dying[0] = true; // the process dies after its third checkpoint reached the journal
      }, b -> {
        if (!dying[0] || after[0]++ < 10) rec.facts(b); // and ten windows of facts after it, some of them written
      }, null);
      rec.awaitWrites(); // what reached the journal before the death is in it (what was lost never got there)
    }
    try (Journal j = Journal.openForWriting(js)) {
      RunState st = j.store().resumable("f");
      assertEquals(RunStatus.INTERRUPTED, st.effectiveStatus());
      Checkpoint from = j.store().lastCheckpoint("f", st);
      RunRecorder rec = RunRecorder.resume(j, "f", from.window());
      RunOutcome resumed = run(30, rec::checkpoint, rec::facts, from);
      assertEquals(whole.digestHex(), resumed.digestHex());
      assertEquals(expected.size(), rec.factsKept(), "the resumed recorder counts the facts before its checkpoint too");
      rec.completed(resumed, Map.of("digest", resumed.digestHex()));
    }
    try (Journal j = Journal.openForReading(js)) {
      RunStore.StoredRun run = j.store().load("f");
      List<String> got = new ArrayList<>();
      for (StoredFact f : run.facts()) got.add(f.window() + "@" + f.time() + " " + f.fact());
      assertEquals(expected, got);
      assertEquals(RunStatus.COMPLETED, run.status());
      List<String> streamed = new ArrayList<>();
      j.store().facts("f", f -> streamed.add(f.window() + "@" + f.time() + " " + f.fact()));
      assertEquals(expected, streamed, "streamed, the superseded facts are left out as load leaves them");
      assertTrue(j.store().state("f").factsStored() > expected.size(), "facts were superseded: "
          + j.store().state("f").factsStored() + " stored, " + expected.size() + " kept");
    }
  }
}
