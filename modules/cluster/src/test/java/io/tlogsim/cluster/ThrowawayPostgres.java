package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.journal.RunStore;
import io.tlogsim.journal.TraceLevel;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL database of its own for one test (the server of deploy/postgres/setup.sh, or TLOGSIM_JDBC_URL), dropped
 * afterwards. Without a server the test is skipped, or fails when TLOGSIM_REQUIRE_POSTGRES=1 (as in CI).
 */
final class ThrowawayPostgres implements AutoCloseable {
  private static final String URL = env("TLOGSIM_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/tlogsim");
  private static final String USER = env("TLOGSIM_JDBC_USER", "tlogsim");
  private static final String PASSWORD = // as tlogsim finds it: TLOGSIM_JDBC_PASSWORD, else the password file setup.sh wrote
      JournalSettings.of(JournalKind.POSTGRES, java.nio.file.Path.of("data")).password();

  private final String database;

  private ThrowawayPostgres(String database) {
    this.database = database;
  }

  static ThrowawayPostgres create() {
    String db = "tlogsim_cluster_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 1_000_000;
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + db);
    } catch (SQLException e) {
      String why = "no PostgreSQL at " + URL + " as " + USER + " (" + e.getMessage().strip().replace('\n', ' ')
          + "); deploy/postgres/setup.sh starts one";
      if ("1".equals(System.getenv("TLOGSIM_REQUIRE_POSTGRES"))) fail(why);
      Assumptions.abort("skipped: " + why);
    }
    ThrowawayPostgres pg = new ThrowawayPostgres(db);
    // The journal's tables made here, as deploy/postgres/setup.sh makes them in its database (nodes started at once on
    // an empty one take turns creating them: PostgresJournalTest.processesThatFindTheDatabaseEmptyAtOnce...).
    try (Journal j = Journal.openForWriting(pg.settings())) {
      return pg;
    }
  }

  private JournalSettings settings() {
    return new JournalSettings(JournalKind.POSTGRES, url(), USER, PASSWORD, TraceLevel.SUMMARY, Duration.ofSeconds(2),
        200_000);
  }

  String url() {
    return URL.replaceFirst("/[^/?]*(\\?|$)", "/" + database + "$1");
  }

  /** The journal holds run {@code runId} completed, with {@code digest}. */
  void assertCompleted(String runId, String digest) {
    try (Journal j = Journal.openForReading(settings())) {
      RunStore.StoredRun run = j.store().load(runId);
      assertEquals(RunStatus.COMPLETED, run.status());
      assertEquals(digest, run.summary().get("digest"), "the journal's summary has the one-node digest");
    }
  }

  @Override
  public void close() throws SQLException {
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    }
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }
}
