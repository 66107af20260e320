package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offline compaction ({@link RunDeletion#compact}, H2's SHUTDOWN COMPACT) over many cycles of what a journal lives
 * through: a run's rows written (many small, a few large: checkpoints), an earlier run deleted, the file compacted,
 * reopened and every row left read back and checked (its bytes' CRC). The compaction on close that corrupted files
 * ({@link H2JournalReopenTest}) stays off in every open; this is the other operation, run once per cycle here.
 */
class JournalCompactionTest {
  /** 40 in the build; more stand-alone: -Dcompaction.cycles=300 -Dcompaction.seed=1. */
  private static final int CYCLES = Integer.getInteger("compaction.cycles", 40);
  private static final long SEED = Long.getLong("compaction.seed", 42);

  @Test
  void compactionAfterDeletionsKeepsEveryRowLeftReadableOverManyCycles(@TempDir Path dir) throws SQLException {
    JournalSettings s = JournalSettings.of(JournalKind.H2, dir);
    JournalDatabase.h2Properties();
    try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE rows_written(id BIGINT AUTO_INCREMENT PRIMARY KEY, run INT, payload BYTEA)");
    }
    Random r = new Random(SEED);
    TreeMap<Integer, long[]> kept = new TreeMap<>(); // run -> {bytes, crc sum}
    long smallest = Long.MAX_VALUE;
    for (int run = 0; run < CYCLES; run++) {
      try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
          PreparedStatement insert = c.prepareStatement("INSERT INTO rows_written(run, payload) VALUES (?, ?)")) {
        long[] k = new long[2];
        int small = 20 + r.nextInt(200);
        for (int i = 0; i < small; i++) add(k, insert, run, new byte[200 + r.nextInt(4000)], r);
        for (int i = r.nextInt(3); i > 0; i--) add(k, insert, run, new byte[1 + r.nextInt(2_000_000)], r);
        kept.put(run, k);
      }
      if (kept.size() > 3 && r.nextBoolean()) { // a run deleted: one of the earlier ones
        List<Integer> runs = new ArrayList<>(kept.headMap(run).keySet());
        int gone = runs.get(r.nextInt(runs.size()));
        try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
            Statement st = c.createStatement()) {
          st.executeUpdate("DELETE FROM rows_written WHERE run = " + gone);
        }
        kept.remove(gone);
      }
      RunDeletion.Compacted done = RunDeletion.compact(s);
      assertTrue(done.after() > 0 && done.after() <= done.before() + (1 << 20), done.toString());
      smallest = Math.min(smallest, done.after());
      // reopening and reading everything is where a corrupted file shows
      try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
          PreparedStatement q = c.prepareStatement("SELECT run, payload FROM rows_written ORDER BY id");
          ResultSet rs = q.executeQuery()) {
        TreeMap<Integer, long[]> read = new TreeMap<>();
        while (rs.next()) {
          byte[] p = rs.getBytes(2);
          long[] k = read.computeIfAbsent(rs.getInt(1), x -> new long[2]);
          k[0] += p.length;
          k[1] += crc(p);
        }
        assertEquals(kept.keySet(), read.keySet(), "cycle " + run);
        for (int k : kept.keySet()) {
          assertEquals(kept.get(k)[0], read.get(k)[0], "bytes of run " + k + " at cycle " + run);
          assertEquals(kept.get(k)[1], read.get(k)[1], "CRC of run " + k + " at cycle " + run);
        }
      }
    }
    assertTrue(smallest > 0);
  }

  @Test
  void aJournalOpenInAnotherProcessIsNotCompacted(@TempDir Path dir) throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, dir);
    Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), HoldOpen.class.getName(), s.jdbcUrl(), s.user(), s.password())
        .redirectErrorStream(true).start();
    try {
      var out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream()));
      assertEquals("open", out.readLine());
      BadInputException e = org.junit.jupiter.api.Assertions.assertThrows(BadInputException.class,
          () -> RunDeletion.compact(s));
      assertTrue(e.getMessage().contains("is open in another process"), e.getMessage());
    } finally {
      holder.getOutputStream().close();
      assertTrue(holder.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
    }
    assertEquals(0, holder.exitValue(), "the other process used its database to the end");
    RunDeletion.compact(s); // once it is closed
  }

  private static void add(long[] k, PreparedStatement insert, int run, byte[] payload, Random r) throws SQLException {
    r.nextBytes(payload);
    insert.setInt(1, run);
    insert.setBytes(2, payload);
    insert.executeUpdate();
    k[0] += payload.length;
    k[1] += crc(payload);
  }

  private static long crc(byte[] b) {
    CRC32 c = new CRC32();
    c.update(b);
    return c.getValue();
  }
}
