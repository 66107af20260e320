package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Journals tlogsim refuses, with one line and without changing them: not tlogsim's, not a database at all, a corrupt
 * row, a run still running, an unknown run id.
 */
class JournalBadInputTest {
  @TempDir
  Path data;

  private JournalSettings h2() {
    return JournalSettings.of(JournalKind.H2, data);
  }

  /** As the journal's owner: with its passwords once tlogsim gave it them, else as an H2 file of anyone's. */
  static Connection owner(JournalSettings s) throws SQLException {
    H2Keys k = H2Keys.find(s);
    return JournalDatabase.connect((k.state == H2Keys.State.STORED ? k : H2Keys.former()).owner(s));
  }

  private static void sql(JournalSettings s, String... statements) throws SQLException {
    try (Connection c = owner(s); Statement st = c.createStatement()) {
      for (String q : statements) st.execute(q);
    }
  }

  /** Every row of the journal's tables, hashed: what "nothing changed" is checked against. */
  private static String contents(JournalSettings s) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (Connection c = owner(s); Statement st = c.createStatement()) {
      for (String table : new String[] {"\"event_journal\"", "\"snapshot\"", "\"event_tag\"", "tlogsim_journal"}) {
        try (ResultSet rs = st.executeQuery("SELECT * FROM " + table + " ORDER BY 1, 2")) {
          int cols = rs.getMetaData().getColumnCount();
          while (rs.next()) {
            for (int i = 1; i <= cols; i++) {
              int type = rs.getMetaData().getColumnType(i);
              boolean binary = type == java.sql.Types.BLOB || type == java.sql.Types.VARBINARY
                  || type == java.sql.Types.BINARY || type == java.sql.Types.LONGVARBINARY;
              byte[] b = binary ? rs.getBytes(i) : null;
              md.update(String.valueOf(binary ? (b == null ? "null" : HexFormat.of().formatHex(b)) : rs.getString(i))
                  .getBytes());
            }
          }
        }
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private void storeCompletedRun(String runId) {
    Scenario s = Gcm1Fixture.scenario("sessions", "500", "simulatedSeconds", "0.01");
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec(runId, s, 3, TraceLevel.FULL));
      rec.fact(0, 0, 0, new TestFacts.CommitAcknowledged(1, 2));
      rec.completed(Gcm1Fixture.run(s, 3, 0, null, null), Map.of("digest", "x"));
    }
  }

