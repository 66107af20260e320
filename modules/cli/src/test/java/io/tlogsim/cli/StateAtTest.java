package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --at T} (issue 25): the state at T is the run's own (what its log-space series recorded at T, the same
 * after a kill -9 and a resume), checkpoints at simulated-time marks change no result, and bad input is refused.
 */
@ExtendWith(StderrNotATerminal.class)
class StateAtTest {
  private static final JsonMapper JSON = new JsonMapper();
  // Its runs on one thread (replay --at and --resume take the run's): what a state at T is does not depend on the
  // thread count (DESIGN.md principle 2), and this window-bound run (2.3 million windows) takes about half the wall
  // time on one thread that it takes on two on CI's 2 cores.
  private static final String STAIRWAY = "stairway-update-fragmented";

  @TempDir
  Path tmp;

  private static JsonNode at(Path data, String runId, String t, String show) throws Exception {
    Result r = tlogsim("replay", runId, "--at", t, "--show", show, "--json", "--data", data.toString());
    assertEquals(0, r.code(), r.err());
    return JSON.readTree(r.out());
  }

  /** The log-space series' row at {@code seconds}: size, used, VLFs. */
  private static String[] sample(Path dir, int seconds) throws Exception {
    for (String line : Files.readAllLines(dir.resolve("log-space-sample-intervals.csv"))) {
      String[] f = line.split(",");
      if (f[1].equals(String.valueOf(seconds))) return f;
    }
    throw new AssertionError("no sample at " + seconds + " s");
  }

  @Test
  void aLogSpaceRunAtThreeInstantsShowsWhatItsOwnSeriesRecordedThere() throws Exception {
    Path data = tmp.resolve("data");
    Result run = tlogsim("run", STAIRWAY, "--data", data.toString(), "--quiet", "--json",
        "--checkpoint-every-simulated", "60s", "--checkpoint-min-gap", "0s", "--threads", "1");
    assertEquals(0, run.code(), run.err());
    String runId = JSON.readTree(run.out()).get("runId").asText();
    Path dir = data.resolve("runs").resolve(runId);
    long previousUsed = -1;
    for (int t : new int[] {180, 300, 450}) { // the load done, during update-3, during update-5
      JsonNode s = at(data, runId, String.valueOf(t), "sqlperf,loginfo,transactions");
      String[] row = sample(dir, t); // component,timeSeconds,sizeBytes,usedBytes,reservedBytes,vlfs
      assertEquals(Long.parseLong(row[2]), s.get("sqlperf").get("sizeBytes").asLong(), "log size at " + t + " s");
      assertEquals(Long.parseLong(row[3]), s.get("sqlperf").get("usedBytes").asLong(), "log used at " + t + " s");
      assertEquals(Long.parseLong(row[5]), s.get("sqlperf").get("vlfs").asLong(), "VLFs at " + t + " s");
      assertEquals(Long.parseLong(row[5]), s.get("loginfo").size(), "one DBCC LOGINFO row per VLF at " + t + " s");
      long reserved = 0;
      for (JsonNode txn : s.get("transactions")) reserved += txn.get("reservedBytes").asLong();
      assertEquals(Long.parseLong(row[4]), reserved, "the open transactions reserve what the series says at " + t);
      assertTrue(s.get("fromCheckpointSeconds").asDouble() <= t && s.get("fromCheckpointSeconds").asDouble() > t - 61,
          "simulated from the mark's checkpoint before " + t + " s: " + s.get("fromCheckpointSeconds"));
      long used = s.get("sqlperf").get("usedBytes").asLong();
      assertTrue(used > previousUsed, "the updates fill the log: " + used + " after " + previousUsed);
      previousUsed = used;
    }
    // Bad input: one line, exit 2
    Result beyond = tlogsim("replay", runId, "--at", "999", "--data", data.toString());
    assertEquals(2, beyond.code(), beyond.err());
    assertEquals(1, beyond.errLines().size(), beyond.err());
    assertTrue(beyond.err().contains("beyond run " + runId + ", which covers 0 to 535.279"), beyond.err());
    Result negative = tlogsim("replay", runId, "--at", "-1", "--data", data.toString());
    assertEquals(2, negative.code(), negative.err());
    assertEquals(1, negative.errLines().size(), negative.err());
    Result unknown = tlogsim("replay", runId, "--at", "30", "--show", "vlfs", "--data", data.toString());
    assertEquals(2, unknown.code(), unknown.err());
    assertTrue(unknown.err().contains("--show vlfs: unknown section; allowed with --at: loginfo, sqlperf, reuse, "
        + "transactions, waits, devices, sessions"), unknown.err());
  }

