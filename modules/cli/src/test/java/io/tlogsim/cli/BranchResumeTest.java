package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tlogsim.cli.TlogsimTest.Result;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A branch's start (its parent's state at T) is its first checkpoint: a branch killed with kill -9 right after it
 * started, before any checkpoint of its own, resumes from T to the digest and figures of the uninterrupted branch;
 * {@code replay --at} after T starts from that checkpoint (not from its parent's) and gives what it gives on the
 * uninterrupted branch; before T it is its parent's state.
 */
@ExtendWith(StderrNotATerminal.class)
class BranchResumeTest {
  private static final JsonMapper JSON = new JsonMapper();
  private static final String[] GROUPED = {"--set", "flushPolicy=group-commit", "--set", "groupCommitDelayUs=200"};

  @TempDir
  Path tmp;

  private static JsonNode at(Path data, String runId, String t) throws Exception {
    Result r = tlogsim("replay", runId, "--at", t, "--show", "waits,devices,sessions", "--json", "--data",
        data.toString());
    assertEquals(0, r.code(), r.err());
    return JSON.readTree(r.out());
  }

  @Test
  void aBranchKilledAfterItsStartResumesFromTAndReplayAtStartsThere() throws Exception {
    Path data = tmp.resolve("data");
    Result p = tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=8", "--data", data.toString(), "--quiet",
        "--json");
    assertEquals(0, p.code(), p.err());
    String parentId = JSON.readTree(p.out()).get("runId").asText();
    Result w = tlogsim(TlogsimTest.args(new String[] {"run", "--branch", parentId, "--at", "1"},
        TlogsimTest.args(GROUPED, "--data", data.toString(), "--quiet", "--json")));
    assertEquals(0, w.code(), w.err());
    JsonNode whole = JSON.readTree(w.out());

    // The same branch in a child JVM that takes no checkpoint of its own (none by wall time, no simulated marks),
    // killed once it says it runs: its start is durable by then, and it is all the journal holds of it.
    Path err = tmp.resolve("child.err");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dtlogsim.stderr.tty=false", "-Dtlogsim.journal.checkpoint-every=1h",
        "-Dtlogsim.journal.checkpoint-every-simulated=off", "-cp", System.getProperty("java.class.path"),
        Tlogsim.class.getName(), "run", "--branch", parentId, "--at", "1"));
    cmd.addAll(List.of(GROUPED));
    cmd.addAll(List.of("--data", data.toString()));
    Process child = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    String branchId = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
      for (String line; (line = out.readLine()) != null; ) {
        if (line.startsWith("running")) break;
      }
      assertTrue(child.isAlive(), "the branch ran to its end before it could be killed: " + Files.readString(err));
      child.destroyForcibly(); // SIGKILL
    }
    assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    for (String line : tlogsim("runs", "--data", data.toString()).out().lines().toList()) {
      String id = line.split("\\s+")[0];
      if (id.startsWith("oltp-commits") && !id.equals(parentId) && !id.equals(whole.get("runId").asText())) {
        branchId = id;
      }
    }
    assertTrue(branchId != null, tlogsim("runs", "--data", data.toString()).out());
    try (Journal journal = Journal.openForReading(JournalSettings.of(JournalKind.H2, data))) {
      assertEquals(1, journal.store().state(branchId).checkpointSequenceNrs().size(),
          "the killed branch holds one checkpoint: its start");
    }
    Result resumed = tlogsim("run", "--resume", branchId, "--data", data.toString(), "--quiet", "--json");
    assertEquals(0, resumed.code(), resumed.err());
    JsonNode again = JSON.readTree(resumed.out());
    for (String path : new String[] {"digest", "commits", "log", "waits", "devices"}) {
      assertEquals(whole.get(path), again.get(path), path);
    }
    assertEquals(parentId, again.get("run").get("branchOf").asText(), "a resumed branch still names its parent");
    assertEquals(whole.get("run").get("branchPrefixDigest"), again.get("run").get("branchPrefixDigest"));

    // replay --at after T: from the branch's own start checkpoint, the same on both branches
    for (String t : new String[] {"1.5", "4"}) {
      ObjectNode a = (ObjectNode) at(data, whole.get("runId").asText(), t);
      ObjectNode b = (ObjectNode) at(data, branchId, t);
      assertTrue(a.get("fromCheckpointSeconds").asDouble() >= 1.0, "from the branch's start or later: " + a);
      assertTrue(b.get("fromCheckpointSeconds").asDouble() >= 1.0, "from the branch's start or later: " + b);
      for (ObjectNode n : List.of(a, b)) {
        n.remove("runId");
        n.remove("fromCheckpointSeconds");
      }
      assertEquals(a, b, "the state at " + t + " s");
    }
    // before T a branch is its parent
    ObjectNode before = (ObjectNode) at(data, branchId, "0.5");
    ObjectNode parentThen = (ObjectNode) at(data, parentId, "0.5");
    assertEquals(parentThen.get("digest"), before.get("digest"));
    assertEquals(parentThen.get("waits"), before.get("waits"));
  }
}
