package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Properties;

/**
 * The passwords of one H2 journal, random and its own, kept in {@code tlogsim.key} beside {@code tlogsim.mv.db} (mode
 * 0600, in a directory of mode 0700): whoever cannot read that file cannot open the journal, neither the file nor the
 * server a run lets other processes share it through.
 *
 * <p>Two users: the journal's owner {@value #OWNER}, which creates the schema and the users, and {@value #USER}, which
 * every tlogsim connection is: it reads and writes rows and has no admin rights, so nothing that reaches the journal
 * can run Java code in tlogsim's JVM ({@code CREATE ALIAS}, triggers) or read and write files ({@code FILE_READ},
 * {@code SCRIPT TO}) through it. A journal of an earlier tlogsim (owner only, empty password) gets its passwords the
 * first time a run opens it; until then it is read as it is.
 */
final class H2Keys {
  static final String OWNER = "tlogsim";
  static final String USER = "tlogsim_rw";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Stored: read from the file. Planned: made here, not stored yet. Former: a journal of an earlier tlogsim. */
  enum State { STORED, PLANNED, FORMER }

  final String owner;
  final String user;
  final State state;

  private H2Keys(String owner, String user, State state) {
    this.owner = owner;
    this.user = user;
    this.state = state;
  }

  static Path file(JournalSettings s) {
    return Path.of(s.location() + ".key");
  }

  /** The stored keys; else, for an existing journal without them, an earlier tlogsim's; else new ones, not stored. */
  static H2Keys find(JournalSettings s) {
    Path f = file(s);
    if (Files.exists(f)) return read(f);
    if (Files.exists(s.h2File())) return former();
    return planned();
  }

  static H2Keys former() {
    return new H2Keys("", "", State.FORMER);
  }

  static H2Keys planned() {
    return new H2Keys(random(), random(), State.PLANNED);
  }

  static String random() {
    byte[] b = new byte[24];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** The settings of a connection as the everyday user (an earlier tlogsim's journal: as its owner). */
  JournalSettings everyday(JournalSettings s) {
    return state == State.FORMER ? s.withCredentials(OWNER, "") : s.withCredentials(USER, user);
  }

  /** The settings of a connection as the journal's owner. */
  JournalSettings owner(JournalSettings s) {
    return s.withCredentials(OWNER, state == State.FORMER ? "" : owner);
  }

  /** Gives the journal these stored keys, which a process stored and died before it gave them all. */
  void grantAsFormerOwner(JournalSettings s) throws SQLException {
    Connection c;
    try {
      c = JournalDatabase.connect(former().owner(s));
    } catch (SQLException e) {
      c = JournalDatabase.connect(owner(s)); // it had given the owner its password already
    }
    try (Connection owned = c) {
      grant(owned);
    }
  }

  /**
   * Stores planned keys beside the journal, before the database they open exists (a database whose passwords were
   * lost cannot be opened). Atomic: if another process stored its keys first, those are the journal's and returned.
   */
  H2Keys store(JournalSettings s) {
    if (state != State.PLANNED) throw new IllegalStateException("keys " + state + " are not to be stored");
    Path f = file(s);
    Path tmp = f.resolveSibling(f.getFileName() + "." + random().substring(0, 8) + ".tmp");
    try {
      PrivateFiles.createFile(tmp);
      Files.writeString(tmp, "# The passwords of the H2 journal beside this file (docs/security.md): keep this file with"
          + " it,\n# readable by its owner only; without it the journal cannot be opened.\nowner=" + owner + "\nuser="
          + user + "\n", StandardCharsets.UTF_8);
      // the first process's keys win (runs making a journal take turns: without hard links this is not atomic)
      return PrivateFiles.placeNew(f, tmp) ? new H2Keys(owner, user, State.STORED) : read(f);
    } catch (IOException e) {
      throw new BadInputException(s.describe() + ": cannot write its key file " + f + " (" + e + "); give another"
          + " --data DIR");
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // a stray temporary file of mode 0600
      }
    }
  }

  private static H2Keys read(Path f) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(Files.readString(f, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new BadInputException("the H2 journal's key file " + f + " cannot be read (" + e.getMessage() + ")");
    }
    String owner = p.getProperty("owner", ""), user = p.getProperty("user", "");
    if (!owner.matches("[0-9a-f]{16,}") || !user.matches("[0-9a-f]{16,}")) {
      throw new BadInputException("the H2 journal's key file " + f + " is damaged (no owner and user passwords);"
          + " restore it from where the journal was copied");
    }
    return new H2Keys(owner, user, State.STORED);
  }

  /**
   * Gives the journal these passwords, as its owner: the owner's own, and the everyday user with rights on rows only
   * (again and again: a process killed half-way leaves nothing that this cannot finish).
   */
  void grant(Connection asOwner) throws SQLException {
    try (Statement st = asOwner.createStatement()) {
      // passwords are hex digits: nothing to quote. The owner's first: an owner without one could be logged in as
      // through a run's server by anyone on this machine; a kill before the everyday user exists only keeps readers
      // out until the next run gives it (they are told so)
      st.execute("ALTER USER " + OWNER + " SET PASSWORD '" + owner + "'");
      st.execute("CREATE USER IF NOT EXISTS " + USER + " PASSWORD '" + user + "'");
      st.execute("ALTER USER " + USER + " SET PASSWORD '" + user + "'");
      st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA PUBLIC TO " + USER);
    }
  }
}
