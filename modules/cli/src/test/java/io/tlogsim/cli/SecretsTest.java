package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No secret is printed: a password in TLOGSIM_JDBC_URL (by run, runs and node) or one a scenario asks the environment
 * for. Real JVMs ({@code java io.tlogsim.cli.Tlogsim}) with the secrets in their environment, as a user has them.
 */
class SecretsTest {
  private static final String SECRET = "s3cretXYZ";
  private static final String URL = "jdbc:postgresql://127.0.0.1:1/tlogsim?user=tlogsim&password=" + SECRET;

  @TempDir
  Path tmp;

  record Result(int code, String out, String err) {}

  private Result tlogsim(Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dtlogsim.stderr.tty=false", "-cp", System.getProperty("java.class.path"), Tlogsim.class.getName()));
    cmd.addAll(List.of(args));
    Path out = tmp.resolve("out.txt"), err = tmp.resolve("err.txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ended");
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  private static void noSecret(Result r) {
    assertFalse(r.out().contains(SECRET) || r.err().contains(SECRET), r.out() + r.err());
  }

  @Test
  void aPasswordInTheJdbcUrlIsNeverPrinted() throws Exception {
    Map<String, String> env = Map.of("TLOGSIM_JDBC_URL", URL);
    Path data = tmp.resolve("data");
    Result run = tlogsim(env, "run", "gcm1", "--set", "simulatedSeconds=0.01", "--journal", "postgres", "--data",
        data.toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains("password=***"), run.err());
    noSecret(run);
    Result runs = tlogsim(env, "runs", "--journal", "postgres");
    assertEquals(2, runs.code(), runs.err());
    assertTrue(runs.err().contains("password=***"), runs.err());
    noSecret(runs);
    Path keys = tmp.resolve("keys");
    Process make = new ProcessBuilder("bash", Path.of("../../deploy/cluster-keys.sh").toAbsolutePath().normalize()
        .toString(), "new", keys.toString()).redirectErrorStream(true).start();
    assertTrue(make.waitFor(120, TimeUnit.SECONDS) && make.exitValue() == 0);
    Result node = tlogsim(env, "node", "--journal", "postgres", "--keys", keys.toString(), "--port", "0");
    assertEquals(2, node.code(), node.err());
    assertTrue(node.err().contains("password=***"), node.err());
    noSecret(node);
  }

  @Test
  void aScenarioGetsNoSecretFromTheEnvironment() throws Exception {
    Path scenario = tmp.resolve("env.conf");
    Files.writeString(scenario, "kind = gcm1\nsimulatedSeconds = 0.01\ndescription = ${?TLOGSIM_JDBC_PASSWORD}\n");
    Path out = tmp.resolve("run");
    Result r = tlogsim(Map.of("TLOGSIM_JDBC_PASSWORD", SECRET), "run", scenario.toString(), "--journal", "none",
        "--out", out.toString());
    assertEquals(2, r.code(), r.err());
    assertEquals(List.of("tlogsim: " + scenario + ":3: ${TLOGSIM_JDBC_PASSWORD}: environment variables that hold "
        + "secrets (names with PASS, SECRET, TOKEN, KEY, AUTH, CERT, JDBC_URL or PG..., or values with a password) are"
        + " not substituted into scenarios"), r.err().lines().toList());
    noSecret(r);
    assertFalse(Files.exists(out), "nothing written");
    // a variable that holds none is taken, and the run's files hold no secret either
    Files.writeString(scenario, "kind = gcm1\nsimulatedSeconds = 0.01\ndescription = ${?TLOGSIM_NOTE}\n");
    Result ok = tlogsim(Map.of("TLOGSIM_JDBC_PASSWORD", SECRET, "TLOGSIM_NOTE", "a note", "TLOGSIM_DATA",
        tmp.resolve("data").toString()), "run", scenario.toString(), "--out", out.toString());
    assertEquals(0, ok.code(), ok.err());
    noSecret(ok);
    assertTrue(Files.readString(out.resolve("summary.json")).contains("a note"));
    try (Stream<Path> files = Files.walk(tmp)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertFalse(contains(f, SECRET), f + " holds the secret");
      }
    }
  }

  private static boolean contains(Path f, String s) throws IOException {
    return new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1).contains(s);
  }
}
