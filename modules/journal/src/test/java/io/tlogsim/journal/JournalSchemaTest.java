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
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
   * A first run killed (kill -9) while it makes a new journal, once the journal has its schema and users but before
   * H2 wrote them (the moment that left, when a run made it in place, a file H2 takes for a new database: its first
   * user to connect, a reader's everyday one, became its admin and the next run failed "Wrong user name or
   * password"), leaves no journal: a reader finds none, the next run makes it, its owner the only admin.
   */
  @Test
  void aFirstRunKilledBeforeH2WroteTheNewJournalLeavesNone() throws Exception {
    Path dir = data.resolve("killed-aside");
    Process p = child(MakesAJournal.class, dir.toString(), "pause");
    try (BufferedReader out = lines(p)) {
      assertEquals("start", out.readLine());
      assertEquals("aside", out.readLine());
      p.destroyForcibly();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    }
    JournalSettings s = JournalSettings.of(JournalKind.H2, dir);
    assertFalse(Files.exists(s.h2File()), "no journal in its place");
    assertTrue(Files.exists(H2Keys.file(s)), "its keys were stored");
    assertEquals(JournalDatabase.Found.ABSENT, JournalDatabase.prepare(s, false));
    assertEquals(JournalDatabase.Found.CREATED, JournalDatabase.prepare(s, true));
    assertOwnerIsTheOnlyAdmin(s, "after a kill before H2 wrote it");
  }

  /**
   * A first run killed at any moment while it makes a new journal leaves none or a whole one: a reader finds none or an
   * empty one, the next run makes it or finds it, its owner the only admin. The kills are spread over the time a child
   * JVM takes to make one, measured first.
   */
  @Test
  void aFirstRunKilledAtAnyMomentWhileMakingTheJournalLeavesNoneOrAWholeOne() throws Exception {
    long makingMs;
    Process whole = child(MakesAJournal.class, data.resolve("whole").toString());
    try (BufferedReader out = lines(whole)) {
      assertEquals("start", out.readLine());
      long t0 = System.nanoTime();
      assertEquals("made", out.readLine());
      makingMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }
    assertTrue(whole.waitFor(60, TimeUnit.SECONDS));
    for (int fifth = 0; fifth <= 5; fifth++) {
      Path dir = data.resolve("killed-at-" + fifth + "-fifths");
      Process p = child(MakesAJournal.class, dir.toString());
      try (BufferedReader out = lines(p)) {
        assertEquals("start", out.readLine());
        Thread.sleep(makingMs * fifth / 5);
        p.destroyForcibly();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      }
      JournalSettings s = JournalSettings.of(JournalKind.H2, dir);
      String when = "killed " + fifth + " fifths of " + makingMs + " ms after it began";
      boolean made = Files.exists(s.h2File());
      assertEquals(made ? JournalDatabase.Found.EXISTING : JournalDatabase.Found.ABSENT,
          JournalDatabase.prepare(s, false), when);
      assertEquals(made ? JournalDatabase.Found.EXISTING : JournalDatabase.Found.CREATED,
          JournalDatabase.prepare(s, true), when);
      assertOwnerIsTheOnlyAdmin(s, when);
    }
  }

  /**
   * Two first runs starting together on a fresh directory (child JVMs let go at once) take turns making the journal:
   * both end well, one journal with one mark and its two users, nothing left aside.
   */
  @Test
  void twoFirstRunsStartingTogetherMakeOneJournal() throws Exception {
    Path dir = data.resolve("together");
    List<Process> runs = List.of(child(MakesAJournal.class, dir.toString(), "go"),
        child(MakesAJournal.class, dir.toString(), "go"));
    List<BufferedReader> outs = new ArrayList<>();
    try {
      for (Process p : runs) {
        outs.add(lines(p));
        assertEquals("start", outs.get(outs.size() - 1).readLine());
      }
      for (Process p : runs) {
        p.getOutputStream().write('\n');
        p.getOutputStream().flush();
      }
      for (int i = 0; i < runs.size(); i++) assertEquals("made", outs.get(i).readLine(), "run " + i);
      for (Process p : runs) p.getOutputStream().close();
      for (int i = 0; i < runs.size(); i++) {
        assertTrue(runs.get(i).waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, runs.get(i).exitValue(), "run " + i);
      }
    } finally {
      for (Process p : runs) p.destroyForcibly();
    }
    JournalSettings s = JournalSettings.of(JournalKind.H2, dir);
    assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, false));
    try (Connection c = JournalDatabase.connect(H2Keys.find(s).everyday(s)); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM tlogsim_journal")) {
      assertTrue(rs.next());
      assertEquals(1, rs.getInt(1), "one mark");
    }
    assertOwnerIsTheOnlyAdmin(s, "after two runs at once");
    try (var files = Files.list(s.h2File().getParent())) {
      assertEquals(List.of(), files.map(f -> f.getFileName().toString())
          .filter(n -> n.contains(JournalDatabase.ASIDE)).toList(), "nothing left aside");
    }
  }

  /** The journal's owner logs in with its stored key and is its admin; the everyday user is not; no other user. */
  private static void assertOwnerIsTheOnlyAdmin(JournalSettings s, String when) throws Exception {
    try (Connection c = JournalDatabase.connect(H2Keys.find(s).owner(s)); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT USER_NAME, IS_ADMIN FROM INFORMATION_SCHEMA.USERS ORDER BY 1")) {
      assertTrue(rs.next(), when);
      assertEquals(List.of(H2Keys.OWNER.toUpperCase(Locale.ROOT), true), List.of(rs.getString(1), rs.getBoolean(2)),
          when);
      assertTrue(rs.next(), when);
      assertEquals(List.of(H2Keys.USER.toUpperCase(Locale.ROOT), false), List.of(rs.getString(1), rs.getBoolean(2)),
          when);
      assertFalse(rs.next(), when);
    }
  }

  /**
   * What runs killed while making a journal aside left is removed by the next run: a file made aside an hour ago (with
   * its lock file), and a second name of the journal itself (killed between linking and removing it); a young one is
   * kept (a run may be making it this moment).
   */
  @Test
  void whatAKilledRunMadeAsideIsRemovedByTheNextRun() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, data);
    assertEquals(JournalDatabase.Found.CREATED, JournalDatabase.prepare(s, true));
    Path old = Path.of(s.location() + JournalDatabase.ASIDE + "0badc0de.mv.db");
    Path oldLock = Path.of(s.location() + JournalDatabase.ASIDE + "0badc0de.lock.db");
    Path young = Path.of(s.location() + JournalDatabase.ASIDE + "0abcdef0.mv.db");
    Path secondName = Path.of(s.location() + JournalDatabase.ASIDE + "5ec0d0a3.mv.db");
    for (Path f : List.of(old, oldLock, young)) Files.write(f, new byte[12_288]);
    Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
    Files.createLink(secondName, s.h2File());
    assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, true));
    assertFalse(Files.exists(old), "an hour old: its run was killed");
    assertFalse(Files.exists(oldLock), "its lock file with it");
    assertFalse(Files.exists(secondName), "the journal's second name");
    assertTrue(Files.exists(young), "a run may be making it this moment");
    assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(s, false));
  }

  /**
   * A run of an earlier tlogsim killed while it made a new journal in place (H2 commits each statement of the schema
   * on its own): the file made by its owner with none, some or all but the mark's row of the schema's statements. A
   * reader finds no journal; the next run makes it and records in it. A half-made one holding a row is refused.
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
   * A run that finds a new journal half-made by another process that has it open (a run of an earlier tlogsim making it
   * in place this moment)
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

  /** A child JVM making the journal in {@code dir} as an earlier tlogsim did, pausing 5 s half-way (MakesSlowly). */
  private static Process makesSlowly(Path dir) throws Exception {
    return child(MakesSlowly.class, dir.toString(), "5000");
  }

  private static Process child(Class<?> main, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
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