  @Test
  void aKindWithoutVlfsLeavesThoseSectionsOutWithANote() throws Exception {
    Path data = tmp.resolve("data");
    Result run = tlogsim("run", "gcm1", "--set", "sessions=200", "--set", "simulatedSeconds=0.05", "--data",
        data.toString(), "--quiet", "--json");
    assertEquals(0, run.code(), run.err());
    JsonNode s = at(data, JSON.readTree(run.out()).get("runId").asText(), "0.02", "loginfo,sqlperf,sessions,devices");
    assertTrue(s.get("omitted").get("loginfo").asText().contains("has no log in VLFs"), s.toString());
    assertTrue(s.get("omitted").has("sqlperf"), s.toString());
    assertTrue(s.has("devices") && s.has("sessions"), s.toString());
  }

  /** Digest, figures and the run's counts: a checkpoint at a mark changes none of them (DESIGN.md principle 2). */
  @Test
  void checkpointsAtSimulatedMarksChangeNoResult() throws Exception {
    Path data = tmp.resolve("data");
    List<JsonNode> got = new ArrayList<>();
    // no marks; every mark (no minimum wall gap); marks all passed over (a gap longer than the run)
    String[][] variants = {{"off", "0s"}, {"5%", "0s"}, {"5%", "1h"}};
    for (String[] v : variants) {
      Result r = tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=1", "--data", data.toString(), "--quiet",
          "--json", "--checkpoint-every-simulated", v[0], "--checkpoint-min-gap", v[1], "--threads", "2");
      assertEquals(0, r.code(), r.err());
      got.add(JSON.readTree(r.out()));
    }
    for (int i = 1; i < got.size(); i++) {
      for (String path : new String[] {"digest", "commits", "log", "waits", "devices"}) {
        assertEquals(got.get(0).get(path), got.get(i).get(path), path);
      }
      for (String count : new String[] {"windows", "messages", "events"}) {
        assertEquals(got.get(0).get("run").get(count), got.get(i).get("run").get(count), "run." + count);
      }
    }
    int marked;
    int passedOver;
    try (Journal journal = Journal.openForReading(JournalSettings.of(JournalKind.H2, data))) {
      RunStore store = journal.store();
      marked = store.state(got.get(1).get("runId").asText()).checkpointSequenceNrs().size();
      passedOver = store.state(got.get(2).get("runId").asText()).checkpointSequenceNrs().size();
    }
    assertTrue(marked >= 19, "a checkpoint at each of the 19 marks within the run: " + marked);
    // only the wall-time checkpoints (every 2 s) are left when every mark comes within the gap
    assertTrue(passedOver < marked && passedOver <= got.get(2).get("run").get("wallSeconds").asDouble() / 2 + 1,
        "marks within an hour of the last checkpoint passed over: " + passedOver + " checkpoints");
    JsonNode gapState = at(data, got.get(2).get("runId").asText(), "0.52", "waits,sessions");
    JsonNode markState = at(data, got.get(1).get("runId").asText(), "0.52", "waits,sessions");
    assertTrue(markState.get("fromCheckpointSeconds").asDouble() >= 0.5, markState.toString());
    assertNotEquals(markState.get("fromCheckpointSeconds").asDouble(), gapState.get("fromCheckpointSeconds").asDouble(),
        "not from the mark's checkpoint: " + gapState);
    assertEquals(markState.get("digest"), gapState.get("digest"), "the state at 0.52 s from an earlier checkpoint");
    assertEquals(markState.get("waits"), gapState.get("waits"));
    Result bad = tlogsim("run", "oltp-commits", "--checkpoint-every-simulated", "often", "--data", data.toString());
    assertEquals(2, bad.code(), bad.err());
    assertTrue(bad.err().contains("tlogsim.journal.checkpoint-every-simulated: must be a percent"), bad.err());
    for (String gap : new String[] {"-1s", "soon"}) {
      Result badGap = tlogsim("run", "oltp-commits", "--checkpoint-min-gap", gap, "--data", data.toString());
      assertEquals(2, badGap.code(), badGap.err());
      assertEquals(1, badGap.errLines().size(), badGap.err());
      assertTrue(badGap.err().contains("--checkpoint-min-gap: must be a wall duration with its unit (500ms, 2s) or 0s, "
          + "got '" + gap + "'"), badGap.err());
    }
  }

  /** kill -9 mid-run, then --resume: the state at T is the uninterrupted run's (KillAndResumeTest shows the kill). */
  @Test
  void atOnARunResumedAfterKill9EqualsAtOnTheUninterruptedRun() throws Exception {
    Path wholeData = tmp.resolve("whole");
    Result w = tlogsim("run", STAIRWAY, "--data", wholeData.toString(), "--quiet", "--json", "--threads", "1");
    assertEquals(0, w.code(), w.err());
    String wholeId = JSON.readTree(w.out()).get("runId").asText();

    Path data = tmp.resolve("data");
    Path err = tmp.resolve("child.err");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dtlogsim.stderr.tty=false", "-Dtlogsim.journal.checkpoint-every=400ms",
        "-Dtlogsim.journal.checkpoint-every-simulated=50s", "-cp", System.getProperty("java.class.path"),
        Tlogsim.class.getName(), "run", STAIRWAY, "--data", data.toString(), "--quiet", "--threads", "1"));
    Process child = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile()).start();
    double checkpointed = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (child.isAlive() && checkpointed == 0 && System.nanoTime() < deadline) {
      Thread.sleep(200);
      if (!Files.exists(data.resolve("journal/tlogsim.mv.db"))) continue;
      try (Journal journal = Journal.openForReading(JournalSettings.of(JournalKind.H2, data))) {
        for (RunStore.Listed l : journal.store().list()) {
          if (l.state() != null) checkpointed = l.state().simulatedNanosReached() / 1e9;
        }
      }
    }
    assertTrue(child.isAlive() && checkpointed > 0, "killed mid-run, after a checkpoint (" + checkpointed + " s): "
        + Files.readString(err));
    Thread.sleep(1_000); // H2's write delay: what this reader saw is in the file
    child.destroyForcibly(); // SIGKILL
    assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    String runId = tlogsim("runs", "--data", data.toString()).out().lines().filter(l -> l.startsWith(STAIRWAY))
        .findFirst().orElseThrow().split("\\s+")[0];
    Result resumed = tlogsim("run", "--resume", runId, "--data", data.toString(), "--quiet");
    assertEquals(0, resumed.code(), resumed.err());

    for (String t : new String[] {"100", "300"}) {
      ObjectNode whole = (ObjectNode) at(wholeData, wholeId, t, String.join(",", ReplayAt.SECTIONS));
      ObjectNode again = (ObjectNode) at(data, runId, t, String.join(",", ReplayAt.SECTIONS));
      for (ObjectNode n : List.of(whole, again)) { // which run, and from which of its checkpoints
        n.remove("runId");
        n.remove("fromCheckpointSeconds");
      }
      assertEquals(whole, again, "the state at " + t + " s");
      assertNotEquals(0, whole.get("loginfo").size());
    }
  }
}
