package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.RunOutcome;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal that lost runs or records says so: each run's end record seals the count and checksum of its events, its
 * ledger beside the H2 file names every run started and how it ended, and {@code runs} marks lost or damaged runs
 * (counting rows), {@code journal verify} also checks every event's bytes. A journal truncated to any size never shows
 * fewer runs, or a run in another state, without saying so; one of 0 bytes is not made anew.
 */
class JournalIntegrityTest {
  @TempDir
  Path data;

  private JournalSettings h2() {
    return JournalSettings.of(JournalKind.H2, data);
  }

  private static void sql(JournalSettings s, String statement, Object... args) throws SQLException {
    try (Connection c = JournalBadInputTest.owner(s); PreparedStatement st = c.prepareStatement(statement)) {
      for (int i = 0; i < args.length; i++) st.setObject(i + 1, args[i]);
      st.execute();
    }
  }

  /** Runs {@code n} small GCM-1 runs to their end, each with a few checkpoints; returns their digests by id. */
  private Map<String, String> completedRuns(int n) {
    Map<String, String> digests = new LinkedHashMap<>();
    Scenario s = Gcm1Fixture.scenario("sessions", "600", "simulatedSeconds", "0.02");
    try (Journal j = Journal.openForWriting(h2())) {
      for (int i = 1; i <= n; i++) {
        String id = "run-" + i;
        RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec(id, s, i, TraceLevel.SUMMARY));
        RunOutcome out = Gcm1Fixture.run(s, i, 30, rec::checkpoint, null);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("digest", out.digestHex());
        summary.put("simulatedSeconds", 0.02);
        rec.completed(out, summary);
        digests.put(id, out.digestHex());
      }
    }
    return digests;
  }

  private List<RunStore.Listed> list(boolean checksums) {
    try (Journal j = Journal.openForReading(h2())) {
      return j.store().list(checksums);
    }
  }

  @Test
  void eachEndIsSealedAndInTheLedgerWithTheCountAndChecksumOfTheRowsAsStored() throws Exception {
    Map<String, String> digests = completedRuns(2);
    Ledger ledger = new Ledger(data.resolve("journal"));
    Map<String, Ledger.Entry> entries = ledger.entries();
    assertEquals(List.copyOf(digests.keySet()), List.copyOf(entries.keySet()));
    try (Journal j = Journal.openForReading(h2())) {
      for (String id : digests.keySet()) {
        RunWriter.Written rows = JournalCheck.written(j, id);
        Ledger.End end = entries.get(id).end();
        assertNotNull(end, id);
        assertEquals(RunStatus.COMPLETED, end.status());
        assertEquals(20_000_000, end.simulatedNanos());
        assertEquals(rows.events(), end.events(), "the ledger counts the rows the journal holds");
        assertEquals(rows.checksum(), end.checksum(), "the writer's checksum is that of the bytes as stored");
        RunState st = j.store().state(id);
        assertEquals(end.events(), st.sequenceNr());
        assertEquals(end.events() - 1, st.seal().events(), "the end record seals every event before it");
        assertTrue(st.checkpointSequenceNrs().size() >= 1, "checkpoints are part of what is sealed");
      }
    }
    for (RunStore.Listed l : list(true)) assertNull(l.damage(), l.runId() + ": " + l.damage());
    // A torn last line (a crash in the middle of a write) is ignored, not taken for a record.
    Files.writeString(ledger.file(), "E run-1 completed 3 1f", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    assertEquals(entries, ledger.entries());
  }

  @Test
  void aRowChangedOrRemovedIsFoundByVerifyAndARemovedOneByRunsToo() throws Exception {
    completedRuns(3);
    sql(h2(), "UPDATE \"event_journal\" SET \"event_payload\" = ? WHERE \"persistence_id\" = ? AND"
        + " \"sequence_number\" = 1", "{}".getBytes(StandardCharsets.UTF_8), "Run|run-2"); // its start's bytes
    sql(h2(), "DELETE FROM \"event_journal\" WHERE \"persistence_id\" = ? AND \"sequence_number\" = 2", "Run|run-3");
    Map<String, RunStore.Listed> counted = byId(list(false));
    assertNull(counted.get("run-1").damage());
    assertNull(counted.get("run-2").damage(), "runs counts rows only: the same count");
    assertEquals(JournalCheck.Damage.DAMAGED, counted.get("run-3").damage().damage());
    assertEquals("damaged", counted.get("run-3").status());
    Map<String, RunStore.Listed> verified = byId(list(true));
    assertNull(verified.get("run-1").damage());
    assertEquals(JournalCheck.Damage.DAMAGED, verified.get("run-2").damage().damage());
    assertTrue(verified.get("run-2").damage().why().contains("not those written"), verified.get("run-2").damage().why());
    assertEquals(JournalCheck.Damage.DAMAGED, verified.get("run-3").damage().damage());
  }

  @Test
  void aTruncatedJournalNeverLosesARunSilently() throws Exception {
    Map<String, String> digests = completedRuns(3);
    Path file = h2().h2File();
    byte[] whole = Files.readAllBytes(file);
    for (double fraction : new double[] {0.97, 0.9, 0.75, 0.5, 0.25, 0.1, 0.01}) {
      Files.write(file, whole);
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        f.setLength((long) (whole.length * fraction));
      }
      String at = "truncated to " + fraction;
      List<RunStore.Listed> listed;
      try {
        listed = list(false);
      } catch (JournalUnreadable e) { // H2 cannot open it at all: every run the ledger names is reported lost
        assertEquals(List.copyOf(digests.keySet()), e.lost().stream().map(Ledger.Entry::runId).toList(), at);
        assertTrue(e.getMessage().contains("now lost"), e.getMessage());
        continue;
      }
      Map<String, RunStore.Listed> byId = byId(listed);
      assertEquals(digests.keySet(), byId.keySet(), at + ": every run is listed, whole or not");
      for (Map.Entry<String, String> d : digests.entrySet()) {
        RunStore.Listed l = byId.get(d.getKey());
        if (l.damage() != null) continue; // said
        assertEquals("completed", l.status(), at + ": " + d.getKey() + " is whole, or said not to be");
        assertEquals(d.getValue(), l.state().summary().get("digest"), at);
      }
      for (RunStore.Listed l : list(true)) { // what verify reads: what runs let through is whole to the byte
        if (l.damage() == null) assertEquals("completed", l.status(), at + ": " + l.runId());
      }
    }
    // 0 bytes: reported, never made anew (by reading or by a new run).
    Files.write(file, new byte[0]);
    JournalUnreadable empty = assertThrows(JournalUnreadable.class, () -> list(false));
    assertTrue(empty.getMessage().contains("0 bytes"), empty.getMessage());
    assertEquals(3, empty.lost().size());
    assertThrows(JournalUnreadable.class, () -> Journal.openForWriting(h2()).close());
    assertEquals(0, Files.size(file), "the empty journal was left as it was");
    // Gone: the same, while the ledger says runs were kept there.
    Files.delete(file);
    JournalUnreadable gone = assertThrows(JournalUnreadable.class, () -> Journal.openForWriting(h2()).close());
    assertTrue(gone.getMessage().contains("is missing"), gone.getMessage());
    assertFalse(Files.exists(file));
  }

  @Test
  void aRunTheJournalLostEntirelyIsListedAsLostFromItsLedgerLine() throws Exception {
    completedRuns(2);
    sql(h2(), "DELETE FROM \"event_journal\" WHERE \"persistence_id\" = ?", "Run|run-1");
    sql(h2(), "DELETE FROM \"snapshot\" WHERE \"persistence_id\" = ?", "Run|run-1");
    Map<String, RunStore.Listed> byId = byId(list(false));
    assertEquals("lost", byId.get("run-1").status());
    assertTrue(byId.get("run-1").damage().why().contains("the journal holds none of it"));
    assertNull(byId.get("run-2").damage());
    try (Journal j = Journal.openForReading(h2())) {
      assertThrows(BadInputException.class, () -> j.store().state("run-1"), "gone from the journal");
    }
    // Deleted on purpose (runs delete tells the ledger): no longer a loss.
    new Ledger(data.resolve("journal")).deleted("run-1");
    assertEquals(List.of("run-2"), list(true).stream().map(RunStore.Listed::runId).toList());
  }

  @Test
  void aResumedRunIsSealedOverEveryEventOfBothProcesses() throws Exception {
    Scenario s = Gcm1Fixture.scenario("sessions", "600", "simulatedSeconds", "0.03");
    RunOutcome whole = Gcm1Fixture.run(s, 4, 0, null, null);
    var cps = Gcm1Fixture.checkpoints(s, 4, 30);
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("r", s, 4, TraceLevel.SUMMARY));
      rec.checkpoint(cps.get(0));
      rec.awaitWrites(); // then "killed": no end
    }
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.resume(j, "r", cps.get(0).window());
      RunOutcome resumed = Gcm1Fixture.run(s, 4, 30, rec::checkpoint, cps.get(0));
      assertEquals(whole.digestHex(), resumed.digestHex());
      rec.completed(resumed, Map.of("digest", resumed.digestHex()));
    }
    RunStore.Listed l = byId(list(true)).get("r");
    assertNull(l.damage(), String.valueOf(l.damage()));
    assertEquals("completed", l.status());
    try (Journal j = Journal.openForReading(h2())) {
      assertEquals(new Ledger(data.resolve("journal")).entries().get("r").end().checksum(),
          JournalCheck.written(j, "r").checksum());
    }
  }

  private static Map<String, RunStore.Listed> byId(List<RunStore.Listed> listed) {
    Map<String, RunStore.Listed> out = new LinkedHashMap<>();
    for (RunStore.Listed l : listed) out.put(l.runId(), l);
    return out;
  }
}
