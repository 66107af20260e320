package io.tlogsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C and SIGTERM on a real terminal: the run is started under {@code script(1)}, which gives it a pseudo-terminal
 * as a shell in tmux does, so the progress bar (and JLine under it) sees a terminal. The signal goes to the JVM, as
 * the terminal's Ctrl-C does to the foreground process. The JVM lingers 1 s after the stop line
 * ({@code tlogsim.stop.lingerMs}) so that a bar still drawing (every 200 ms) would show.
 */
class TerminalStopTest {
  @TempDir
  Path tmp;

  private record Stopped(int code, String screen, Path data) {}

  /** GNU env 8.31 and later can reset a signal to its default ({@code --default-signal}). */
  private static final boolean ENV_RESETS_SIGNALS = resetsSignals();

  private static boolean resetsSignals() {
    try {
      return new ProcessBuilder("env", "--default-signal=INT", "true").start().waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  private Stopped runAndSignal(String signal) throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "script(1) from util-linux");
    Path data = tmp.resolve("data");
    Path screen = tmp.resolve("screen.txt");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // a terminal's foreground job gets Ctrl-C; a test started in the background (nohup, &) inherits SIGINT ignored,
    // which the JVM keeps ignored: env(1) gives the run the default disposition a terminal's job has
    String cmd = "exec " + (ENV_RESETS_SIGNALS ? "env --default-signal=INT " : "") + "'" + java + "' -Dtlogsim.stderr.tty=true -Dtlogsim.stop.lingerMs=1000 -cp '" + System.getProperty("java.class.path") + "' "
        + Tlogsim.class.getName() + " run gcm1 --set sessions=200000 --set simulatedSeconds=60 --threads 1 --data '"
        + data + "'";
    Process script = new ProcessBuilder("/usr/bin/script", "-qfec", cmd, "/dev/null")
        .redirectInput(ProcessBuilder.Redirect.PIPE).redirectErrorStream(true).redirectOutput(screen.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.readString(screen).contains("sim ms") && script.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertTrue(Files.readString(screen).contains("sim ms"), "the bar is drawn: " + Files.readString(screen));
    Thread.sleep(1_500); // a few redraws, and the live figures after the bar
    Optional<ProcessHandle> jvm = script.descendants().filter(h -> h.info().command().orElse("").endsWith("java"))
        .findFirst();
    assertTrue(jvm.isPresent(), "the run's JVM under script");
    new ProcessBuilder("kill", "-" + signal, Long.toString(jvm.get().pid())).inheritIO().start().waitFor();
    assertTrue(script.waitFor(60, TimeUnit.SECONDS), "the run stopped");
    Thread.sleep(500); // what a redraw after the stop line would print
    return new Stopped(script.exitValue(), Files.readString(screen), data);
  }

  private static List<Path> runDirs(Path data) throws Exception {
    Path runs = data.resolve("runs");
    if (!Files.isDirectory(runs)) return List.of();
    try (Stream<Path> s = Files.list(runs)) {
      return s.toList();
    }
  }

  @Test
  void ctrlCOnATerminalSaysHowToResumeAndLeavesNoEmptyDirectory() throws Exception {
    Stopped s = runAndSignal("INT");
    assertEquals(130, s.code(), s.screen());
    assertTrue(s.screen().contains("tlogsim: stopped by Ctrl-C (SIGINT) at "), s.screen());
    assertTrue(s.screen().contains("tlogsim run --resume gcm1-42-"), s.screen());
    assertEquals(List.of(), runDirs(s.data()), "no empty run directory is left");
  }

  @Test
  void sigtermOnATerminalLeavesTheStopLineStandingWithNoBarDrawnOverIt() throws Exception {
    Stopped s = runAndSignal("TERM");
    assertEquals(143, s.code(), s.screen());
    int stop = s.screen().indexOf("tlogsim: stopped by SIGTERM at ");
    assertTrue(stop >= 0, s.screen());
    String after = s.screen().substring(stop);
    assertFalse(after.contains("sim ms"), "the bar is drawn again after the stop line: " + after);
    assertFalse(after.contains("\u001b["), "the cursor is moved after the stop line: " + after);
    // the bar redraws its own line (cursor up, the bar, cursor down): the stop line starts below it
    String before = s.screen().substring(0, stop).replaceAll("[ \r]+$", "");
    assertTrue(before.endsWith("\n") || before.endsWith("\u001b[1B"), "the stop line stands on a line of its own: "
        + before.substring(Math.max(0, before.length() - 200)));
    assertEquals(List.of(), runDirs(s.data()), "no empty run directory is left");
  }
}
