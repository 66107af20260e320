package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tlogsim.analysis.calibrate.PostgresCalibration;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.Scenario;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * calibrate-postgres against the PostgreSQL of deploy/postgres/setup.sh (as the journal's tests: a database of its own,
 * dropped after; skipped where none runs, failed instead with TLOGSIM_REQUIRE_POSTGRES=1): it measures through libpq's
 * variables, writes a pg-commit scenario that loads, and drops its table.
 */
class CalibratePostgresTest {
  @TempDir
  Path tmp;

  private static final String HOST = env("PGHOST", "127.0.0.1");
  private static final String PORT = env("PGPORT", "5432");
  private static final String USER = env("TLOGSIM_JDBC_USER", "tlogsim");
  // the password as tlogsim finds it (docs/security.md): TLOGSIM_JDBC_PASSWORD, else the file setup.sh wrote
  // (PGPASSFILE, else ~/.config/tlogsim/pgpass, else ~/.pgpass), which psql and pgbench read themselves
  private static final String GIVEN_PASSWORD = System.getenv("TLOGSIM_JDBC_PASSWORD");
  private static final Path PASSFILE = passFile();
  private static final String PASSWORD = GIVEN_PASSWORD != null && !GIVEN_PASSWORD.isBlank() ? GIVEN_PASSWORD
      : storedPassword();

  private static Path passFile() {
    String env = System.getenv("PGPASSFILE");
    if (env != null && !env.isBlank()) return Path.of(env);
    String xdg = System.getenv("XDG_CONFIG_HOME");
    Path ours = (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config"))
        .resolve("tlogsim/pgpass");
    return Files.isRegularFile(ours) ? ours : Path.of(System.getProperty("user.home"), ".pgpass");
  }

  /** This host, port and user's password in the password file, or "" (none: the server then refuses, said so). */
  private static String storedPassword() {
    try {
      for (String line : Files.readAllLines(PASSFILE)) {
        String[] f = line.split(":", -1);
        if (f.length == 5 && (f[0].equals(HOST) || f[0].equals("*")) && (f[1].equals(PORT) || f[1].equals("*"))
            && (f[3].equals(USER) || f[3].equals("*"))) {
          return f[4];
        }
      }
    } catch (java.io.IOException e) {
      // no file: no password
    }
    return "";
  }

  /** libpq's variables for the password: PGPASSWORD when one was given, else the password file. */
  private static Map<String, String> passwordEnv() {
    return GIVEN_PASSWORD != null && !GIVEN_PASSWORD.isBlank() ? Map.of("PGPASSWORD", GIVEN_PASSWORD)
        : Map.of("PGPASSFILE", PASSFILE.toString());
  }

  private static String env(String name, String dflt) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? dflt : v;
  }

