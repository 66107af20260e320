package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
import java.util.stream.Stream;
import org.h2.engine.SessionRemote;
import org.h2.jdbc.JdbcConnection;

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

  /**
   * What {@link #open} found, the connection it kept open (null unless asked and the database exists), and the
   * settings it connected with (H2: its users and passwords, and whether the file is shared), which the plugin's
   * connections must use too.
   */
  record Prepared(Found found, Connection connection, JournalSettings settings) {}

  /**
   * {@link #prepare}, keeping the connection open when {@code keep}: an embedded H2 database stays open while a
   * connection to it is, so the plugin's pool then finds it open instead of opening the file a second time.
   */
  static Prepared open(JournalSettings s, boolean create, boolean keep) {
    return open(s, create, keep, null);
  }

  /**
   * As {@link #open(JournalSettings, boolean, boolean)}; {@code plan}: the passwords a new H2 journal (or an earlier
   * tlogsim's) is given, if no other process stored its own first (null: new ones).
   */
  static Prepared open(JournalSettings s, boolean create, boolean keep, H2Keys plan) {
    boolean created = false;
    if (s.kind() == JournalKind.H2) {
      h2Properties();
      JournalUnreadable.checkFile(s); // a 0-byte file, or one missing that the ledger says held runs: never made anew
      boolean exists = Files.exists(s.h2File());
      if (!exists && !create) return new Prepared(Found.ABSENT, null, s);
      // a run lets other processes share the file (tlogsim runs meanwhile); a reader opens it alone, or through the
      // server of the process that has it; a file on read-only media is opened read-only, unshared (onReadOnlyMedia)
      s = s.withShared(create || Files.exists(lockFile(s)));
      try {
        if (!exists) PrivateFiles.createDirectories(s.h2File().getParent());
      } catch (IOException e) {
        throw new BadInputException(s.describe() + ": cannot create its directory (" + e + "); give --data DIR");
      }
      if (create) removeStrays(s);
      H2Keys keys = H2Keys.find(s);
      // keys stored but no file: a process that stored them died before it made the file, or is making it aside
      if (create && (keys.state != H2Keys.State.STORED || !exists)) {
        try {
          Owned o = owned(s, plan != null ? plan : H2Keys.planned(), exists);
          keys = o.keys();
          created = o.created();
        } catch (SQLException e) {
          throw JournalUnreadable.of(s, "cannot be opened as a tlogsim journal (" + oneLine(e.getMessage()) + ")");
        }
      }
      s = keys.everyday(s);
    }
    Connection c = null;
    try {
      if (s.kind() == JournalKind.H2) {
        H2Open o;
        try {
          o = connectH2(s);
        } catch (SQLException e) {
          if (e.getErrorCode() != WRONG_USER_OR_PASSWORD || !H2Keys.USER.equals(s.user())) throw e;
          if (create) { // keys stored by a process that died before it gave them to the journal: a run gives them
            H2Keys stored = H2Keys.find(s);
            stored.grantAsFormerOwner(s);
            o = connectH2(stored.everyday(s));
          } else {
            o = connectAsReader(s);
            if (o == null) return new Prepared(Found.ABSENT, null, s); // half-made, its everyday user not made yet
          }
        }
        c = o.connection();
        s = o.settings();
      } else {
        c = connect(s);
      }
      TreeSet<String> tables = tables(c);
      if (s.kind() == JournalKind.H2 && Files.exists(H2Keys.file(s)) && halfMade(c, tables)) {
        // a journal an earlier tlogsim is making in place (its keys are stored first, and H2 commits each statement
        // of a schema), or one whose run was killed while it made it: nothing is recorded in it. Without a key file
        // it may be anyone's (an earlier tlogsim had none): refused below.
        if (!create) return kept(Found.ABSENT, c, false, s);
        Made m = madeOrFinished(s, c);
        c = m.connection();
        created = m.finishedHere();
        tables = tables(c);
      }
      if (tables.contains(MARKER)) {
        checkOurs(s, c, tables);
        return kept(created ? Found.CREATED : Found.EXISTING, c, keep, s);
      }
      boolean foreign = PLUGIN_TABLES.stream().anyMatch(tables::contains)
          || (s.kind() == JournalKind.H2 && !tables.isEmpty()); // an H2 file at our path holds only our tables
      if (foreign) {
        throw new BadInputException(s.describe() + ": is not a tlogsim journal (it holds tables "
            + String.join(", ", tables) + " but no " + MARKER + " mark); give another --data DIR or database");
      }
      if (!create) return kept(Found.ABSENT, c, false, s);
      if (s.kind() == JournalKind.H2) { // an H2 journal gets its schema from its owner (owned, finish), never here
        throw new BadInputException(s.describe() + ": has no tables and no key file beside it; remove it, or give"
            + " another --data DIR");
      }
      if (createSchema(s, c)) return kept(Found.CREATED, c, keep, s);
      checkOurs(s, c, tables(c)); // another process made it while this one waited
      return kept(Found.EXISTING, c, keep, s);
    } catch (SQLException e) {
      close(c);
      boolean noPassword = s.kind() == JournalKind.POSTGRES && s.password().isEmpty()
          && !s.location().matches("(?i).*[?&]password=.*");
      throw JournalUnreadable.of(s, "cannot be opened as a tlogsim journal (" + oneLine(e.getMessage()) + ")"
          + (noPassword ? "; no password was found: TLOGSIM_JDBC_PASSWORD, or a password file (PGPASSFILE,"
          + " ~/.config/tlogsim/pgpass that deploy/postgres/setup.sh writes)" : ""));
    } catch (RuntimeException e) {
      close(c);
      throw e;
    }
  }

  private record Owned(H2Keys keys, boolean created) {}

  /**
   * As the H2 journal's owner, for a run: a new journal is made aside ({@link #madeAside}); an existing empty database
   * gets its schema, and a journal of an earlier tlogsim (whose owner has no password) its passwords, {@code plan}
   * unless another process stored its own first; both get the everyday user. The passwords are stored before the
   * database has them (one whose passwords were lost could not be opened), and a database is created by its owner,
   * never by the everyday user. A database that is not a journal is left as it is (the everyday checks then say what
   * it is). Runs do this in turn ({@link #inTurn}): without hard links, storing the keys is not atomic.
   */
  private static Owned owned(JournalSettings s, H2Keys plan, boolean exists) throws SQLException {
    synchronized (MAKING) { // a FileLock is the process's: its threads take turns here
      try (FileChannel making = makingFile(s); FileLock turn = inTurn(s, making)) {
        return exists ? givenKeys(s, plan) : madeAside(s, plan);
      } catch (IOException e) {
        throw new BadInputException(s.describe() + ": cannot make it (" + e + "); give another --data DIR");
      }
    }
  }

  /** An existing journal's part of {@link #owned}: an empty database's schema, an earlier tlogsim's passwords. */
  private static Owned givenKeys(JournalSettings s, H2Keys plan) throws SQLException {
    H2Keys keys = H2Keys.former();
    Connection c;
    try {
      c = connect(keys.owner(s));
    } catch (SQLException e) {
      if (e.getErrorCode() != WRONG_USER_OR_PASSWORD) throw e;
      return new Owned(H2Keys.find(s), false); // another process gave it its passwords meanwhile (or it is not ours)
    }
    try {
      c.setAutoCommit(false);
      TreeSet<String> tables = tables(c);
      boolean empty = tables.isEmpty();
      if (!empty && !tables.contains(MARKER)) return new Owned(keys, false);
      keys = plan.store(s);
      if (empty) {
        try (Statement st = c.createStatement()) {
          for (String sql : createStatements(JournalKind.H2)) st.execute(sql);
        }
      }
      keys.grant(c);
      c.commit();
      return new Owned(keys, empty);
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      close(c);
    }
  }

  /** What a new journal's file is named while it is made aside: the journal's name, this, and 8 hex digits. */
  static final String ASIDE = ".new-";
  /** A file made aside that is older than this was left by a run killed while it made it (making takes a second). */
  private static final long STRAY_AFTER_MS = 10 * 60_000;
  /** Called once a journal made aside has its schema and users, before it is written: tests kill a run there. */
  static volatile Runnable madeAsideHook = () -> {};
  private static final Object MAKING = new Object();

  /**
   * A new H2 journal, made whole aside (a file of its own beside the journal's place, that no other process opens) and
   * then linked into its place, so a run killed while it makes it leaves no journal, never part of one: H2 writes a new
   * file's users only when it first stores it, and a file killed before that is a new database to H2, whose first user
   * to connect becomes its admin. Runs making one take turns ({@link #owned}): one makes it, the others find it made
   * (with the same stored keys). An earlier tlogsim made it in place ({@link #halfMade}).
   */
  private static Owned madeAside(JournalSettings s, H2Keys plan) throws SQLException {
    H2Keys keys = plan.store(s); // in turn too: without hard links, storing them is not atomic
    if (Files.exists(s.h2File())) return new Owned(keys, false); // made by the run before this one's turn
    JournalSettings aside = s.withLocation(s.location() + ASIDE + H2Keys.random().substring(0, 8)).withShared(false);
    try {
      // connecting creates the file, its owner its admin
      try (Connection c = connect(keys.owner(aside)); Statement st = c.createStatement()) {
        c.setAutoCommit(false);
        for (String sql : createStatements(JournalKind.H2)) st.execute(sql);
        keys.grant(c);
        c.commit();
        madeAsideHook.run();
        // written and synced before it is linked; H2 only logs what fails when it closes the database
        st.execute("CHECKPOINT SYNC");
      }
      return new Owned(keys, linked(s, aside.h2File()));
    } finally {
      removeAside(aside.location());
    }
  }

  /** The file runs making a new journal lock in turn ({@code tlogsim.making}, beside it, empty). */
  private static FileChannel makingFile(JournalSettings s) throws IOException {
    Path f = Path.of(s.location() + ".making");
    if (!Files.exists(f)) {
      try {
        PrivateFiles.createFile(f);
      } catch (FileAlreadyExistsException another) {
        // made by another run this moment
      }
    }
    return FileChannel.open(f, StandardOpenOption.WRITE);
  }

  /** This run's turn on {@code making}, waited for {@link #IN_USE_WAIT_MS} (a run making a journal takes a second). */
  private static FileLock inTurn(JournalSettings s, FileChannel making) throws IOException {
    long deadline = System.currentTimeMillis() + IN_USE_WAIT_MS;
    while (true) {
      FileLock turn = making.tryLock();
      if (turn != null) return turn;
      if (System.currentTimeMillis() > deadline) {
        throw new BadInputException(s.describe() + ": another process has been making it for " + IN_USE_WAIT_MS / 1000
            + " s (it holds " + s.location() + ".making); try again when it ends");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for " + s.location() + ".making");
      }
    }
  }

  /** Links the whole journal {@code made} into {@code s}'s place (a run's turn: no other is making it). */
  private static boolean linked(JournalSettings s, Path made) {
    try {
      return PrivateFiles.placeNew(s.h2File(), made); // false: an earlier tlogsim made it in place meanwhile
    } catch (IOException e) {
      if (Files.exists(s.h2File())) return false;
      throw new BadInputException(s.describe() + ": cannot put the new journal " + made + " in its place (" + e
          + "); give another --data DIR");
    }
  }

  /** Removes the files of one journal made aside: the database, and H2's lock and trace files. */
  private static void removeAside(String location) {
    for (String suffix : List.of(".mv.db", ".lock.db", ".trace.db")) {
      try {
        Files.deleteIfExists(Path.of(location + suffix));
      } catch (IOException ignored) {
        // a stray of mode 0600 in a 0700 directory, removed by a later run (removeStrays)
      }
    }
  }

  /**
   * Removes the journals made aside that runs killed while making them left beside this one: those older than
   * {@link #STRAY_AFTER_MS}, and a second name of the journal itself (a run killed between linking and removing it).
   */
  private static void removeStrays(JournalSettings s) {
    Path dir = s.h2File().getParent();
    if (!Files.isDirectory(dir)) return;
    String prefix = Path.of(s.location()).getFileName() + ASIDE;
    long before = System.currentTimeMillis() - STRAY_AFTER_MS;
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(f -> f.getFileName().toString().startsWith(prefix) && f.toString().endsWith(".mv.db"))
          .filter(f -> lastModifiedMs(f) < before || sameFile(f, s.h2File()))
          .forEach(f -> removeAside(f.toString().substring(0, f.toString().length() - ".mv.db".length())));
    } catch (IOException | UncheckedIOException e) {
      // nothing to remove, or not now
    }
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.exists(b) && Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  private static long lastModifiedMs(Path f) {
    try {
      return Files.getLastModifiedTime(f).toMillis();
    } catch (IOException e) {
      return Long.MAX_VALUE; // gone meanwhile
    }
  }

  /** The tables a tlogsim H2 journal is made with: the plugin's script's, and the mark, made last. */
  private static final List<String> H2_TABLES = List.of(MARKER, "event_tag", "event_journal", "snapshot",
      "durable_state");

  /** An H2 table of the journal by its lower-case name: the plugin's are quoted, the mark's is not (upper case). */
  private static String h2Table(String name) {
    return "PUBLIC.\"" + (name.equals(MARKER) ? MARKER.toUpperCase(Locale.ROOT) : name) + "\"";
  }

  /**
   * An H2 journal a run of an earlier tlogsim began to make in place and did not finish (killed, or making it this
   * moment; H2 commits each statement of a schema; a run now makes it aside, {@link #madeAside}): only tables of the
   * journal's schema, each empty, so no mark (the mark's row is the schema's last statement, and nothing is recorded
   * before it). A database with a table of its own, or a row, is not. A table dropped or made while this looks is a
   * journal being made.
   */
  private static boolean halfMade(Connection c, TreeSet<String> tables) throws SQLException {
    if (!H2_TABLES.containsAll(tables)) return false;
    for (String t : tables) {
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + h2Table(t))) {
        if (rs.next() && rs.getLong(1) > 0) return false;
      } catch (SQLException e) {
        int code = e.getErrorCode();
        if (code < TABLE_NOT_FOUND || code > TABLE_NOT_FOUND + 2) throw e; // 42102-42104: dropped meanwhile
      }
    }
    return true;
  }

  /** H2's "Table not found" (42102; 42103 and 42104 are its variants with a candidate name or schema). */
  private static final int TABLE_NOT_FOUND = 42102;

  /**
   * This connection's session is in this process (it opened the file itself), not through the server of another
   * process that has the file. Other processes may be connected through this one's server meanwhile.
   */
  private static boolean holdsFile(Connection c) throws SQLException {
    return !(c.unwrap(JdbcConnection.class).getSession() instanceof SessionRemote);
  }

  /**
   * A half-made H2 journal made whole, and the everyday connection to go on with ({@link Made}). This process holds
   * the file: no other has it open, so none is making it: a killed run's, finished here. Else the process that holds
   * it may be making it this moment: waited for, about {@link #BEING_MADE_WAIT_MS}, connecting again each time (if
   * that process died, this one may hold the file now, and finishes it).
   */
  private static Made madeOrFinished(JournalSettings s, Connection c) throws SQLException {
    long start = System.nanoTime();
    while (true) {
      if (holdsFile(c)) {
        finish(s);
        return new Made(c, true);
      }
      if (!halfMade(c, tables(c))) return new Made(c, false);
      if ((System.nanoTime() - start) / 1_000_000 > BEING_MADE_WAIT_MS) {
        close(c);
        throw new BadInputException(s.describe() + ": the process that has it open did not finish making it in "
            + BEING_MADE_WAIT_MS / 1000 + " s; try again");
      }
      close(c);
      pause(new SQLException("interrupted while waiting for " + s.describe() + " to be made"));
      c = connectH2(s).connection();
    }
  }

  /** The everyday connection to a journal made whole, and whether this process finished it. */
  private record Made(Connection connection, boolean finishedHere) {}

  /**
   * Finishes a half-made H2 journal ({@link #halfMade}, with stored keys), as its owner: the schema's statements run
   * again, each made to do nothing where its part is there (nothing is dropped), the mark's row added if missing, and
   * the users given their passwords. A run that made the file created its owner with the stored key.
   */
  private static void finish(JournalSettings s) throws SQLException {
    H2Keys keys = H2Keys.find(s);
    try (Connection owned = connect(keys.owner(s)); Statement st = owned.createStatement()) {
      for (String sql : createStatements(JournalKind.H2)) {
        if (sql.startsWith("INSERT INTO " + MARKER + " ")) {
          try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + MARKER)) {
            if (rs.next() && rs.getLong(1) > 0) continue;
          }
        }
        st.execute(idempotent(sql));
      }
      keys.grant(owned);
    }
  }

  /** A statement of the H2 schema made to do nothing where its part is there (its tables' already do). */
  private static String idempotent(String sql) {
    for (String index : List.of("CREATE UNIQUE INDEX \"", "CREATE INDEX \"")) {
      if (sql.startsWith(index)) {
        return index.replace("INDEX \"", "INDEX IF NOT EXISTS \"") + sql.substring(index.length());
      }
    }
    return sql;
  }

  static Path lockFile(JournalSettings s) {
    return Path.of(s.location() + ".lock.db");
  }

  private static Prepared kept(Found found, Connection c, boolean keep, JournalSettings s) {
    if (s.kind() == JournalKind.H2) PrivateFiles.restrict(s.h2File().getParent());
    if (keep) return new Prepared(found, c, s);
    close(c);
    return new Prepared(found, null, s);
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
   * are the only ones that should reach the journal. h2.allowedClasses: no class may be loaded by name through SQL
   * (CREATE ALIAS ... FOR, triggers, Java-object values) but the one AUTO_SERVER's own alias names (STOP_SERVER), beside
   * the everyday user's lack of admin rights (H2Keys). Read once by H2, so they are set before H2's first use.
   */
  static void h2Properties() {
    if (System.getProperty("h2.bindAddress") == null) System.setProperty("h2.bindAddress", "127.0.0.1");
    System.setProperty("h2.allowedClasses", "org.h2.server.TcpServer");
  }

  /** H2's "Database may be already in use": another process has the file open. */
  private static final int IN_USE = 90020;
  private static final int WRONG_USER_OR_PASSWORD = 28000;
  /** H2's "Connection is broken": the server a shared file was reached through is gone. */
  private static final int CONNECTION_BROKEN = 90067;
  /** H2's "Error opening database": among others, its lock-file races ({@link #takingLock}). */
  private static final int OPENING_FAILED = 8000;
  /**
   * How long an H2 journal opened alone by another process (a reader) is waited for; also a lock being taken
   * ({@link #takingLock}) and a sharing server going away.
   */
  private static final long IN_USE_WAIT_MS = 30_000;
  /** How long a reader waits for a run that is making a new H2 journal (its schema and users: well under a second). */
  private static final long BEING_MADE_WAIT_MS = 10_000;

  /**
   * A connection to the journal. H2: one that another process has open alone is waited for (a reader is done in
   * seconds), and one that process shares is reached through its server; the connection says which settings worked.
   */
  static Connection connect(JournalSettings s) throws SQLException {
    if (s.kind() == JournalKind.H2) return connectH2(s).connection();
    return DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password());
  }

  private record H2Open(Connection connection, JournalSettings settings) {}

  /**
   * A reader whose everyday user {@code everyday} was refused: the journal is read as before, as its former owner, when
   * a process stored its keys and died before it gave them (an owner's password only ever goes from none to its key,
   * so one try tells); else a run may be making the journal this very moment (its owner created the file, the everyday
   * user comes with the schema), waited for while a process has the file open, about {@link #BEING_MADE_WAIT_MS} (H2
   * delays each refused login, up to 4 s). Else the key file does not open the journal: bad input, naming it; or it
   * is a journal half-made by a run killed before it made the everyday user ({@link #halfMade}): null, no journal.
   */
  private static H2Open connectAsReader(JournalSettings everyday) throws SQLException {
    try {
      return connectH2(H2Keys.former().everyday(everyday));
    } catch (SQLException e) {
      if (e.getErrorCode() != WRONG_USER_OR_PASSWORD) throw e;
    }
    long start = System.nanoTime();
    while (true) {
      boolean held = Files.exists(lockFile(everyday)); // looked at before the try: a run closing meanwhile is seen
      try {
        return connectH2(everyday);
      } catch (SQLException e) {
        if (e.getErrorCode() != WRONG_USER_OR_PASSWORD) throw e;
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        if (!held || waitedMs > BEING_MADE_WAIT_MS) {
          if (halfMadeAsOwner(everyday)) return null; // its run was killed before it made the everyday user
          throw new BadInputException(everyday.describe() + ": its key file " + H2Keys.file(everyday) + " does not"
              + " open it" + (held ? " (waited " + waitedMs / 1000 + " s for the run that has it open)" : "")
              + "; a run that died while giving the journal its passwords leaves it so until the next run gives them,"
              + " else restore the key file kept with this journal");
        }
        pause(e);
      }
    }
  }

  /** A half-made journal ({@link #halfMade}) with stored keys, as its owner sees it (then closed). */
  private static boolean halfMadeAsOwner(JournalSettings s) {
    H2Keys keys = H2Keys.find(s);
    if (keys.state != H2Keys.State.STORED) return false;
    try (Connection c = connectH2(keys.owner(s)).connection()) {
      return halfMade(c, tables(c));
    } catch (SQLException e) {
      return false; // not the owner's key either: the caller says the key file does not open it
    }
  }

  private static H2Open connectH2(JournalSettings s) throws SQLException {
    long deadline = System.currentTimeMillis() + IN_USE_WAIT_MS;
    while (true) {
      try {
        return new H2Open(DriverManager.getConnection(s.jdbcUrl(), s.user(), s.password()), s);
      } catch (SQLException e) {
        if (takingLock(e) && System.currentTimeMillis() < deadline) {
          // another process is taking the file's lock this very moment (a run starting, or its server handing over):
          // H2 refuses rather than waits; a moment later the file is either that process's to share or free
          pause(e);
          continue;
        }
        if (e.getErrorCode() == CONNECTION_BROKEN && s.shared() && System.currentTimeMillis() < deadline) {
          // the server of the process that has the file went away: that process is reopening it (a run's owner
          // gives an earlier tlogsim's journal its passwords, closes, and opens it again as the everyday user), or
          // it ended
          pause(e);
          continue;
        }
        if (e.getErrorCode() != IN_USE) throw e;
        if (!s.shared()) {
          s = s.withShared(true); // a run has it: through its server
          continue;
        }
        if (System.currentTimeMillis() > deadline) {
          throw new BadInputException(s.describe() + ": in use by another process that does not share it (a"
              + " tlogsim runs, replay or report) for " + IN_USE_WAIT_MS / 1000 + " s; try again when it ends");
        }
        pause(e);
      }
    }
  }

  /**
   * H2's lock-file races (its FileLock: ERROR_OPENING_DATABASE_1 with one of these messages): the lock file was just
   * written by another process that is opening or closing the same file. Transient by nature, unlike a damaged file.
   */
  static boolean takingLock(SQLException e) {
    String m = String.valueOf(e.getMessage());
    return e.getErrorCode() == OPENING_FAILED && (m.contains("Lock file recently modified")
        || m.contains("Another process was faster") || m.contains("Concurrent update"));
  }

  private static void pause(SQLException e) throws SQLException {
    try {
      Thread.sleep(250);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw e;
    }
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
    List<String> statements = createStatements(s.kind());
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

  /** The statements that give an empty database the journal's schema and mark. */
  static List<String> createStatements(JournalKind kind) {
    List<String> statements = new ArrayList<>();
    if (kind == JournalKind.H2) {
      statements.addAll(split(resource(H2_SCRIPT)));
      statements.add("CREATE TABLE IF NOT EXISTS " + MARKER + " (format INTEGER NOT NULL, created_by VARCHAR(255) NOT NULL)");
      statements.add("INSERT INTO " + MARKER + " (format, created_by) VALUES (" + FORMAT + ", 'tlogsim')");
    } else {
      statements.addAll(split(resource(POSTGRES_SCRIPT)));
    }
    return statements;
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
