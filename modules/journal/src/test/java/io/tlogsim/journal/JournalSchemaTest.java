package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
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

  @Test
  void thePostgresScriptSplitsIntoItsStatements() {
    List<String> statements = JournalDatabase.split(JournalDatabase.resource("io/tlogsim/journal/postgres/schema.sql"));
    assertEquals(6, statements.size(), String.join("\n----\n", statements));
    assertTrue(statements.get(0).startsWith("CREATE TABLE IF NOT EXISTS public.event_journal"));
    assertTrue(statements.get(5).startsWith("INSERT INTO public.tlogsim_journal"));
    assertTrue(statements.stream().noneMatch(q -> q.contains("CONCURRENTLY")), "all of it runs in one transaction");
  }
}