  /** psql as the test's user, in database {@code db}: exit code and output. */
  private static List<String> psql(String db, String sql) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", HOST, "-p", PORT,
        "-U", USER, "-d", db, "-c", sql).redirectErrorStream(true);
    pb.environment().putAll(passwordEnv());
    Process p;
    try {
      p = pb.start();
    } catch (java.io.IOException e) {
      return List.of("1", "psql not found: " + e.getMessage());
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return List.of(Integer.toString(p.exitValue()), out.strip());
  }

  @Test
  void measuresThroughLibpqVariablesAndWritesAPgCommitScenario() throws Exception {
    String db = "tlogsim_test_pgcal_" + ProcessHandle.current().pid();
    List<String> made = psql("postgres", "CREATE DATABASE " + db);
    if (!made.get(0).equals("0")) {
      String why = "no PostgreSQL at " + HOST + ":" + PORT + " as " + USER + " (" + made.get(1).replace('\n', ' ')
          + "); deploy/postgres/setup.sh starts one";
      if ("1".equals(System.getenv("TLOGSIM_REQUIRE_POSTGRES"))) fail(why);
      Assumptions.abort("skipped: " + why);
    }
    try {
      Path out = tmp.resolve("pg.conf");
      Path wal = Files.createDirectory(tmp.resolve("wal"));
      // libpq's variables reach psql and pgbench through the command's environment: the command runs in a JVM of
      // its own that has them
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "io.tlogsim.cli.Tlogsim", "calibrate-postgres", "--seconds",
          "1", "--fsync-seconds", "1", "--clients", "1,2", "--wal-dir", wal.toString(), "--out", out.toString()));
      // where the server's processes are not visible (a user without pg_read_all_stats, as setup.sh's, a CI sandbox,
      // a server in another container), the command asks for its cores: both ways are a user's
      List<String> ckpt = psql(db, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
      boolean visible = ckpt.get(1).matches("[0-9]+") && Files.exists(Path.of("/proc", ckpt.get(1), "stat"));
      // .ci/run runs this test a second time with pg_read_all_stats granted: the visible path, per-core pg_test_fsync
      if ("1".equals(System.getenv("TLOGSIM_PG_PROCESSES_VISIBLE"))) {
        assertTrue(visible, "TLOGSIM_PG_PROCESSES_VISIBLE=1, but the checkpointer is not visible to " + USER + ": "
            + ckpt);
      }
      if (!visible) cmd.addAll(List.of("--cores", "1"));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      pb.environment().putAll(Map.of("PGHOST", HOST, "PGPORT", PORT, "PGUSER", USER, "PGDATABASE", db));
      pb.environment().putAll(passwordEnv());
      Process p = pb.start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(300, TimeUnit.SECONDS), "finished");
      assertEquals(0, p.exitValue(), text);
      assertFalse(text.contains("PGPASSWORD"), "no secret printed");
      if (!PASSWORD.isEmpty() && !USER.contains(PASSWORD) && !"tlogsim".contains(PASSWORD)) { // else a word of it
        assertFalse(text.contains(PASSWORD), "no secret printed");
      }
      assertEquals(!visible, text.contains("processes are not visible"), text);
      // hidden from this user, the note says how to see them
      assertEquals(ckpt.get(1).isEmpty(), text.contains("GRANT pg_read_all_stats"), text);
      String conf = Files.readString(out);
      for (String key : List.of("kind = pg-commit", "fsyncUs = ", "cpuPerTxnUs = ", "roundTripUs = ", "cores = ")) {
        assertTrue(conf.contains(key), key + " in:\n" + conf);
      }
      assertFalse(Files.exists(wal.resolve("tlogsim-pg_test_fsync.tmp")), "pg_test_fsync's file is deleted");
      Scenario s = ScenarioKinds.loader().load(out.toString(), Map.of());
      assertEquals("pg-commit", s.kind().name());
      assertTrue(s.params().getDouble("fsyncUs") > 0 && s.params().getDouble("cpuPerTxnUs") > 0, conf);
      // one client among the counts and the server's CPU measured: that client's own CPU per transaction and the
      // CPU of a backend's sleep are set, as the judged model takes them (docs/commit-path-host-costs.md 10.2)
      assertEquals(visible, s.params().getDouble("cpuPerTxnUsOneClient") > 0, conf);
      // without --host-profile it is written commented out: it stands for the profile's sleep figures
      assertEquals(visible, conf.contains("\n# sessionSleepCpuUs = "), conf);
      assertEquals(0.0, s.params().getDouble("sessionSleepCpuUs"), conf);
      assertEquals(visible, conf.contains("# the same with INSERT then SELECT pg_sleep(0)"), conf);
      assertEquals(!visible, text.contains("sessionSleepCpuUs not measured"), text);
      assertTrue(conf.contains("# host = \"profile:NAME\""), "no --host-profile: how to add one\n" + conf);
      if (visible) assertEquals(2, s.params().getInt("cpuPerTxnUsClients"), "--clients 1,2: measured at 2\n" + conf);
      // a server on several cores: pg_test_fsync from each alone (with taskset, util-linux's), fsyncUs their mean
      boolean eachCore = visible && cpusAllowed(Path.of("/proc", ckpt.get(1), "status")) > 1
          && cpusAllowed(Path.of("/proc/self/status")) > 1 && Files.isExecutable(Path.of("/usr/bin/taskset"));
      assertEquals(eachCore, conf.contains("from each of the server's cores alone: core "), conf);
      assertEquals(eachCore, text.contains(" from core "), text);
      assertEquals(!visible, text.contains("pg_test_fsync ran once, on this process's cores"), text);
      assertEquals(List.of("0", ""), psql(db, "SELECT relname FROM pg_class WHERE relname LIKE 'tlogsim_calibrate_%'"),
          "its table is dropped");
    } finally {
      psql("postgres", "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
    }
  }

  /** How many cores a process may run on (its status's Cpus_allowed_list: "0-1", "0,2"). */
  private static int cpusAllowed(Path status) throws java.io.IOException {
    for (String line : Files.readAllLines(status)) {
      if (!line.startsWith("Cpus_allowed_list:")) continue;
      int n = 0;
      for (String part : line.substring(line.indexOf(':') + 1).strip().split(",")) {
        String[] ends = part.split("-");
        n += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
      }
      return n;
    }
    throw new AssertionError(status + " has no Cpus_allowed_list");
  }

  private static final List<PostgresCalibration.Fsync> ONCE = List.of(new PostgresCalibration.Fsync("0-1", 150.0));

  @Test
  void theJudgedModelsInputsAreWrittenAndLoad() throws Exception {
    // no server: the scenario file written from measured runs (1 and 64 clients, then pg_sleep(0) and pg_sleep(0.001)
    // at 64, the CPU measured), naming a host profile
    Path profile = tmp.resolve("db1.conf");
    Files.writeString(profile, "profile {\n  hostWakeCpuUs = 5.5\n  hostSleepCpuUs = 7.0\n}\n");
    var r = new PostgresCalibration.Result("127.0.0.1:5432", "15", "fdatasync", tmp, ONCE, 2, "nproc", true,
        List.of(new PostgresCalibration.Run(1, 16_000, 160_000, 0.06, 7.0, 3.0),
            new PostgresCalibration.Run(64, 20_000, 200_000, 3.2, 16.0, 4.0)),
        List.of(new PostgresCalibration.Run(64, 18_000, 180_000, 3.5, 16.0, 4.0),
            new PostgresCalibration.Run(64, 15_000, 150_000, 4.2, 17.0, 4.0)), List.of());
    String conf = CalibratePostgresCommand.render("unit", r, profile.toString());
    Path as = tmp.resolve("as-written.conf");
    Files.writeString(as, conf);
    Scenario s = ScenarioKinds.loader().load(as.toString(), Map.of());
    assertEquals(100.0, s.params().getDouble("cpuPerTxnUs"), 1e-9, conf);          // (16 + 4) s / 200,000
    assertEquals(62.5, s.params().getDouble("cpuPerTxnUsOneClient"), 1e-9, conf);  // (7 + 3) s / 160,000
    assertEquals(64, s.params().getInt("cpuPerTxnUsClients"), conf);
    // (17 + 4) s / 150,000 less (16 + 4) s / 180,000: 140 - 111.1 us
    assertEquals(140.0 - 20e6 / 180_000, s.params().getDouble("sessionSleepCpuUs"), 1e-3, conf);
    assertEquals(5.5, s.params().getDouble("hostWakeCpuUs"), 1e-9, "the host profile's figures are the run's\n" + conf);
    // without a host profile: none set, nor the engine's sleep (it stands for the profile's sleep figures), and the
    // file says how to add both
    String none = CalibratePostgresCommand.render("unit", r, null);
    Files.writeString(as, none);
    Scenario t = ScenarioKinds.loader().load(as.toString(), Map.of());
    assertEquals(0.0, t.params().getDouble("hostWakeCpuUs"), none);
    assertEquals(0.0, t.params().getDouble("sessionSleepCpuUs"), none);
    assertTrue(none.contains("# host = \"profile:NAME\"") && none.contains("# sessionSleepCpuUs = "), none);
    // a profile whose path needs quoting in HOCON loads too
    Path odd = Files.createDirectory(tmp.resolve("a \"quoted\" dir"));
    Path oddProfile = Files.copy(profile, odd.resolve("db1.conf"));
    Files.writeString(as, CalibratePostgresCommand.render("unit", r, oddProfile.toString()));
    assertEquals(5.5, ScenarioKinds.loader().load(as.toString(), Map.of()).params().getDouble("hostWakeCpuUs"), 1e-9);
    // a sleep that cost less CPU than none (a host slowing during the first run) is written as 0, not negative
    var cheaper = new PostgresCalibration.Result("h", "15", "fdatasync", tmp, ONCE, 2, "nproc", true, r.runs(),
        List.of(r.sleepRuns().get(1), r.sleepRuns().get(0)), List.of());
    assertEquals(0.0, cheaper.sessionSleepCpuUs());
    // pg_test_fsync from each of the server's cores alone: fsyncUs is their mean, each written beside it
    var eachCore = new PostgresCalibration.Result("h", "15", "fdatasync", tmp, List.of(
        new PostgresCalibration.Fsync("0", 136.0), new PostgresCalibration.Fsync("1", 98.0)), 2, "nproc", true,
        r.runs(), r.sleepRuns(), List.of());
    String cores = CalibratePostgresCommand.render("unit", eachCore, profile.toString());
    Files.writeString(as, cores);
    assertEquals(117.0, ScenarioKinds.loader().load(as.toString(), Map.of()).params().getDouble("fsyncUs"), 1e-9, cores);
    assertTrue(cores.contains("from each of the server's cores alone: core 0 136.0 us, core 1 98.0 us"), cores);
    assertTrue(conf.contains("one 8kB write, on cores 0-1"), "measured once: where\n" + conf);
    assertTrue(cores.contains("one 8kB write: the mean over the server's cores"), cores);
  }

  @Test
  void badOptionsExitTwoWithOneLineWritingNothing() {
    Path out = tmp.resolve("x.conf");
    for (String[] argv : List.of(new String[] {"--seconds", "0"}, new String[] {"--clients", "0"},
        new String[] {"--fsync-seconds", "99"}, new String[] {"--wal-dir", tmp.resolve("none").toString()},
        new String[] {"--cores", "0"}, new String[] {"--host-profile", "no-such-host"},
        new String[] {"--host-profile", ""})) {
      List<String> args = new ArrayList<>(List.of("calibrate-postgres", "--out", out.toString()));
      args.addAll(List.of(argv));
      TlogsimTest.Result r = TlogsimTest.tlogsim(args.toArray(new String[0]));
      String e = r.err().strip();
      assertEquals(2, r.code(), String.join(" ", argv) + ": " + e);
      assertEquals(1, e.lines().count(), e);
      assertTrue(e.contains(argv[0]), e);
    }
    assertFalse(Files.exists(out));
  }
}