  @Test
  void anH2FileWithOtherTablesIsNotATlogsimJournal() throws Exception {
    JournalSettings s = h2();
    Files.createDirectories(s.h2File().getParent());
    sql(s, "CREATE TABLE accounts (id INT)", "INSERT INTO accounts VALUES (7)");
    BadInputException e = assertThrows(BadInputException.class, () -> Journal.openForWriting(s));
    assertTrue(e.getMessage().contains("is not a tlogsim journal") && e.getMessage().contains("accounts"), e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
    assertThrows(BadInputException.class, () -> Journal.openForReading(s));
    // H2 may rewrite its own file structures when a file is opened; what it holds is left as it was.
    try (Connection c = owner(s); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'PUBLIC'")) {
      assertTrue(rs.next());
      assertEquals("ACCOUNTS", rs.getString(1));
      assertFalse(rs.next(), "no table of tlogsim was added");
    }
  }

  @Test
  void aPekkoJournalOfAnotherApplicationIsRefused() throws Exception {
    JournalSettings s = h2();
    Files.createDirectories(s.h2File().getParent());
    sql(s, JournalDatabase.split(JournalDatabase.resource("schema/h2/h2-create-schema.sql")).toArray(String[]::new));
    BadInputException e = assertThrows(BadInputException.class, () -> Journal.openForWriting(s));
    assertTrue(e.getMessage().contains("no tlogsim_journal mark"), e.getMessage());
  }

  @Test
  void aFileThatIsNotADatabaseIsRefused() throws Exception {
    JournalSettings s = h2();
    Files.createDirectories(s.h2File().getParent());
    Files.writeString(s.h2File(), "these are my notes, not a database\n".repeat(200));
    byte[] before = Files.readAllBytes(s.h2File());
    BadInputException e = assertThrows(BadInputException.class, () -> Journal.openForReading(s));
    assertTrue(e.getMessage().contains("cannot be opened as a tlogsim journal"), e.getMessage());
    assertThrows(BadInputException.class, () -> Journal.openForWriting(s));
    assertArrayEquals(before, Files.readAllBytes(s.h2File()));
  }

  @Test
  void aJournalOfAnotherFormatIsRefused() throws Exception {
    storeCompletedRun("r");
    sql(h2(), "UPDATE tlogsim_journal SET format = 99");
    BadInputException e = assertThrows(BadInputException.class, () -> Journal.openForReading(h2()));
    assertTrue(e.getMessage().contains("format 99"), e.getMessage());
  }

  @Test
  void aCorruptEventRowIsOneLineAndChangesNothing() throws Exception {
    storeCompletedRun("r");
    sql(h2(), "UPDATE \"event_journal\" SET \"event_payload\" = X'DEADBEEF00' WHERE \"sequence_number\" = 1");
    String before = contents(h2());
    try (Journal j = Journal.openForReading(h2())) {
      BadInputException e = assertThrows(BadInputException.class, () -> j.store().load("r"));
      assertTrue(e.getMessage().startsWith("run r: the journal holds a row that cannot be read"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"));
    }
    assertEquals(before, contents(h2()));
  }

  @Test
  void aCorruptSnapshotIsOneLineAndTheRunIsListedAsUnreadable() throws Exception {
    storeCompletedRun("r");
    storeCompletedRun("s");
    sql(h2(), "UPDATE \"snapshot\" SET \"snapshot_payload\" = X'00' WHERE \"persistence_id\" = 'Run|r'");
    String before = contents(h2());
    try (Journal j = Journal.openForReading(h2())) {
      BadInputException e = assertThrows(BadInputException.class, () -> j.store().state("r"));
      assertTrue(e.getMessage().contains("cannot be read"), e.getMessage());
      var listed = j.store().list();
      assertEquals(2, listed.size());
      var r = listed.stream().filter(l -> l.runId().equals("r")).findFirst().orElseThrow();
      var ok = listed.stream().filter(l -> l.runId().equals("s")).findFirst().orElseThrow();
      assertTrue(r.state() == null && r.unreadable().contains("cannot be read"));
      assertEquals(RunStatus.COMPLETED, ok.state().effectiveStatus());
    }
    assertEquals(before, contents(h2()));
  }

  @Test
  void aRunStillRunningCannotBeResumed() throws Exception {
    Scenario s = Gcm1Fixture.scenario("sessions", "500", "simulatedSeconds", "0.01");
    try (Journal writing = Journal.openForWriting(h2())) {
      RunRecorder.start(writing, Gcm1Fixture.spec("live", s, 3, TraceLevel.SUMMARY)); // this process runs it
      String before = contents(h2());
      try (Journal j = Journal.openForReading(h2())) {
        assertEquals(RunStatus.RUNNING, j.store().state("live").effectiveStatus());
        BadInputException e = assertThrows(BadInputException.class, () -> j.store().resumable("live"));
        assertTrue(e.getMessage().startsWith("run live is still running (pid " + ProcessHandle.current().pid()),
            e.getMessage());
        assertThrows(BadInputException.class, () -> j.store().resumable("other"));
      }
      assertEquals(before, contents(h2()));
    }
  }

  @Test
  void aRunWhoseProcessDiedIsInterrupted() throws Exception {
    Process p = new ProcessBuilder("true").start();
    ProcessHandle.Info info = p.info();
    p.waitFor();
    long start = info.startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    Attempt dead = new Attempt(p.pid(), Attempt.hostName(), start, System.currentTimeMillis());
    assertFalse(dead.processAlive());
    Attempt live = Attempt.current();
    assertTrue(live.processAlive());
    Attempt reused = new Attempt(live.pid(), live.host(), live.processStartMillis() - 60_000, 0);
    assertFalse(reused.processAlive(), "the same pid with another start time is another process");
    Attempt elsewhere = new Attempt(p.pid(), "another-host", start, 0);
    assertTrue(elsewhere.processAlive(), "a process on another host is not declared dead from here");

    RunState running = RunState.EMPTY.apply(new RunEvent.Started(
        Gcm1Fixture.spec("x", Gcm1Fixture.scenario(), 1, TraceLevel.SUMMARY), dead));
    assertEquals(RunStatus.RUNNING, running.status());
    assertEquals(RunStatus.INTERRUPTED, running.effectiveStatus());
  }

  @Test
  void anExistingRunIdIsNotStartedTwice() {
    storeCompletedRun("r");
    Scenario s = Gcm1Fixture.scenario();
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder.RunIdTaken e = assertThrows(RunRecorder.RunIdTaken.class,
          () -> RunRecorder.start(j, Gcm1Fixture.spec("r", s, 1, TraceLevel.SUMMARY)));
      assertTrue(e.getMessage().contains("already in the journal"), e.getMessage());
      assertEquals(RunStatus.COMPLETED, j.store().state("r").effectiveStatus(), "the stored run is untouched");
    }
  }

  @Test
  void aWriteTheDatabaseRefusesStopsTheRecordingWithItsReason() throws Exception {
    Scenario s = Gcm1Fixture.scenario();
    try (Journal j = Journal.openForWriting(h2())) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("w", s, 1, TraceLevel.SUMMARY));
      sql(h2(), "DROP TABLE \"event_tag\"", "DROP TABLE \"event_journal\"");
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> rec.failed("test"));
      // Not the time-out's words: the recording stopped, and why.
      assertTrue(e.getMessage().contains("could not be written") && e.getMessage().contains("event_journal"),
          e.getMessage());
    }
  }
}
