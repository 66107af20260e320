package io.tlogsim.journal;

import io.tlogsim.engine.scenario.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The journal's database before Pekko touches it: checks that it is a tlogsim journal and creates the schema on first
 * use (the tables of pekko-persistence-jdbc and the {@code tlogsim_journal} row that marks the database as ours).
 *
 * <p>H2 takes the plugin's own script (schema/h2/h2-create-schema.sql in its jar). PostgreSQL takes
 * deploy/postgres/schema.sql, the script deploy/postgres/setup.sh applies too (the plugin's one creates its indexes
 * CONCURRENTLY, which cannot run in the one transaction that makes a half-created schema impossible).
 */
public final class JournalDatabase {
  /** The journal format this version writes and reads; a journal marked with another one is refused. */
  public static final int FORMAT = 1;
  static final String MARKER = "tlogsim_journal";
  /** The advisory lock's key while a PostgreSQL journal's schema is created (any constant; "tlog" in ASCII). */
  private static final long SCHEMA_LOCK = 0x746c6f67L;
  private static final String H2_SCRIPT = "schema/h2/h2-create-schema.sql";
  private static final String POSTGRES_SCRIPT = "io/tlogsim/journal/postgres/schema.sql";
  private static final List<String> PLUGIN_TABLES = List.of("event_journal", "event_tag", "snapshot");

  private JournalDatabase() {}

  /** What {@link #prepare} found. */
  public enum Found { CREATED, EXISTING, ABSENT }

  /**
   * Opens the journal's database and checks it. With {@code create}, an absent or empty database gets the schema;
   * without, nothing is written and an absent one is reported as {@link Found#ABSENT}. A database that is not a
   * tlogsim journal, or cannot be opened, is bad input (one line naming it).
   */
  public static Found prepare(JournalSettings s, boolean create) {
    Prepared p = open(s, create, false);
    return p.found();
  }

  /** What {@link #open} found, and the connection it kept open (null unless asked and the database exists). */
  record Prepared(Found found, Connection connection) {}

  /**
   * {@link #prepare}, keeping the connection open when {@code keep}: an embedded H2 database stays open while a
   * connection to it is, so the plugin's pool then finds it open instead of opening the file a second time.
   */
  static Prepared open(JournalSettings s, boolean create, boolean keep) {
    if (s.kind() == JournalKind.H2) {
      loopbackOnly();
      JournalUnreadable.checkFile(s);
      if (!Files.exists(s.h2File())) {
        if (!create) return new Prepared(Found.ABSENT, null);
        try {
          Files.createDirectories(s.h2File().getParent());
        } catch (IOException e) {
          throw new BadInputException(s.describe() + ": cannot create its directory (" + e + "); give --data DIR");
        }
      }
    }
    Connection c = null;
    try {
      c = connect(s);
      TreeSet<String> tables = tables(c);
      if (tables.contains(MARKER)) {
        checkOurs(s, c, tables);
        return kept(Found.EXISTING, c, keep);
      }
      boolean foreign = PLUGIN_TABLES.stream().anyMatch(tables::contains)
          || (s.kind() == JournalKind.H2 && !tables.isEmpty()); // an H2 file at our path holds only our tables
      if (foreign) {
        throw new BadInputException(s.describe() + ": is not a tlogsim journal (it holds tables "
            + String.join(", ", tables) + " but no " + MARKER + " mark); give another --data DIR or database");
      }
      if (!create) return kept(Found.ABSENT, c, false);
      if (createSchema(s, c)) return kept(Found.CREATED, c, keep);
      checkOurs(s, c, tables(c)); // another process made it while this one waited
      return kept(Found.EXISTING, c, keep);
    } catch (SQLException e) {
      close(c);
      throw JournalUnreadable.of(s, "cannot be opened as a tlogsim journal (" + oneLine(e.getMessage()) + ")");
    } catch (RuntimeException e) {
      close(c);
      throw e;
    }
  }

