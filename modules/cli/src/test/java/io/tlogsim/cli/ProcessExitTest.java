package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only a real JVM shows: the exit code and the words of a run stopped by SIGTERM or out of memory. Each test
 * starts {@code java io.tlogsim.cli.Tlogsim} (the launcher's main class) on this test's class path.
 */
class ProcessExitTest {
  @TempDir
  Path tmp;

  private static ProcessBuilder tlogsim(List<String> jvm, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Dtlogsim.stderr.tty=false"); // as the launcher says when stderr is not a terminal; jvm may say otherwise
    cmd.addAll(jvm);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Tlogsim.class.getName());
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd);
  }

  /** Directories under data/runs (the run directories). */
  private static List<Path> runDirs(Path data) throws IOException {
    Path runs = data.resolve("runs");
    if (!Files.isDirectory(runs)) return List.of();
    try (Stream<Path> s = Files.list(runs)) {
      return s.toList();
    }
  }

  @Test
  void sigtermStopsTheRunSaysSoAndLeavesNoEmptyDirectory() throws Exception {
    Path data = tmp.resolve("data");
    Path err = tmp.resolve("err.log");
    Process p = tlogsim(List.of(), "run", "gcm1", "--set", "sessions=200000", "--set", "simulatedSeconds=60",
        "--threads", "1", "--progress", "0.2", "--data", data.toString())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(err).contains("progress") && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(Files.readString(err).contains("progress"), "the run reported progress: " + Files.readString(err));
    assertEquals(1, runDirs(data).size(), "the run's directory exists while it runs");

    p.destroy(); // SIGTERM
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the run stopped");
    List<String> rest = Files.readAllLines(err).stream().filter(l -> !l.startsWith("progress")).toList();
    assertEquals(143, p.exitValue(), "the JVM's code for SIGTERM, never 0");
    assertEquals(1, rest.size(), rest.toString());
    assertTrue(rest.get(0).matches("tlogsim: stopped by SIGTERM at [\\d.]+ of 60 simulated s; no summary was written;"
        + " run gcm1-42-\\S+ stays in the journal; tlogsim run --resume gcm1-42-\\S+ continues it from its last"
        + " checkpoint"), rest.get(0));
    assertEquals(List.of(), runDirs(data), "no empty run directory is left");
  }

  /**
   * stderr a terminal (as the launcher tells it), stdout redirected: the bar with the live rate and p99 on stderr. The
   * run lasts several wall seconds (10 simulated s; 2 took barely one on CI's machine, too short for a rate).
   */
  @Test
  void aTerminalGetsTheProgressBarWithTheLiveRateAlsoWhenStdoutIsRedirected() throws Exception {
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process p = tlogsim(List.of("-Dtlogsim.stderr.tty=true"), "run", "gcm1", "--set", "sessions=20000", "--set",
        "simulatedSeconds=10", "--threads", "1", "--journal", "none", "--out", tmp.resolve("run").toString())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), Files.readString(err));
    // the bar redraws itself with carriage returns; its colours are ANSI escapes
    List<String> frames = List.of(Files.readString(err).replaceAll("\u001b\\[[0-9;]*m", "").split("[\r\n]+"));
    assertTrue(frames.stream().anyMatch(f -> f.matches("gcm1 +\\d+% .* \\d+/10000 sim ms .*")), frames.toString());
    assertTrue(frames.stream().anyMatch(f -> f.matches(".* sim ms .*  [\\d,]+k?/s p99 [\\d.]+ (us|ms|s) *")),
        "the live rate and p99 after the bar, once a wall second has passed: " + frames);
    String stdout = Files.readString(out);
    assertTrue(stdout.startsWith("running      gcm1: "), stdout);
    assertFalse(stdout.contains("sim ms"), "the bar never goes to stdout: " + stdout);
  }

  /**
   * An --out that the checks let pass but that cannot be made (root may write to /proc, yet nothing can be made there):
   * bad input, one line, and nothing made in the working directory (not even the default journal).
   */
  @Test
  void anOutThatCannotBeMadeIsRefusedAndLeavesNothing() throws Exception {
    Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux's /proc");
    Path cwd = Files.createDirectory(tmp.resolve("cwd"));
    Path log = tmp.resolve("log.txt");
    Process p = tlogsim(List.of(), "run", "gcm1", "--set", "simulatedSeconds=0.01", "--out", "/proc/tlogsim-out")
        .directory(cwd.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    List<String> lines = Files.readAllLines(log);
    assertEquals(2, p.exitValue(), lines.toString());
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("tlogsim: --out /proc/tlogsim-out: "), lines.get(0));
    try (Stream<Path> left = Files.list(cwd)) {
      assertEquals(List.of(), left.toList(), "nothing made, not even data/journal");
    }
  }

  @Test
  void outOfMemoryIsOneLineThatSaysHowToGiveMore() throws Exception {
    Path data = tmp.resolve("data");
    Path log = tmp.resolve("oom.log");
    Process p = tlogsim(List.of("-Xmx64m"), "run", "gcm1", "--set", "sessions=5000000", "--set",
        "simulatedSeconds=0.01", "--quiet", "--data", data.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
    assertEquals(1, p.exitValue(), lines.toString());
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("tlogsim: run failed: out of memory (Java heap at most "), lines.get(0));
    assertTrue(lines.get(0).contains("TLOGSIM_JAVA_OPTS=-Xmx8g"), lines.get(0));
    assertFalse(lines.get(0).contains("Exception"), lines.get(0));
    assertEquals(List.of(), runDirs(data), "the empty run directory is removed");
  }
}
