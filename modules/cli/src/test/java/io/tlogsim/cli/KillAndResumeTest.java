package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.args;
import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tlogsim.cli.TlogsimTest.Result;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real child JVM running a journaled run is killed with kill -9 (SIGKILL: no hook, no last write). The journal
 * stays readable, {@code runs} shows the run interrupted, and {@code run --resume} finishes it with the digest, windows
 * and kernel messages of a run that was never interrupted, under the data directory given to it.
 */
@ExtendWith(StderrNotATerminal.class)
class KillAndResumeTest {
  private static final String[] SCENARIO = {"gcm1", "--set", "sessions=5000", "--set", "simulatedSeconds=20",
      "--seed", "5", "--threads", "2"};

  @TempDir
  Path tmp;

  @Test
  void aRunKilledWithKill9IsInterruptedAndResumesToTheUninterruptedDigest() throws Exception {
    Path whole = tmp.resolve("whole");
    Result w = tlogsim(args(new String[] {"run"}, args(SCENARIO, "--journal", "none", "--out", whole.toString(),
        "--quiet")));
    assertEquals(0, w.code(), w.err());
    String want = summary(whole).get("digest").asText();

    // The child checkpoints every 0.4 wall s.
    Path data = tmp.resolve("data");
    Path err = tmp.resolve("child.err");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dtlogsim.stderr.tty=false", "-Dtlogsim.journal.checkpoint-every=400ms", "-cp",
        System.getProperty("java.class.path"), Tlogsim.class.getName(), "run"));
    cmd.addAll(List.of(args(SCENARIO, "--data", data.toString(), "--quiet")));
    Process child = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile()).start();
    // Killed once the journal holds a checkpoint of it (read meanwhile through the journal: H2 serves both).
    double checkpointed = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    try (Journal journal = Journal.openForReading(JournalSettings.of(JournalKind.H2, data))) {
      while (child.isAlive() && checkpointed == 0 && System.nanoTime() < deadline) {
        Thread.sleep(200);
        if (!journal.exists()) break; // created by the child after this reader looked: look again below
        for (RunStore.Listed l : journal.store().list()) {
          if (l.state() != null) checkpointed = l.state().simulatedNanosReached() / 1e9;
        }
      }
    }
    for (int tries = 0; checkpointed == 0 && child.isAlive() && tries < 600; tries++) { // the journal was not there
      Thread.sleep(200);
      if (!Files.exists(data.resolve("journal/tlogsim.mv.db"))) continue;
      try (Journal journal = Journal.openForReading(JournalSettings.of(JournalKind.H2, data))) {
        for (RunStore.Listed l : journal.store().list()) {
          if (l.state() != null) checkpointed = l.state().simulatedNanosReached() / 1e9;
        }
      }
    }
    assertTrue(child.isAlive() && checkpointed > 0 && checkpointed < 20,
        "the child is still running, with a checkpoint in the journal, when killed (" + checkpointed + " s): "
            + Files.readString(err));
    // H2 writes a commit to its file within half a second (its WRITE_DELAY): what this reader saw through the child's
    // server is then in the file too. (A kill sooner loses at most that last half second: the run resumes from the
    // checkpoint before.)
    Thread.sleep(1_000);
    child.destroyForcibly(); // SIGKILL
    assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    assertEquals(137, child.exitValue(), "killed by SIGKILL");

    Result runs = tlogsim("runs", "--data", data.toString());
    assertEquals(0, runs.code(), runs.err());
    String line = runs.out().lines().filter(l -> l.startsWith("gcm1-5-")).findFirst().orElseThrow(() ->
        new AssertionError("runs does not list the killed run: " + runs.out()));
    String runId = line.split("\\s+")[0];
    Matcher reached = Pattern.compile(".*\\sinterrupted\\s.*\\s([\\d.]+) of 20\\s+-\\s.*$").matcher(line);
    assertTrue(reached.matches(), line);
    assertTrue(Double.parseDouble(reached.group(1)) >= checkpointed, "the last checkpoint before the kill: " + line);

    // The data directory moves (another disk, another machine): the resume writes under the one given now, never in
    // the directory the journal remembers.
    Path moved = tmp.resolve("moved");
    Files.move(data, moved);
    Result resumed = tlogsim("run", "--resume", runId, "--data", moved.toString());
    assertEquals(0, resumed.code(), resumed.err());
    assertTrue(resumed.out().replaceAll("\\s+", " ").startsWith("resuming " + runId + " (gcm1, seed 5) from its "
        + "checkpoint at "), resumed.out());
    assertFalse(Files.exists(data), "nothing written where the run was started");
    JsonNode got = summary(moved.resolve("runs").resolve(runId));
    assertEquals(want, got.get("digest").asText(), "the resumed run ends with the digest of the uninterrupted one");
    JsonNode wholeRun = summary(whole).get("run");
    assertEquals(wholeRun.get("windows").asLong(), got.get("run").get("windows").asLong(),
        "run.windows counts the whole run, those before the checkpoint included");
    assertEquals(wholeRun.get("messages").asLong(), got.get("run").get("messages").asLong(),
        "run.messages is the uninterrupted run's, whatever the checkpoints and the resume");
    String after = tlogsim("runs", "--data", moved.toString()).out();
    assertTrue(after.lines().anyMatch(l -> l.startsWith(runId) && l.contains(" completed ")
        && l.contains(" " + want + " ")),
        after);
  }

}
