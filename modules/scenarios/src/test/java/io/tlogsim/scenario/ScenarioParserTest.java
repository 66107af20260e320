package io.tlogsim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.tlogsim.kinds.ScenarioKinds;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario file may come from someone else: it includes only files beside it, takes no secret from the environment,
 * cannot make the parser overflow its stack, and no message quotes an included file's text.
 */
class ScenarioParserTest {
  @TempDir
  Path dir;

  private final ScenarioLoader loader = ScenarioKinds.loader();

  private Scenario load(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return loader.load(f.toString(), Map.of());
  }

  private BadInputException refused(String name, String text) {
    return assertThrows(BadInputException.class, () -> load(name, text));
  }

  @Test
  void aFileBesideTheScenarioOrBelowItIsIncluded() throws Exception {
    Files.writeString(dir.resolve("part.conf"), "sessions = 123\n");
    Files.createDirectories(dir.resolve("more"));
    Files.writeString(dir.resolve("more/deep.conf"), "simulatedSeconds = 0.02\n");
    Scenario s = load("s.conf", "kind = gcm1\ninclude \"part.conf\"\ninclude file(\"more/deep.conf\")\n"
        + "include \"absent\"\n");
    assertEquals(123, s.params().getInt("sessions"));
    assertEquals(0.02, s.params().getDouble("simulatedSeconds"));
  }

  @Test
  void aUrlIsNeverFetched() throws Exception {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicInteger requests = new AtomicInteger();
    http.createContext("/", ex -> {
      requests.incrementAndGet();
      byte[] body = "simulatedSeconds = 0.01\n".getBytes();
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    http.start();
    try {
      String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/x.conf";
      BadInputException e = refused("u.conf", "kind = gcm1\ninclude url(\"" + url + "\")\n");
      assertTrue(e.getMessage().startsWith(dir.resolve("u.conf") + ":2: include \"" + url + "\": url(...) includes"),
          e.getMessage());
      refused("u2.conf", "kind = gcm1\ninclude required(url(\"" + url + "\"))\n");
      assertEquals(0, requests.get(), "nothing was fetched");
    } finally {
      http.stop(0);
    }
  }

  @Test
  void noClassPathResourceAndNoFileElsewhere() throws Exception {
    assertTrue(refused("c.conf", "kind = gcm1\ninclude classpath(\"application.conf\")\n").getMessage()
        .contains("classpath(...) includes are not allowed"));
    Path outside = Files.createTempFile("tlogsim-outside", ".conf");
    Files.writeString(outside, "sessions = 5\n");
    try {
      for (String inc : new String[] {"file(\"" + outside + "\")", "\"" + outside + "\"", "\"../" + outside.getFileName()
          + "\"", "\"/etc/hostname\""}) {
        BadInputException e = refused("o.conf", "kind = gcm1\ninclude " + inc + "\n");
        assertTrue(e.getMessage().contains("only files in the scenario's directory"), inc + ": " + e.getMessage());
        assertTrue(e.getMessage().startsWith(dir.resolve("o.conf") + ":2: "), e.getMessage());
      }
      Files.createSymbolicLink(dir.resolve("link.conf"), outside);
      assertTrue(refused("l.conf", "kind = gcm1\ninclude \"link.conf\"\n").getMessage()
          .contains("only files in the scenario's directory"), "a link out of the directory");
    } finally {
      Files.delete(outside);
    }
    assertTrue(refused("r.conf", "kind = gcm1\ninclude required(\"nope.conf\")\n").getMessage()
        .contains("no such file"));
  }

  @Test
  void aSentScenarioIncludesNothing() {
    BadInputException e = assertThrows(BadInputException.class,
        () -> loader.loadText("t", "t.conf", "kind = gcm1\ninclude \"part.conf\"\n", Map.of()));
    assertTrue(e.getMessage().contains("a scenario sent to a cluster includes no file"), e.getMessage());
  }

  @Test
  void theEnvironmentGivesNoSecret() throws Exception {
    assertTrue(ScenarioParser.secret("TLOGSIM_JDBC_PASSWORD", null));
    assertTrue(ScenarioParser.secret("PGPASSWORD", null));
    assertTrue(ScenarioParser.secret("AWS_SECRET_ACCESS_KEY", null));
    assertTrue(ScenarioParser.secret("TLOGSIM_JDBC_URL", "jdbc:postgresql://h/db"));
    assertTrue(ScenarioParser.secret("GITHUB_TOKEN", null));
    assertTrue(ScenarioParser.secret("MY_DB", "jdbc:postgresql://h/db?user=u&password=p"));
    assertTrue(ScenarioParser.secret("MIRROR", "https://u:p@example.org/x"));
    assertFalse(ScenarioParser.secret("HOME", "/home/me"));
    assertFalse(ScenarioParser.secret("TLOGSIM_DATA", "/data"));
    BadInputException e = refused("e.conf", "kind = gcm1\n# ${?PGPASSWORD} in a comment is no substitution\n"
        + "description = ${?TLOGSIM_JDBC_PASSWORD}\n");
    assertTrue(e.getMessage().startsWith(dir.resolve("e.conf") + ":3: ${TLOGSIM_JDBC_PASSWORD}: environment "
        + "variables that hold secrets"), e.getMessage());
    assertTrue(ScenarioParser.environment().root().keySet().stream().noneMatch(k -> ScenarioParser.secret(k, null)));
    String home = System.getenv("HOME");
    if (home != null) {
      assertEquals(home, load("h.conf", "kind = gcm1\ndescription = ${?HOME}\n").description());
    }
  }

  @Test
  void deepNestingIsOneLineNamingFileAndLine() throws Exception {
    String deep = "kind = gcm1\n\na = " + "{a:".repeat(20_000) + "1" + "}".repeat(20_000) + "\n";
    BadInputException e = refused("d.conf", deep);
    assertEquals(dir.resolve("d.conf") + ":3: nested deeper than 100 levels of { } and [ ]; a scenario nests a few at"
        + " most", e.getMessage());
    Files.writeString(dir.resolve("deep.conf"), "x = " + "[".repeat(500) + "]".repeat(500) + "\n");
    assertTrue(refused("i.conf", "kind = gcm1\ninclude \"deep.conf\"\n").getMessage().contains("nested deeper"));
    // braces in strings and comments do not count
    load("ok.conf", "kind = gcm1\ndescription = \"" + "{".repeat(300) + "\"\n# " + "[".repeat(300) + "\n");
  }

  @Test
  void noMessageQuotesAnIncludedFilesText() throws Exception {
    Files.writeString(dir.resolve("bad.conf"), "hushhush:::: {{{\n");
    Files.writeString(dir.resolve("key.conf"), "hushhushkey = 1\n");
    Files.writeString(dir.resolve("value.conf"), "sessions = \"hushhushvalue\"\n");
    for (String inc : new String[] {"bad.conf", "key.conf", "value.conf"}) {
      BadInputException e = refused("q.conf", "kind = gcm1\ninclude \"" + inc + "\"\n");
      assertFalse(e.getMessage().contains("hushhush"), e.getMessage());
      assertTrue(e.getMessage().contains(inc), "it names where: " + e.getMessage());
    }
    // the scenario's own lines are quoted as before
    assertTrue(refused("own.conf", "kind = gcm1\nsessions = \"many\"\n").getMessage().contains("got 'many'"));
  }
}
