package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tlogsim run ... --show onstat,waits,filestats}: the tables DBAs know, after the summary. */
class ShowTablesTest {
  @TempDir
  Path tmp;

  @Test
  void theThreeTablesFollowTheSummary() throws Exception {
    Path f = tmp.resolve("small.conf");
    Files.writeString(f, "kind = informix\ndescription = \"small\"\nscript = [{ step = update, rows = 300,"
        + " commitEvery = 100 }]\n");
    TlogsimTest.Result r = tlogsim("run", f.toString(), "--out", tmp.resolve("out").toString(), "--show",
        "onstat,waits,filestats");
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    assertTrue(out.contains("Logical Logging"), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("Buffer bufused  bufsize  numrecs")), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("\\s+L-1\\s+0\\s+64\\s+306\\s+12\\s+3\\s+25\\.5\\s+4\\.0")), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("WRITELOG\\s+3\\s+.*")), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("file_id type  name  num_of_reads")), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("2\\s+LOG\\s+log\\s+0\\s+0\\s+0\\.0\\s+3\\s+24576\\s+.*")), out);
  }

  @Test
  void theReadPathShowsTheBackupsMessagesAndTheErrorLogInVirtualTime() throws Exception {
    Path f = tmp.resolve("crash.conf");
    Files.writeString(f, "kind = read-path\ndescription = \"crash\"\nfullBackupTaken = true\nscript = ["
        + "{ step = large-update, rows = 2000 }, { step = backup-log }, { step = large-update, rows = 2000,"
        + " commit = false }, { step = crash }]\n");
    TlogsimTest.Result r = tlogsim("run", f.toString(), "--out", tmp.resolve("rp").toString(), "--show",
        "messages,errorlog");
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    assertTrue(out.lines().anyMatch(l -> l.matches("\\s+[0-9.]+ s  100 percent processed\\.")), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("\\s+[0-9.]+ s  BACKUP LOG successfully processed \\d+ pages in"
        + " [0-9.]+ seconds \\([0-9.]+ MB/sec\\)\\.")), out);
    assertTrue(out.contains("Recovery of database 'db' (5) is 0% complete (approximately"), out);
    assertTrue(out.contains("1 transactions rolled back in database 'db'"), out);
    assertTrue(out.lines().anyMatch(l -> l.matches(".*Recovery completed for database db \\(database ID 5\\) in \\d+"
        + " second\\(s\\) \\(analysis \\d+ ms, redo \\d+ ms, undo \\d+ ms\\.\\).*")), out);
  }

  @Test
  void anUnknownTableIsBadInputBeforeAnythingRuns() {
    TlogsimTest.Result r = tlogsim("run", "gcm1", "--out", tmp.resolve("no").toString(), "--show", "onstat,iostat");
    assertEquals(2, r.code());
    assertEquals("tlogsim: --show iostat: unknown table; allowed: onstat, waits, filestats, layouts, loginfo,"
        + " logspace, messages, errorlog, sweep, vlfrules", r.err().strip());
    assertFalse(Files.exists(tmp.resolve("no")));
  }

  @Test
  void aKindWithoutTheTableSaysSo() {
    TlogsimTest.Result r = tlogsim("run", "gcm1", "--set", "sessions=10", "--set", "simulatedSeconds=0.01",
        "--out", tmp.resolve("g").toString(), "--show", "onstat");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("onstat: not kept by kind gcm1"), r.out());
  }
}
