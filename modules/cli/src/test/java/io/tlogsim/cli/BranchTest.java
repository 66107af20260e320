package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --branch} (issue 25): a branch of oltp-commits at 1 s with another flush policy is its parent up to 1 s
 * (the digest of the events up to 1 s, the same as a run that ends at 1 s from its start without any checkpoint) and
 * another run after; branching twice from one point gives one digest; settings that fix the components are refused.
 */
@ExtendWith(StderrNotATerminal.class)
class BranchTest {
  private static final String[] GROUPED = {"--set", "flushPolicy=group-commit", "--set", "groupCommitDelayUs=200"};

  @TempDir
  Path tmp;

  private static JsonNode branch(Path data, String parent) throws Exception {
    Result r = tlogsim(TlogsimTest.args(new String[] {"run", "--branch", parent, "--at", "1"}, TlogsimTest.args(GROUPED,
        "--data", data.toString(), "--quiet", "--json")));
    assertEquals(0, r.code(), r.err());
    return new JsonMapper().readTree(r.out());
  }

  @Test
  void aBranchIsItsParentUpToTAndAnotherRunAfter() throws Exception {
    Path data = tmp.resolve("data");
    Result p = tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=2", "--data", data.toString(), "--quiet",
        "--json");
    assertEquals(0, p.code(), p.err());
    JsonNode parent = new JsonMapper().readTree(p.out());
    String parentId = parent.get("runId").asText();

    // The prefix, computed another way: the same scenario ending at 1 s, from its start, not journaled.
    Path prefixDir = tmp.resolve("prefix");
    Result q = tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=1", "--journal", "none", "--out",
        prefixDir.toString(), "--quiet");
    assertEquals(0, q.code(), q.err());
    String prefix = summary(prefixDir).get("digest").asText();
    Result at = tlogsim("replay", parentId, "--at", "1", "--show", "waits", "--json", "--data", data.toString());
    assertEquals(0, at.code(), at.err());
    assertEquals(prefix, new JsonMapper().readTree(at.out()).get("digest").asText(),
        "replay --at 1 has the digest of the parent's events up to 1 s");

    JsonNode once = branch(data, parentId);
    JsonNode twice = branch(data, parentId);
    assertEquals(parentId, once.get("run").get("branchOf").asText());
    assertEquals(1.0, once.get("run").get("branchAt").asDouble());
    assertEquals(prefix, once.get("run").get("branchPrefixDigest").asText(), "up to 1 s the branch is its parent");
    assertNotEquals(parent.get("digest").asText(), once.get("digest").asText(), "after 1 s it is another run");
    assertNotEquals(parent.get("log").get("writes").asLong(), once.get("log").get("writes").asLong(),
        "group commit with a 200 us delay writes fewer, larger blocks");
    assertEquals(once.get("digest"), twice.get("digest"), "branching twice from one point: one digest");
    assertEquals("group-commit", once.get("log").get("policy").asText(), once.get("log").toString());

    Result runs = tlogsim("runs", "--data", data.toString());
    assertTrue(runs.out().lines().filter(l -> l.contains("branch of " + parentId.substring(0, 20))).count() >= 2,
        runs.out());

    // compare works on them: both summaries side by side
    Result cmp = tlogsim("compare", parentId, once.get("runId").asText(), "--data", data.toString());
    assertEquals(0, cmp.code(), cmp.err());
    assertTrue(cmp.out().contains("log.writes"), cmp.out());

    // Refused, naming the key, exit 2, one line, nothing run
    for (String set : new String[] {"sessions=50", "logDevice=hdd", "script=[]"}) {
      Result r = tlogsim("run", "--branch", parentId, "--at", "1", "--set", set, "--data", data.toString());
      assertEquals(2, r.code(), set + ": " + r.err());
      assertEquals(1, r.errLines().size(), r.err());
      assertTrue(r.err().contains(set.substring(0, set.indexOf('=')) + ": cannot change mid-run"), r.err());
    }
    Result late = tlogsim(TlogsimTest.args(new String[] {"run", "--branch", parentId, "--at", "3"},
        TlogsimTest.args(GROUPED, "--data", data.toString())));
    assertEquals(2, late.code(), late.err());
    assertTrue(late.err().contains("beyond run " + parentId), late.err());
    Result noAt = tlogsim(TlogsimTest.args(new String[] {"run", "--branch", parentId}, TlogsimTest.args(GROUPED,
        "--data", data.toString())));
    assertEquals(2, noAt.code(), noAt.err());
  }

  /**
   * Under flushPolicy = postgresql with host costs the sessions hold WALWriteLock and lead the flushes of waiting
   * commits; another policy leaves them to the log manager. Who leads cannot change at T: refused, exit 2, one line.
   */
  @Test
  void aBranchCannotMoveWalWriteLockBetweenTheSessionsAndTheLogManager() throws Exception {
    Path data = tmp.resolve("data");
    String[] pg = {"--set", "flushPolicy=postgresql", "--set", "hostWakeCpuUs=5", "--set", "hostSleepCpuUs=3"};
    Result p = tlogsim(TlogsimTest.args(new String[] {"run", "oltp-commits", "--set", "simulatedSeconds=2"},
        TlogsimTest.args(pg, "--data", data.toString(), "--quiet", "--json")));
    assertEquals(0, p.code(), p.err());
    String parentId = new JsonMapper().readTree(p.out()).get("runId").asText();
    Result r = tlogsim(TlogsimTest.args(new String[] {"run", "--branch", parentId, "--at", "1"},
        TlogsimTest.args(GROUPED, "--data", data.toString())));
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.err().contains("cannot change mid-run") && r.err().contains("WALWriteLock"), r.err());
  }
}
