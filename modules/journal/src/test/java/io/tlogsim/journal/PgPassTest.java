package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** No PostgreSQL password is built in: it comes from a password file of libpq's format, and no URL prints one. */
class PgPassTest {
  @TempDir
  Path dir;

  private Path file(String text, String mode) throws Exception {
    Path f = dir.resolve("pgpass");
    Files.writeString(f, text);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
    return f;
  }

  @Test
  void thePasswordIsTheFirstLineThatMatchesWithWildcardsAndEscapes() throws Exception {
    Path f = file("# setup.sh\nother:5432:*:tlogsim:no\n127.0.0.1:5432:*:tlogsim:first\n"
        + "127.0.0.1:5432:tlogsim:tlogsim:second\n*:5433:db:u:a\\:b\\\\c\n", "rw-------");
    assertEquals("first", PgPass.lookup(f, "127.0.0.1", "5432", "tlogsim_test_1", "tlogsim"));
    assertEquals("a:b\\c", PgPass.lookup(f, "anywhere", "5433", "db", "u"));
    assertNull(PgPass.lookup(f, "127.0.0.1", "5432", "tlogsim", "someone"));
  }

  @Test
  void aFileOthersMayReadIsRefused() throws Exception {
    Path f = file("*:*:*:*:pw\n", "rw-r--r--");
    BadInputException e = assertThrows(BadInputException.class,
        () -> PgPass.lookup(f, "h", "5432", "d", "u"));
    assertTrue(e.getMessage().contains("may be read by others; chmod 600 it"), e.getMessage());
  }

  @Test
  void noPasswordIsBuiltInAndNoneIsPrinted() {
    assertEquals("jdbc:postgresql://h:5432/db?user=u&password=***&ssl=true",
        JournalSettings.masked("jdbc:postgresql://h:5432/db?user=u&password=s3cret&ssl=true"));
    assertEquals("jdbc:postgresql://u:***@h/db", JournalSettings.masked("jdbc:postgresql://u:s3cret@h/db"));
    assertEquals("jdbc:postgresql://h/db?PASSWORD=***", JournalSettings.masked("jdbc:postgresql://h/db?PASSWORD=x"));
    JournalSettings s = new JournalSettings(JournalKind.POSTGRES, "jdbc:postgresql://h/db?password=s3cret", "u",
        "s3cret", TraceLevel.SUMMARY, java.time.Duration.ofSeconds(2), 1000);
    assertFalse(s.describe().contains("s3cret"), s.describe());
    if (System.getenv("TLOGSIM_JDBC_PASSWORD") == null) {
      assertFalse(com.typesafe.config.ConfigFactory.defaultReference().getConfig("tlogsim.journal.postgres")
          .hasPath("password"), "reference.conf has no password (unless TLOGSIM_JDBC_PASSWORD gives one)");
    }
  }
}
