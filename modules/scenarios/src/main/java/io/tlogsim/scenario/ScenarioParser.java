package io.tlogsim.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValueFactory;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the HOCON text of a file the user gives (a scenario, an experiment), which may come from someone else: it
 * includes only files beside it (its directory and below; no URL, no class path resource), takes from the environment
 * only variables that hold no secret, and nests at most {@value #MAX_DEPTH} levels (checked before parsing: a parser
 * that recurses would overflow its stack). Every refusal is bad input naming the file and line. Values and text of an
 * included file are never quoted in a message ({@link #fromInclude}).
 */
public final class ScenarioParser {
  /** Objects and lists inside one another: a scenario needs a few (a script's steps), nothing needs a hundred. */
  public static final int MAX_DEPTH = 100;
  /** Names of environment variables that hold secrets (and so are never substituted). */
  private static final Pattern SECRET_NAME = Pattern.compile(
      "(?i).*(PASS|SECRET|TOKEN|KEY|CREDENTIAL|PRIVATE|AUTH|COOKIE|CERT|JDBC_URL|DATABASE_URL).*|PG.*");
  /** Values that hold a password: user:password@ in a URL, password= in a JDBC URL. */
  private static final Pattern SECRET_VALUE = Pattern.compile("(?i).*(://[^/@\\s]*:[^/@\\s]*@|pass(word)?=).*");
  private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\{\\??\\s*\"?([A-Za-z_][A-Za-z0-9_.]*)\"?\\s*}");

  private ScenarioParser() {}

  /**
   * Parses and resolves {@code text}, which comes from {@code where} (a file's name, for messages); {@code dir}: the
   * directory whose files it may include (null: it includes nothing, e.g. a text a cluster node received).
   */
  public static Config parse(String where, String text, Path dir) {
    checkDepth(where, text);
    checkSubstitutions(where, text);
    ConfigParseOptions options = ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF)
        .setOriginDescription(where).setIncluder(new Includer(where, text, dir));
    try {
      Config parsed = ConfigFactory.parseString(text, options);
      return parsed.resolveWith(parsed.withFallback(environment()), ConfigResolveOptions.noSystem());
    } catch (ConfigException e) {
      if (fromInclude(e.origin())) {
        throw new BadInputException(ScenarioLoader.location(e.origin(), where) + ": malformed (an included file;"
            + " its text is not shown here)");
      }
      String msg = e.getMessage();
      if (e.origin() != null && msg.startsWith(e.origin().description() + ": ")) {
        msg = msg.substring(e.origin().description().length() + 2);
      }
      throw new BadInputException(ScenarioLoader.location(e.origin(), where) + ": malformed: " + msg.replace('\n', ' '));
    }
  }

  /** True where a value comes from a file the scenario included, whose text messages do not quote. */
  public static boolean fromInclude(ConfigOrigin origin) {
    return origin != null && (origin.filename() != null || origin.url() != null);
  }

  /** The environment variables a scenario may use: none whose name or value says it is a secret. */
  static Config environment() {
    Map<String, String> env = new TreeMap<>();
    System.getenv().forEach((k, v) -> {
      if (!secret(k, v)) env.put(k, v);
    });
    return ConfigValueFactory.fromMap(env, "the environment").toConfig();
  }

  static boolean secret(String name, String value) {
    return SECRET_NAME.matcher(name).matches() || (value != null && SECRET_VALUE.matcher(value).matches());
  }

  /** A substitution of an environment variable that holds a secret is refused, not left silently empty. */
  private static void checkSubstitutions(String where, String text) {
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String t = lines[i].strip();
      if (t.startsWith("#") || t.startsWith("//")) continue;
      Matcher m = SUBSTITUTION.matcher(lines[i]);
      while (m.find()) {
        String name = m.group(1);
        if (!name.contains(".") && secret(name, System.getenv(name))) {
          throw new BadInputException(where + ":" + (i + 1) + ": ${" + name + "}: environment variables that hold "
              + "secrets (names with PASS, SECRET, TOKEN, KEY, AUTH, CERT, JDBC_URL or PG..., or values with a "
              + "password) are not substituted into scenarios");
        }
      }
    }
  }

  /**
   * Fails (file:line) where objects and lists nest deeper than {@link #MAX_DEPTH}: counted on the text, outside
   * strings and comments, before any parser recurses into it.
   */
  public static void checkDepth(String where, String text) {
    int depth = 0, line = 1, n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
      } else if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
        while (i + 1 < n && text.charAt(i + 1) != '\n') i++;
      } else if (c == '"') {
        if (text.startsWith("\"\"\"", i)) {
          int end = text.indexOf("\"\"\"", i + 3);
          end = end < 0 ? n : end + 2;
          for (int k = i; k < end && k < n; k++) if (text.charAt(k) == '\n') line++;
          i = end;
        } else {
          for (i++; i < n && text.charAt(i) != '"' && text.charAt(i) != '\n'; i++) if (text.charAt(i) == '\\') i++;
          if (i < n && text.charAt(i) == '\n') line++;
        }
      } else if (c == '{' || c == '[') {
        if (++depth > MAX_DEPTH) {
          throw new BadInputException(where + ":" + line + ": nested deeper than " + MAX_DEPTH + " levels of { } and"
              + " [ ]; a scenario nests a few at most");
        }
      } else if (c == '}' || c == ']') {
        depth = Math.max(0, depth - 1);
      }
    }
  }

  /** Includes of files in the scenario's directory (and below) only; every other include is refused. */
  private static final class Includer
      implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL, ConfigIncluderClasspath {
    private final String where;
    private final String text;
    private final Path dir;
    private final boolean nested;

    Includer(String where, String text, Path dir) {
      this(where, text, dir, false);
    }

    private Includer(String where, String text, Path dir, boolean nested) {
      this.where = where;
      this.text = text;
      this.dir = dir;
      this.nested = nested;
    }

    @Override
    public ConfigIncluder withFallback(ConfigIncluder fallback) {
      return this; // never Typesafe's own, which would fetch URLs and class path resources
    }

    @Override
    public ConfigObject include(ConfigIncludeContext context, String what) {
      return includeFile(context, new File(what)); // include "x.conf": a file beside the scenario
    }

    @Override
    public ConfigObject includeURL(ConfigIncludeContext context, URL what) {
      throw refused(what.toString(), "url(...) includes are not allowed; include a file beside the scenario");
    }

    @Override
    public ConfigObject includeResources(ConfigIncludeContext context, String what) {
      throw refused(what, "classpath(...) includes are not allowed; include a file beside the scenario");
    }

    @Override
    public ConfigObject includeFile(ConfigIncludeContext context, File what) {
      if (dir == null) {
        throw refused(what.getPath(), "a scenario sent to a cluster includes no file (the nodes do not share them):"
            + " put the included keys in the scenario");
      }
      Path base, file;
      try {
        base = dir.toRealPath();
        Path given = base.resolve(what.toPath()).normalize();
        if (!given.startsWith(base)) throw outside(what, base);
        if (!Files.exists(given) && !what.getName().contains(".")) given = base.resolve(what.getPath() + ".conf");
        if (!Files.exists(given)) {
          if (context.parseOptions().getAllowMissing()) return ConfigFactory.empty().root();
          throw refused(what.getPath(), "no such file beside the scenario");
        }
        file = given.toRealPath();
      } catch (IOException e) {
        throw refused(what.getPath(), "cannot be read (" + e.getMessage() + ")");
      }
      if (!file.startsWith(base) || !Files.isRegularFile(file)) throw outside(what, base);
      String included;
      try {
        included = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw refused(what.getPath(), "cannot be read (" + e.getMessage() + ")");
      }
      checkDepth(file.toString(), included);
      ConfigParseOptions options = context.parseOptions().setOriginDescription(null)
          .setIncluder(new Includer(file.toString(), included, file.getParent(), true));
      return ConfigFactory.parseFile(file.toFile(), options).root();
    }

    private BadInputException outside(File what, Path base) {
      return refused(what.getPath(), "only files in the scenario's directory (" + base + ") and below may be"
          + " included");
    }

    /** "file:line: include "x": why", the line being the include's in the including text. */
    private BadInputException refused(String what, String why) {
      if (nested) return new BadInputException(where + ": an include in this included file: " + why);
      String[] lines = text.split("\n", -1);
      int at = 0;
      for (int i = 0; i < lines.length && at == 0; i++) {
        if (lines[i].contains("include") && lines[i].contains(what)) at = i + 1;
      }
      return new BadInputException((at > 0 ? where + ":" + at : where) + ": include \"" + what + "\": " + why);
    }
  }
}
