package io.tlogsim.journal;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.scenario.BadInputException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and how runs are journaled: the kind of journal, its JDBC connection, the trace level and the checkpoint
 * cadence. Defaults come from {@code tlogsim.journal} in reference.conf (overridable in application.conf).
 *
 * @param location the H2 file (without .mv.db) for {@link JournalKind#H2}, or the JDBC URL for PostgreSQL
 * @param shared H2: this process lets others reach the file through a server on the loopback while it has it open
 *     (AUTO_SERVER; a run does, so that {@code tlogsim runs} works meanwhile), or reaches it through such a server;
 *     false: it opens the file alone, and nothing listens
 */
public record JournalSettings(JournalKind kind, String location, String user, String password, TraceLevel trace,
    Duration checkpointEvery, int factsPerWrite, boolean shared) {

  /**
   * H2 2.3.232 compacts the file for up to 200 ms each time the database closes, moving chunks; after some tens of
   * opens and closes with large rows (a run's checkpoints) that left the file unreadable ("File corrupted while reading
   * record", MVStore "Double mark", h2database issue 2752): seen once in .ci/replay-every-scenario, and reproduced
   * after 22 to 49 closes in most tries of {@code H2JournalReopenTest}'s sequence, never with this setting. A journal
   * only grows (nothing is deleted), so the compaction had little to win; the store still reuses free space while it
   * is open.
   */
  static final String H2_NO_COMPACTION_ON_CLOSE = ";MAX_COMPACT_TIME=0";

  public JournalSettings(JournalKind kind, String location, String user, String password, TraceLevel trace,
      Duration checkpointEvery, int factsPerWrite) {
    this(kind, location, user, password, trace, checkpointEvery, factsPerWrite, true);
  }

  public JournalSettings {
    if (checkpointEvery.isNegative() || checkpointEvery.isZero()) {
      throw new BadInputException("tlogsim.journal.checkpoint-every: must be a positive duration, got " + checkpointEvery);
    }
    if (factsPerWrite < 1) {
      throw new BadInputException("tlogsim.journal.facts-per-write: must be an integer >= 1, got " + factsPerWrite);
    }
  }

  /** The settings of journal {@code kind} for data directory {@code dataDir}, from the application's config. */
  public static JournalSettings of(JournalKind kind, Path dataDir) {
    return of(kind, dataDir, ConfigFactory.load());
  }

  public static JournalSettings of(JournalKind kind, Path dataDir, Config config) {
    try {
      Config c = config.getConfig("tlogsim.journal");
      TraceLevel trace = TraceLevel.parse(c.getString("trace"), "tlogsim.journal.trace");
      Duration every = c.getDuration("checkpoint-every");
      int perWrite = c.getInt("facts-per-write");
      return switch (kind) {
        case NONE -> new JournalSettings(kind, "", "", "", trace, every, perWrite);
        case H2 -> new JournalSettings(kind, dataDir.resolve(c.getString("h2.path")).toAbsolutePath().normalize()
            .toString(), "tlogsim", "", trace, every, perWrite);
        case POSTGRES -> {
          // no password is built in: TLOGSIM_JDBC_PASSWORD, else the password file (PgPass), else none
          String url = c.getString("postgres.url"), user = c.getString("postgres.user");
          String password = c.hasPath("postgres.password") ? c.getString("postgres.password")
              : PgPass.lookup(url, user);
          yield new JournalSettings(kind, url, user, password == null ? "" : password, trace, every, perWrite);
        }
      };
    } catch (ConfigException e) {
      throw new BadInputException("tlogsim.journal: " + e.getMessage().replace('\n', ' '));
    }
  }

  public JournalSettings withTrace(TraceLevel t) {
    return new JournalSettings(kind, location, user, password, t, checkpointEvery, factsPerWrite, shared);
  }

  public JournalSettings withCheckpointEvery(Duration d) {
    return new JournalSettings(kind, location, user, password, trace, d, factsPerWrite, shared);
  }

  JournalSettings withCredentials(String u, String p) {
    return new JournalSettings(kind, location, u, p, trace, checkpointEvery, factsPerWrite, shared);
  }

  /** H2: the same journal's settings for another file (without .mv.db). */
  JournalSettings withLocation(String l) {
    return new JournalSettings(kind, l, user, password, trace, checkpointEvery, factsPerWrite, shared);
  }

  JournalSettings withShared(boolean s) {
    return new JournalSettings(kind, location, user, password, trace, checkpointEvery, factsPerWrite, s);
  }

  /** The JDBC URL the plugin and the schema check connect to. */
  public String jdbcUrl() {
    return switch (kind) {
      case NONE -> throw new IllegalStateException("--journal none has no database");
      // AUTO_SERVER (shared): the first process opens the file in-process; others (tlogsim runs during a run, two
      // runs at once) reach it through a server that process starts on the loopback interface (see JournalDatabase),
      // for the journal's users only (H2Keys); the everyday user never creates the database (its owner does). A file
      // on read-only media is opened read-only without a server (H2 refuses the two together).
      case H2 -> "jdbc:h2:file:" + location
          + (onReadOnlyMedia() ? ";ACCESS_MODE_DATA=r;FILE_LOCK=NO" : shared ? ";AUTO_SERVER=TRUE" : "")
          + (H2Keys.USER.equals(user) ? ";IFEXISTS=TRUE" : "") + H2_NO_COMPACTION_ON_CLOSE;
      case POSTGRES -> location;
    };
  }

  /**
   * An H2 journal this process cannot write (read-only media, a read-only mount): opened read-only, without the
   * server a second process would reach it through (H2 refuses the two together), so it can still be listed and
   * replayed.
   */
  public boolean onReadOnlyMedia() {
    if (kind != JournalKind.H2) return false;
    Path file = h2File();
    return java.nio.file.Files.exists(file)
        && (!java.nio.file.Files.isWritable(file) || !java.nio.file.Files.isWritable(file.toAbsolutePath().getParent())
        || diskFull(file));
  }

  /** A disk with less than 1 MB free: H2 cannot even make its lock file there, and nothing can be written anyway. */
  static boolean diskFull(Path file) {
    try {
      return java.nio.file.Files.getFileStore(file).getUsableSpace() < 1L << 20;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /** What to name in messages: the H2 file or the PostgreSQL URL. */
  public String describe() {
    return switch (kind) {
      case NONE -> "no journal";
      case H2 -> "H2 journal " + location + ".mv.db";
      case POSTGRES -> "PostgreSQL journal " + masked(location);
    };
  }

  /** A URL as it may be printed: a password in it (user:password@, password=...) as ***. */
  public static String masked(String url) {
    return url.replaceAll("(?i)([?&;]password=)[^&;]*", "$1***").replaceAll("(//[^/:@]*:)[^/@]*@", "$1***@");
  }

  /** For H2: the database file; null otherwise. */
  public Path h2File() {
    return kind == JournalKind.H2 ? Path.of(location + ".mv.db") : null;
  }
}
