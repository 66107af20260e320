package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.args;
import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The journal through the command line, in-process: runs, replay, compare, and what they refuse. */
@ExtendWith(StderrNotATerminal.class)
class JournalCommandsTest {
  private static final String[] SMALL = {"--set", "sessions=300", "--set", "simulatedSeconds=0.05", "--threads", "2"};

  @TempDir
  Path tmp;

  private String data() {
    return tmp.resolve("data").toString();
  }

  private Path onlyRunDir() throws Exception {
    try (Stream<Path> s = Files.list(tmp.resolve("data/runs"))) {
      List<Path> dirs = s.toList();
      assertEquals(1, dirs.size(), dirs.toString());
      return dirs.get(0);
    }
  }

  private void refused(String expected, String... argv) {
    Result r = tlogsim(argv);
    assertEquals(2, r.code(), r.out() + r.err());
    assertEquals(1, r.errLines().size(), "one line: " + r.err());
    assertTrue(r.err().startsWith("tlogsim: ") && r.err().contains(expected), "expected '" + expected + "': " + r.err());
  }

  @Test
  void aRunIsJournaledByDefaultListedReplayedAndCompared() throws Exception {
    Result run = tlogsim(args(new String[] {"run", "gcm1", "--checkpoint-min-gap", "0s"}, args(SMALL, "--data",
        data())));
    assertEquals(0, run.code(), run.err());
    assertTrue(Files.exists(tmp.resolve("data/journal/tlogsim.mv.db")), "the default journal is the H2 file");
    Path dir = onlyRunDir();
    String runId = dir.getFileName().toString();
    // a checkpoint at each of the 9 simulated-time marks inside the run (every 10% of it; none passed over: no minimum
    // wall gap), one more should 2 wall s have passed on a loaded machine
    assertTrue(run.out().replaceAll("\\s+", " ").matches("(?s).*journal " + runId + " in the h2 journal, (9|10) "
        + "checkpoints \\(tlogsim runs\\).*"), run.out());

    Result runs = tlogsim("runs", "--data", data());
    assertEquals(0, runs.code(), runs.err());
    String digest = summary(dir).get("digest").asText();
    String line = runs.out().lines().filter(l -> l.startsWith(runId)).findFirst().orElseThrow();
    assertTrue(line.matches(runId + "\\s+gcm1\\s+gcm1\\s+42\\s+completed\\s+\\S+ \\S+\\s+0.050\\s+" + digest
        + "\\s+sessions=300 simulatedSeconds=0.05\\s+GCM-1 .*"), line);

    Path replay = tmp.resolve("replay");
    Result rep = tlogsim("replay", runId, "--out", replay.toString(), "--data", data());
    assertEquals(0, rep.code(), rep.err());
    assertEquals("", rep.err(), "the rebuilt summary agrees with the stored one");
    assertEquals(Files.readString(dir.resolve("summary.json")), Files.readString(replay.resolve("summary.json")),
        "replay rebuilds summary.json byte for byte");
    assertEquals(Files.readString(dir.resolve("latency.hlog")), Files.readString(replay.resolve("latency.hlog")));
    refused("already holds summary.json", "replay", runId, "--out", replay.toString(), "--data", data());
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    for (String command : List.of("replay", "report")) { // an --out that cannot be made: bad input, not a failure
      refused("--out " + file.resolve("sub") + ": ", command, runId, "--out", file.resolve("sub").toString(), "--data",
          data());
      if (Files.isDirectory(Path.of("/proc/self"))) { // Linux: root passes the writability check, yet cannot make it
        refused("--out /proc/tlogsim-" + command + ": ", command, runId, "--out", "/proc/tlogsim-" + command, "--data",
            data());
      }
    }

    Result other = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--seed", "7", "--data", data())));
    assertEquals(0, other.code(), other.err());
    String otherId = tlogsim("runs", "--data", data()).out().lines().filter(l -> l.startsWith("gcm1-7-"))
        .map(l -> l.split("\\s+")[0]).findFirst().orElseThrow();
    Result cmp = tlogsim("compare", runId, otherId, "--data", data());
    assertEquals(0, cmp.code(), cmp.err());
    assertTrue(cmp.out().lines().anyMatch(l -> l.matches("seed\\s+42\\s+7\\s+-35 \\(-83.33%\\)")), cmp.out());
    assertTrue(cmp.out().lines().anyMatch(l -> l.startsWith("commits.count ")), cmp.out());
    assertTrue(cmp.out().strip().endsWith("figures differ"), cmp.out());
  }

  @Test
  void journalNoneWritesNoJournal() {
    Result r = tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--journal", "none", "--data", data())));
    assertEquals(0, r.code(), r.err());
    assertFalse(Files.exists(tmp.resolve("data/journal")));
    Result runs = tlogsim("runs", "--data", data());
    assertEquals(0, runs.code(), runs.err());
    assertTrue(runs.out().startsWith("no runs in the H2 journal") && runs.out().contains("does not exist yet"),
        runs.out());
    assertFalse(Files.exists(tmp.resolve("data/journal")), "runs created nothing");
  }

  @Test
  void badInputIsOneLineAndChangesNothing() throws Exception {
    refused("unknown run id 'nope'", "replay", "nope", "--data", data());
    refused("unknown run id 'nope'", "run", "--resume", "nope", "--data", data());
    assertFalse(Files.exists(tmp.resolve("data")), "nothing was created");
    refused("--journal none: keeps no runs", "runs", "--journal", "none", "--data", data());
    refused("takes no scenario", "run", "gcm1", "--resume", "x", "--data", data());
    refused("--resume and --set", "run", "--resume", "x", "--set", "sessions=3", "--data", data());
    refused("--resume and --journal none", "run", "--resume", "x", "--journal", "none", "--data", data());
    refused("give a scenario", "run", "--data", data());

    assertEquals(0, tlogsim(args(new String[] {"run", "gcm1"}, args(SMALL, "--data", data()))).code());
    String runId = onlyRunDir().getFileName().toString();
    Path journal = tmp.resolve("data/journal/tlogsim.mv.db");
    refused("run " + runId + " is completed: nothing to resume", "run", "--resume", runId, "--data", data());
    refused("unknown run id 'nope'", "compare", runId, "nope", "--data", data());

    // A journal that held a run, overwritten: the ledger beside it names the run, now lost (a failure, exit 1).
    Files.writeString(journal, "not a database\n".repeat(100));
    byte[] garbage = Files.readAllBytes(journal);
    for (String[] argv : new String[][] {{"run", "gcm1"}, {"runs"}, {"replay", runId}, {"journal", "verify"}}) {
      Result r = tlogsim(args(argv, "--data", data()));
      assertEquals(1, r.code(), r.out() + r.err());
      assertEquals(1, r.errLines().size(), "one line: " + r.err());
      assertTrue(r.err().contains("cannot be opened as a tlogsim journal") && r.err().contains("now lost: " + runId),
          r.err());
    }
    Files.delete(tmp.resolve("data/journal/tlogsim.ledger")); // without a ledger naming runs: bad input, as before
    refused("cannot be opened as a tlogsim journal", "runs", "--data", data());
    assertTrue(java.util.Arrays.equals(garbage, Files.readAllBytes(journal)), "the file is left as it was");
    assertEquals(runId, onlyRunDir().getFileName().toString(), "no run directory was made for the refused run");
  }
}
