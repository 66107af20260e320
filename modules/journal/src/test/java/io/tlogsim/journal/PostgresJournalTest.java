package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.RunOutcome;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The journal on PostgreSQL (deploy/postgres/setup.sh starts one; .ci/run does, and sets TLOGSIM_REQUIRE_POSTGRES=1
 * so that these tests fail rather than skip there). Each test gets a database of its own, created empty and dropped
 * after, so the schema creation on first use is exercised every time.
 */
class PostgresJournalTest {
  static final String URL = env("TLOGSIM_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/tlogsim");
  static final String USER = env("TLOGSIM_JDBC_USER", "tlogsim");
  static final String PASSWORD = // as tlogsim finds it: TLOGSIM_JDBC_PASSWORD, else the password file setup.sh wrote
      JournalSettings.of(JournalKind.POSTGRES, java.nio.file.Path.of("data")).password();

  private String database;
  private JournalSettings settings;

  private static String env(String name, String dflt) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? dflt : v;
  }

  @BeforeEach
  void freshDatabase() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement st = c.createStatement()) {
      database = "tlogsim_test_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000;
      st.execute("CREATE DATABASE " + database);
    } catch (SQLException e) {
      String why = "no PostgreSQL at " + URL + " as " + USER + " (" + e.getMessage().strip().replace('\n', ' ')
          + "); deploy/postgres/setup.sh starts one";
      if ("1".equals(System.getenv("TLOGSIM_REQUIRE_POSTGRES"))) fail(why);
      Assumptions.abort("skipped: " + why);
    }
    String url = URL.replaceFirst("/[^/?]*(\\?|$)", "/" + database + "$1");
    settings = new JournalSettings(JournalKind.POSTGRES, url, USER, PASSWORD, TraceLevel.SUMMARY,
        Duration.ofSeconds(2), 200_000);
  }

  @AfterEach
  void dropDatabase() throws SQLException {
    if (database == null) return;
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }
  }

  @Test
  void anEmptyDatabaseGetsTheSchemaAndKeepsARunThatResumes() {
    assertEquals(JournalDatabase.Found.ABSENT, JournalDatabase.prepare(settings, false), "a reader creates nothing");
    Scenario s = Gcm1Fixture.scenario("sessions", "700", "simulatedSeconds", "0.03");
    RunOutcome whole = Gcm1Fixture.run(s, 4, 0, null, null);
    List<Checkpoint> cps = Gcm1Fixture.checkpoints(s, 4, 40);
    try (Journal j = Journal.openForWriting(settings)) {
      RunRecorder rec = RunRecorder.start(j, Gcm1Fixture.spec("pg-4", s, 4, TraceLevel.SUMMARY));
      rec.fact(0, 0, 0, new TestFacts.CommitsInInterval(0, 1000, 5));
      rec.checkpoint(cps.get(0));
      rec.interrupted("test");
    }
    assertEquals(JournalDatabase.Found.EXISTING, JournalDatabase.prepare(settings, false));
    try (Journal j = Journal.openForWriting(settings)) {
      RunState st = j.store().resumable("pg-4");
      Checkpoint from = j.store().lastCheckpoint("pg-4", st);
      RunRecorder rec = RunRecorder.resume(j, "pg-4", from.window());
      RunOutcome resumed = Gcm1Fixture.run(s, 4, 0, null, from);
      assertEquals(whole.digestHex(), resumed.digestHex());
      rec.completed(resumed, Map.of("digest", resumed.digestHex()));
    }
    try (Journal j = Journal.openForReading(settings)) {
      RunStore.StoredRun run = j.store().load("pg-4");
      assertEquals(RunStatus.COMPLETED, run.status());
      assertEquals(whole.digest(), run.outcome().digest());
      assertEquals(1, run.facts().size());
      assertEquals(1, j.store().list().size());
    }
  }

  @Test
  void factsStreamAsTheyLoadAndAsTheRecorderCounted() {
    StoredFactsTest.theStreamIsTheLoadAndTheCount(settings);
  }

  @Test
  void processesThatFindTheDatabaseEmptyAtOnceTakeTurnsAndOneCreatesTheSchema() throws Exception {
    int n = 4; // a cluster's nodes started together
    CyclicBarrier together = new CyclicBarrier(n);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<JournalDatabase.Found>> found = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        found.add(pool.submit(() -> {
          together.await();
          return JournalDatabase.prepare(settings, true);
        }));
      }
      List<JournalDatabase.Found> got = new ArrayList<>();
      for (var f : found) got.add(f.get()); // without the lock, all but one failed here (duplicate key in pg_type)
      assertEquals(1, got.stream().filter(f -> f == JournalDatabase.Found.CREATED).count(), got.toString());
      assertEquals(n - 1, got.stream().filter(f -> f == JournalDatabase.Found.EXISTING).count(), got.toString());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDatabaseWithAnotherPekkoJournalIsRefused() throws SQLException {
    try (Connection c = DriverManager.getConnection(settings.jdbcUrl(), USER, PASSWORD);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE event_journal (ordering BIGSERIAL, persistence_id VARCHAR(255))");
    }
    BadInputException e = assertThrows(BadInputException.class, () -> Journal.openForWriting(settings));
    assertTrue(e.getMessage().contains("is not a tlogsim journal"), e.getMessage());
  }
}
