package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL server of a test's own (initdb into a temporary directory, pg_ctl on a free port on 127.0.0.1), which the
 * test may stop and start again: the shared server of deploy/postgres/setup.sh must never be stopped (other tests use
 * it). It trusts connections from loopback (nothing else can reach it) and is removed when closed. Without
 * PostgreSQL's binaries (Debian's postgresql package) the test is skipped, or fails when TLOGSIM_REQUIRE_POSTGRES=1.
 */
final class OwnPostgresServer implements AutoCloseable {
  static final String USER = "tlogsim";
  static final String DATABASE = "tlogsim";

  private final Path bin;
  private final Path dir;
  private final int port;
  private final boolean asPostgres; // root runs the server as the postgres user (PostgreSQL refuses root)

  private OwnPostgresServer(Path bin, Path dir, int port, boolean asPostgres) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.asPostgres = asPostgres;
  }

  static OwnPostgresServer start() throws Exception {
    Path bin = binaries();
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory("tlogsim-pg-");
    OwnPostgresServer pg = new OwnPostgresServer(bin, dir, freePort(), root);
    try {
      if (root) pg.exec(List.of("chown", "-R", "postgres:postgres", dir.toString()), false);
      pg.exec(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
          "--auth=trust", "-E", "UTF8", "--no-sync"), true);
      pg.startAgain();
      try (Connection c = DriverManager.getConnection(pg.url("postgres"), USER, "");
          Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE " + DATABASE);
      }
      return pg;
    } catch (Exception | Error e) {
      pg.close();
      throw e;
    }
  }

  String url() {
    return url(DATABASE);
  }

  private String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** Stops the server (fast: connected clients are cut off, as when a database server goes down). */
  void stop() throws Exception {
    exec(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "fast", "-w",
        "stop"), true);
  }

  void startAgain() throws Exception {
    exec(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
        dir.resolve("server.log").toString(), "-w", "-o", "-p " + port + " -c listen_addresses=127.0.0.1 -k "
            + dir, "start"), true);
  }

  private void exec(List<String> command, boolean asServerUser) throws Exception {
    List<String> cmd = new ArrayList<>();
    if (asServerUser && asPostgres) cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
    cmd.addAll(command);
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
    }
  }

  private static Path binaries() throws IOException {
    Path lib = Path.of("/usr/lib/postgresql");
    List<Path> versions;
    try (Stream<Path> s = Files.isDirectory(lib) ? Files.list(lib) : Stream.empty()) {
      versions = s.filter(v -> Files.isExecutable(v.resolve("bin/pg_ctl"))).sorted(Comparator.reverseOrder()).toList();
    }
    if (versions.isEmpty()) {
      String why = "no PostgreSQL binaries under " + lib + " (apt-get install postgresql)";
      if ("1".equals(System.getenv("TLOGSIM_REQUIRE_POSTGRES"))) fail(why);
      Assumptions.abort("skipped: " + why);
    }
    return versions.get(0).resolve("bin");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (Files.exists(dir.resolve("data/postmaster.pid"))) stop();
    } catch (Exception ignored) {
      // removed anyway
    } finally {
      try (Stream<Path> s = Files.walk(dir)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Throws if the server does not answer (for tests that check it is down). */
  boolean answers() {
    try (Connection c = DriverManager.getConnection(url(), USER, "")) {
      return true;
    } catch (SQLException e) {
      return false;
    }
  }
}