  private static Prepared kept(Found found, Connection c, boolean keep) {
    if (keep) return new Prepared(found, c);
    close(c);
    return new Prepared(found, null);
  }

  static void close(Connection c) {
    if (c == null) return;
    try {
      c.close();
    } catch (SQLException ignored) {
      // closing anyway
    }
  }

  /**
   * H2's AUTO_SERVER listens on every interface unless h2.bindAddress says otherwise; other processes of this machine
   * are the only ones that should reach the journal. Read once by H2, so it is set before H2's first use.
   */
  static void loopbackOnly() {
    if (System.getProperty("h2.bindAddress") == null) System.setProperty("h2.bindAddress", "127.0.0.1");
  }

  static Connection connect(JournalSettings s) throws SQLException {
    return DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
  }

  /** Lower-case names of the tables in the public schema. */
  private static TreeSet<String> tables(Connection c) throws SQLException {
    TreeSet<String> names = new TreeSet<>();
    DatabaseMetaData md = c.getMetaData();
    for (String schema : List.of("PUBLIC", "public")) {
      try (ResultSet rs = md.getTables(null, schema, "%", new String[] {"TABLE"})) {
        while (rs.next()) names.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** A database marked as ours: of this format, with every table of the plugin. */
  private static void checkOurs(JournalSettings s, Connection c, TreeSet<String> tables) throws SQLException {
    checkFormat(s, c);
    for (String t : PLUGIN_TABLES) {
      if (!tables.contains(t)) throw new BadInputException(s.describe() + ": is marked as a tlogsim journal but has"
          + " no table " + t + "; it was changed by something else");
    }
  }

  private static void checkFormat(JournalSettings s, Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT format FROM " + MARKER)) {
      if (!rs.next()) throw new BadInputException(s.describe() + ": its " + MARKER + " mark is empty");
      int format = rs.getInt(1);
      if (format != FORMAT) {
        throw new BadInputException(s.describe() + ": is a tlogsim journal of format " + format + "; this version"
            + " reads format " + FORMAT);
      }
    }
  }

  /**
   * Creates the schema in one transaction; false if another process created it first. On PostgreSQL, processes that
   * find the same database empty at once (a cluster's nodes started together) take turns on an advisory lock, else
   * all but one would fail on the catalog (duplicate key in pg_type). An H2 file has one owner (AUTO_SERVER).
   */
  private static boolean createSchema(JournalSettings s, Connection c) throws SQLException {
    List<String> statements = new ArrayList<>();
    if (s.kind() == JournalKind.H2) {
      statements.addAll(split(resource(H2_SCRIPT)));
      statements.add("CREATE TABLE IF NOT EXISTS " + MARKER + " (format INTEGER NOT NULL, created_by VARCHAR(255) NOT NULL)");
      statements.add("INSERT INTO " + MARKER + " (format, created_by) VALUES (" + FORMAT + ", 'tlogsim')");
    } else {
      statements.addAll(split(resource(POSTGRES_SCRIPT)));
    }
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try (Statement st = c.createStatement()) {
      if (s.kind() == JournalKind.POSTGRES) {
        st.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")"); // held until this transaction ends
        if (tables(c).contains(MARKER)) {
          c.commit();
          return false;
        }
      }
      for (String sql : statements) st.execute(sql);
      c.commit();
      return true;
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(auto);
    }
  }

  /** Statements of a script: separated by ';' at the end of a line; '--' comment lines dropped. */
  static List<String> split(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (String line : script.split("\n")) {
      String t = line.strip();
      if (t.startsWith("--")) continue;
      cur.append(line).append('\n');
      if (t.endsWith(";")) {
        String sql = cur.toString().strip();
        out.add(sql.substring(0, sql.length() - 1));
        cur.setLength(0);
      }
    }
    if (!cur.toString().isBlank()) out.add(cur.toString().strip());
    return out;
  }

  static String resource(String name) {
    try (InputStream in = JournalDatabase.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) throw new IllegalStateException("the journal schema " + name + " is missing from the class path");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name + ": " + e.getMessage(), e);
    }
  }

  static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }
}
