package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The H2 journal is created with its schema on first use, in a fresh directory, and found again after. */
class JournalSchemaTest {
  @TempDir
  Path data;

  @Test
  void aFreshDirectoryGetsTheSchemaAndTheMarkOnce() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, data.resolve("nested/data"));
    assertFalse(Files.exists(s.h2File()));
    assertEquals(JournalDatabase.Found.ABSENT, JournalDatabase.prepare(s, false));
    assertFalse(Files.exists(s.h2File()), "a reader creates nothing");
    assertEquals(JournalDatabase.Found.CREATED, JournalDatabase.prepare(s, true));
    assertTrue(Files.exists(s.h2File()));
    assertEquals(data.resolve("nested/data/journal/tlogsim.mv.db").toAbsolutePath(), s.h2File());
    assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, true));
    assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, false));
    try (Connection c = JournalDatabase.connect(H2Keys.find(s).everyday(s)); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT format, created_by FROM tlogsim_journal")) {
        assertTrue(rs.next());
        assertEquals(JournalDatabase.FORMAT, rs.getInt(1));
        assertFalse(rs.next(), "one mark");
      }
      for (String t : List.of("event_journal", "snapshot", "event_tag")) {
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM \"" + t + "\"")) {
          assertTrue(rs.next());
          assertEquals(0, rs.getInt(1));
        }
      }
    }
  }

  /**
   * A run killed while it made a new journal (H2 commits each statement of the schema on its own): the file made by
   * its owner with none, some or all but the mark's row of the schema's statements. A reader finds no journal; the
   * next run makes it and records in it. A half-made one holding a row is refused.
   */
  @Test
  void aJournalWhoseRunWasKilledWhileMakingItIsMadeByTheNextRun() throws Exception {
    List<String> schema = JournalDatabase.createStatements(JournalKind.H2);
    for (int done : new int[] {0, 1, 3, schema.size() - 1}) {
      JournalSettings s = JournalSettings.of(JournalKind.H2, data.resolve("killed-after-" + done));
      killedWhileMaking(s, schema.subList(0, done));
      assertEquals(JournalDatabase.Found.ABSENT, JournalDatabase.prepare(s, false), "after " + done + " statements");
      assertEquals(JournalDatabase.Found.CREATED, JournalDatabase.prepare(s, true), "after " + done + " statements");
      assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, false));
      try (Connection c = JournalDatabase.connect(H2Keys.find(s).everyday(s)); Statement st = c.createStatement()) {
        try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM tlogsim_journal")) {
          assertTrue(rs.next());
          assertEquals(1, rs.getInt(1), "one mark after " + done + " statements");
        }
        st.execute("INSERT INTO \"snapshot\" VALUES ('p', 1, 0, 1, 'm', X'00', NULL, NULL, NULL)");
      }
    }
    // half-made but holding a row: not a journal a killed run left (nothing is recorded before the mark): refused
    JournalSettings rows = JournalSettings.of(JournalKind.H2, data.resolve("with-a-row"));
    killedWhileMaking(rows, schema.subList(0, schema.size() - 2));
    try (Connection c = JournalBadInputTest.owner(rows); Statement st = c.createStatement()) {
      st.execute("INSERT INTO \"snapshot\" VALUES ('p', 1, 0, 1, 'm', X'00', NULL, NULL, NULL)");
    }
    BadInputException e = assertThrows(BadInputException.class, () -> JournalDatabase.prepare(rows, true));
    assertTrue(e.getMessage().contains("no tlogsim_journal mark"), e.getMessage());
  }

  /**
   * A run that finds a new journal half-made by another process that has it open (another run making it this moment)
   * waits for it instead of making it again, and then records in it: one mark, nothing dropped.
   */
  @Test
  void aRunWaitsForAnotherProcessThatIsMakingTheJournal() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, data.resolve("being-made"));
    Files.createDirectories(s.h2File().getParent());
    H2Keys.planned().store(s);
    Process maker = makesSlowly(data.resolve("being-made"));
    try (BufferedReader out = lines(maker)) {
      assertEquals("half", out.readLine());
      long t0 = System.nanoTime();
      assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, true));
      assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) >= 500, "it waited for the other process");
      assertEquals("made", out.readLine());
      try (Connection c = JournalDatabase.connect(H2Keys.find(s).everyday(s.withShared(true)));
          Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM tlogsim_journal")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1), "one mark");
      }
    } finally {
      maker.getOutputStream().close();
      if (!maker.waitFor(60, TimeUnit.SECONDS)) maker.destroyForcibly();
    }
  }

  /** A child JVM making the journal in {@code dir} as a run's owner does, pausing 5 s half-way (MakesSlowly). */
  private static Process makesSlowly(Path dir) throws Exception {
    return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), MakesSlowly.class.getName(), dir.toString(), "5000")
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static BufferedReader lines(Process p) {
    return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }

  /** What a run killed after {@code done} of the schema's statements leaves: its keys, the file, those statements. */
  private static void killedWhileMaking(JournalSettings s, List<String> done) throws Exception {
    Files.createDirectories(s.h2File().getParent());
    H2Keys keys = H2Keys.planned().store(s);
    JournalDatabase.h2Properties();
    try (Connection c = JournalDatabase.connect(keys.owner(s)); Statement st = c.createStatement()) {
      for (String sql : done) st.execute(sql);
    }
    assertTrue(Files.exists(s.h2File()));
  }

  @Test
  void thePostgresScriptSplitsIntoItsStatements() {
    List<String> statements = JournalDatabase.split(JournalDatabase.resource("io/tlogsim/journal/postgres/schema.sql"));
    assertEquals(6, statements.size(), String.join("\n----\n", statements));
    assertTrue(statements.get(0).startsWith("CREATE TABLE IF NOT EXISTS public.event_journal"));
    assertTrue(statements.get(5).startsWith("INSERT INTO public.tlogsim_journal"));
    assertTrue(statements.stream().noneMatch(q -> q.contains("CONCURRENTLY")), "all of it runs in one transaction");
  }
}
