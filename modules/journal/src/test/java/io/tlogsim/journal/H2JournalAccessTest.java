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
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who can reach an H2 journal: its files are its owner's alone; only a run lets other processes share the file (H2's
 * AUTO_SERVER), and they get in only with the journal's own password, as a user that can run no Java code and touch
 * no file through SQL. Other processes are real JVMs ({@link H2Probe}).
 */
class H2JournalAccessTest {
  @TempDir
  Path tmp;

  private static final List<String> CODE_AND_FILES = List.of(
      "CREATE ALIAS GP FOR 'java.lang.System.getProperty'",
      "CREATE ALIAS GS AS $$ String gs(String k) { return System.getProperty(k); } $$",
      "CREATE TRIGGER TR BEFORE INSERT ON \"snapshot\" FOR EACH ROW CALL 'java.lang.Object'",
      "SELECT FILE_READ('/etc/hostname')",
      "SCRIPT TO '/tmp/tlogsim-h2-script.sql'",
      "CREATE USER intruder PASSWORD 'x' ADMIN",
      "DROP TABLE \"snapshot\"");

  private static List<String> probe(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), H2Probe.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    List<String> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) out.add(line);
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    return out;
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static Properties keys(JournalSettings s) throws Exception {
    Properties p = new Properties();
    p.load(Files.newBufferedReader(H2Keys.file(s)));
    return p;
  }

  @Test
  void aNewJournalAndTheDirectoriesMadeForItAreItsOwnersAlone() throws Exception {
    Path data = tmp.resolve("made/data");
    JournalSettings s = JournalSettings.of(JournalKind.H2, data);
    try (Journal j = Journal.openForWriting(s)) {
      assertTrue(j.settings().shared(), "a run shares the file");
      assertTrue(Files.exists(JournalDatabase.lockFile(s)), "its server is named in the lock file");
    }
    for (Path d : List.of(tmp.resolve("made"), data, data.resolve("journal"))) assertEquals("rwx------", mode(d), d.toString());
    List<Path> files;
    try (Stream<Path> f = Files.list(data.resolve("journal"))) {
      files = f.toList();
    }
    assertTrue(files.contains(s.h2File()) && files.contains(H2Keys.file(s)), files.toString());
    for (Path f : files) assertEquals("rw-------", mode(f), f.toString());
    Properties k = keys(s);
    assertTrue(k.getProperty("owner").matches("[0-9a-f]{48}") && k.getProperty("user").matches("[0-9a-f]{48}"));
    assertFalse(k.getProperty("owner").equals(k.getProperty("user")));
    Path other = tmp.resolve("other");
    try (Journal j = Journal.openForWriting(JournalSettings.of(JournalKind.H2, other))) {
      assertFalse(keys(JournalSettings.of(JournalKind.H2, other)).equals(k), "every journal has passwords of its own");
    }
  }

  @Test
  void whileARunHasTheJournalAnotherProcessGetsInOnlyWithItsPasswordAndRunsNoCodeThrough() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, tmp.resolve("data"));
    try (Journal j = Journal.openForWriting(s)) {
      String url = "jdbc:h2:file:" + s.location() + ";AUTO_SERVER=TRUE";
      assertEquals(List.of("REFUSED connection: Wrong user name or password [28000-232]"),
          probe("connect", url, "tlogsim", ""), "the user and password of earlier journals");
      assertEquals("REFUSED connection: Wrong user name or password [28000-232]",
          probe("connect", url, H2Keys.USER, "0123456789abcdef0123456789abcdef0123456789abcdef").get(0));
      List<String> sql = new ArrayList<>(List.of("SELECT COUNT(*) FROM tlogsim_journal"));
      sql.addAll(CODE_AND_FILES);
      List<String> in = new ArrayList<>(List.of("connect", url, H2Keys.USER, keys(s).getProperty("user")));
      in.addAll(sql);
      List<String> out = probe(in.toArray(String[]::new));
      assertEquals("CONNECTED", out.get(0), out.toString());
      assertEquals("RAN SELECT COUNT(*) FROM tlogsim_journal -> 1", out.get(1));
      for (int i = 2; i < out.size(); i++) assertTrue(out.get(i).startsWith("REFUSED "), out.get(i));
      assertEquals(sql.size() + 1, out.size(), out.toString());
      assertFalse(Files.exists(Path.of("/tmp/tlogsim-h2-script.sql")));
      // even the journal's owner loads no class by name: only AUTO_SERVER's own
      List<String> owner = probe("connect", url, H2Keys.OWNER, keys(s).getProperty("owner"),
          "CREATE ALIAS GP FOR 'java.lang.System.getProperty'");
      assertEquals("CONNECTED", owner.get(0), owner.toString());
      assertTrue(owner.get(1).startsWith("REFUSED") && owner.get(1).contains("java.lang.System"), owner.toString());
    }
  }

  @Test
  void aReaderAloneOpensTheFileWithoutAServerAndARunWaitsUntilItIsDone() throws Exception {
    Path data = tmp.resolve("data");
    JournalSettings s = JournalSettings.of(JournalKind.H2, data);
    try (Journal j = Journal.openForWriting(s)) {
      assertTrue(j.exists());
    }
    try (Journal j = Journal.openForReading(s)) {
      assertFalse(j.settings().shared());
      assertFalse(Files.exists(JournalDatabase.lockFile(s)), "no server, no lock file naming one");
    }
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), H2Probe.class.getName(), "hold", data.toString(), "4"));
    Process reader = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(reader.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("HOLDING false", r.readLine());
      long t0 = System.nanoTime();
      try (Journal j = Journal.openForWriting(s)) {
        assertTrue(j.exists());
      }
      long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals("RELEASED", r.readLine(), "the run got the file once the reader let it go");
      assertTrue(waitedMs >= 1000, "the run waited for the reader: " + waitedMs + " ms");
    } finally {
      reader.waitFor(60, TimeUnit.SECONDS);
    }
    // and a reader while a run has the file goes through the run's server
    try (Journal run = Journal.openForWriting(s)) {
      assertEquals(List.of("HOLDING true", "RELEASED"), probe("hold", data.toString(), "0"));
    }
  }

  @Test
  void aJournalOfAnEarlierTlogsimIsReadAsItIsAndGetsItsPasswordsWhenARunOpensIt() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, tmp.resolve("data"));
    Files.createDirectories(s.h2File().getParent());
    JournalDatabase.h2Properties();
    try (Connection c = JournalDatabase.connect(H2Keys.former().owner(s)); Statement st = c.createStatement()) {
      for (String q : JournalDatabase.split(JournalDatabase.resource("schema/h2/h2-create-schema.sql"))) st.execute(q);
      st.execute("CREATE TABLE tlogsim_journal (format INTEGER NOT NULL, created_by VARCHAR(255) NOT NULL)");
      st.execute("INSERT INTO tlogsim_journal VALUES (" + JournalDatabase.FORMAT + ", 'tlogsim')");
    }
    try (Journal j = Journal.openForReading(s)) {
      assertTrue(j.store().list().isEmpty());
    }
    assertFalse(Files.exists(H2Keys.file(s)), "reading writes nothing");
    try (Journal j = Journal.openForWriting(s)) {
      assertEquals(H2Keys.USER, j.settings().user());
    }
    assertTrue(Files.exists(H2Keys.file(s)));
    String url = "jdbc:h2:file:" + s.location();
    assertEquals(List.of("REFUSED connection: Wrong user name or password [28000-232]"),
        probe("connect", url, "tlogsim", ""));
    try (Journal j = Journal.openForReading(s)) {
      assertTrue(j.store().list().isEmpty(), "read with its new passwords");
    }
  }

  @Test
  void aReaderThatComesWhileARunMakesANewJournalWaitsForItsUsers() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, tmp.resolve("data"));
    Files.createDirectories(s.h2File().getParent());
    JournalDatabase.h2Properties();
    // a run's first steps (JournalDatabase.owned): its keys stored, the file created by its owner and shared; the
    // everyday user and the schema come a moment later
    H2Keys keys = H2Keys.planned().store(s);
    try (Connection owner = JournalDatabase.connect(keys.owner(s.withShared(true)))) {
      assertTrue(Files.exists(JournalDatabase.lockFile(s)));
      CompletableFuture<Void> made = CompletableFuture.runAsync(() -> {
        try (Statement st = owner.createStatement()) {
          Thread.sleep(1_500);
          for (String q : JournalDatabase.createStatements(JournalKind.H2)) st.execute(q);
          keys.grant(owner);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      long t0 = System.nanoTime();
      try (Journal j = Journal.openForReading(s)) { // not "unreadable": its users are on their way
        assertTrue(j.exists());
        assertTrue(j.store().list().isEmpty());
      } catch (RuntimeException e) {
        if (made.isCompletedExceptionally()) made.join(); // the "run" failed: that is the cause to see
        throw e;
      }
      assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) >= 1_000, "the reader waited for the run");
      made.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void keysStoredByARunThatDiedBeforeItMadeTheFileAreTheNextRunsAndAWrongKeyFileIsNamed() throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, tmp.resolve("data"));
    Files.createDirectories(s.h2File().getParent());
    H2Keys stored = H2Keys.planned().store(s); // and the run was killed before it created the journal
    assertFalse(Files.exists(s.h2File()));
    try (Journal j = Journal.openForWriting(s)) {
      assertTrue(j.exists(), "the next run makes the journal, with the keys stored");
    }
    try (Connection c = JournalDatabase.connect(stored.everyday(s))) {
      assertTrue(c.isValid(5));
    }
    // a key file that is not this journal's (copied from another): bad input naming it, not "unreadable, runs lost"
    Files.writeString(H2Keys.file(s), "owner=" + "ab".repeat(24) + "\nuser=" + "cd".repeat(24) + "\n");
    BadInputException e = assertThrows(BadInputException.class, () -> Journal.openForReading(s).close());
    assertTrue(e.getMessage().contains("its key file " + H2Keys.file(s) + " does not open it"), e.getMessage());
  }
}
