package io.tlogsim.journal;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The password of a PostgreSQL journal when none is given (TLOGSIM_JDBC_PASSWORD): from a password file in libpq's
 * format ({@code host:port:database:user:password}, {@code *} for any, {@code \} escapes), the one
 * {@code PGPASSFILE} names, else {@code ~/.config/tlogsim/pgpass} (where deploy/postgres/setup.sh stores the password
 * it generates), else {@code ~/.pgpass}. As libpq does, a file that others may read is not used (here: refused).
 */
final class PgPass {
  private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^/:,?]+)(?::(\\d+))?[^/]*/([^?]*).*");

  private PgPass() {}

  /** The password file in use: PGPASSFILE, else tlogsim's, else ~/.pgpass; null if there is none. */
  static Path file() {
    String env = System.getenv("PGPASSFILE");
    if (env != null && !env.isBlank()) return Path.of(env);
    String home = System.getProperty("user.home");
    String xdg = System.getenv("XDG_CONFIG_HOME");
    Path ours = (xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(home, ".config")).resolve("tlogsim/pgpass");
    if (Files.isRegularFile(ours)) return ours;
    Path libpq = Path.of(home, ".pgpass");
    return Files.isRegularFile(libpq) ? libpq : null;
  }

  /** The password for {@code user} at {@code jdbcUrl}, or null (none found; or the URL carries its own). */
  static String lookup(String jdbcUrl, String user) {
    Matcher m = URL.matcher(jdbcUrl);
    if (!m.matches() || jdbcUrl.matches("(?i).*[?&]password=.*")) return null;
    Path f = file();
    if (f == null || !Files.isRegularFile(f)) return null;
    return lookup(f, m.group(1), m.group(2) == null ? "5432" : m.group(2), m.group(3), user);
  }

  static String lookup(Path f, String host, String port, String database, String user) {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      try {
        Set<PosixFilePermission> p = Files.getPosixFilePermissions(f);
        if (p.stream().anyMatch(x -> !x.name().startsWith("OWNER"))) {
          throw new BadInputException("the PostgreSQL password file " + f + " may be read by others; chmod 600 it"
              + " (docs/security.md)");
        }
      } catch (IOException e) {
        return null;
      }
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(f, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException("the PostgreSQL password file " + f + " cannot be read (" + e.getMessage() + ")");
    }
    for (String line : lines) {
      if (line.isBlank() || line.startsWith("#")) continue;
      List<String> f5 = fields(line);
      if (f5.size() != 5) continue;
      if (matches(f5.get(0), host) && matches(f5.get(1), port) && matches(f5.get(2), database)
          && matches(f5.get(3), user)) {
        return f5.get(4);
      }
    }
    return null;
  }

  private static boolean matches(String pattern, String value) {
    return pattern.equals("*") || pattern.equals(value);
  }

  /** The fields of a line: separated by ':', where '\:' and '\\' stand for ':' and '\'. */
  private static List<String> fields(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length()) {
        cur.append(line.charAt(++i));
      } else if (c == ':' && out.size() < 4) {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }
}
