package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare PARENT BRANCH}: from T on, [T, end), by default (each side's figures those {@code replay --from T}
 * gives of it); --from for a later window, --whole for the two whole runs; exit 2 with one line for a run that is not
 * a branch of the other, --from before T, and an unknown run.
 */
@ExtendWith(StderrNotATerminal.class)
class CompareBranchTest {
  private static final JsonMapper JSON = new JsonMapper();

  @TempDir
  Path tmp;

  private static JsonNode json(Result r) throws Exception {
    assertEquals(0, r.code(), r.err());
    return JSON.readTree(r.out());
  }

  /** Figure {@code path}'s value on side {@code side} ("a" or "b") of compare --json. */
  private static JsonNode figure(JsonNode cmp, String path, String side) {
    for (JsonNode f : cmp.get("figures")) if (f.get("path").asText().equals(path)) return f.get(side);
    throw new AssertionError("no " + path + " in " + cmp);
  }

  @Test
  void aBranchIsComparedWithItsParentFromTOn() throws Exception {
    Path data = tmp.resolve("data");
    String d = data.toString();
    JsonNode parent = json(tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=2", "--data", d, "--quiet",
        "--json"));
    String p = parent.get("runId").asText();
    JsonNode branch = json(tlogsim("run", "--branch", p, "--at", "1", "--set", "flushPolicy=group-commit", "--set",
        "groupCommitDelayUs=200", "--data", d, "--quiet", "--json"));
    String b = branch.get("runId").asText();
    String other = json(tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=2", "--seed", "7", "--data", d,
        "--quiet", "--json")).get("runId").asText();

    // default: [1, 2), each side as replay --from 1 gives it
    JsonNode cmp = json(tlogsim("compare", p, b, "--json", "--data", d));
    assertEquals(1.0, cmp.get("window").get("fromSeconds").asDouble());
    assertEquals(2.0, cmp.get("window").get("toSeconds").asDouble());
    JsonNode parentFromT = json(tlogsim("replay", p, "--from", "1", "--json", "--out", tmp.resolve("pw").toString(),
        "--data", d));
    JsonNode branchFromT = json(tlogsim("replay", b, "--from", "1", "--json", "--out", tmp.resolve("bw").toString(),
        "--data", d));
    for (String path : new String[] {"commits.count", "log.writes", "commits.latencyUs.p99"}) {
      String[] at = path.split("\\.");
      JsonNode pv = parentFromT, bv = branchFromT;
      for (String k : at) {
        pv = pv.get(k);
        bv = bv.get(k);
      }
      assertEquals(pv, figure(cmp, path, "a"), path + " of the parent from T");
      assertEquals(bv, figure(cmp, path, "b"), path + " of the branch from T");
    }
    assertTrue(figure(cmp, "commits.count", "b").asLong() < branch.get("commits").get("count").asLong(),
        "from T on, not the branch's whole run (its figures include its parent's up to T)");
    // the human form says which window
    Result text = tlogsim("compare", p, b, "--data", d);
    assertEquals(0, text.code(), text.err());
    assertTrue(text.out().startsWith("window       [1, 2) simulated s of both"), text.out());
    // either order, and a later window
    assertEquals(figure(cmp, "commits.count", "b"), figure(json(tlogsim("compare", b, p, "--json", "--data", d)),
        "commits.count", "a"));
    JsonNode later = json(tlogsim("compare", p, b, "--from", "1.5", "--json", "--data", d));
    assertEquals(1.5, later.get("window").get("fromSeconds").asDouble());
    assertTrue(figure(later, "commits.count", "b").asLong() < figure(cmp, "commits.count", "b").asLong());
    // --whole: the stored summaries
    JsonNode whole = json(tlogsim("compare", p, b, "--whole", "--json", "--data", d));
    assertTrue(whole.get("window") == null, whole.toString());
    assertEquals(parent.get("commits").get("count"), figure(whole, "commits.count", "a"));
    assertEquals(branch.get("commits").get("count"), figure(whole, "commits.count", "b"));
    // two runs that are no branches: their whole summaries, as always
    assertTrue(json(tlogsim("compare", p, other, "--json", "--data", d)).get("window") == null);

    // refused: one line, exit 2
    String[][] bad = {
        {"compare", other, b}, {"is a branch of " + p + " at 1 s, not of " + other},
        {"compare", p, b, "--from", "0.5"}, {"--from 0.5: before 1 s, where the branch left its parent"},
        {"compare", p, "no-such-run"}, {"unknown run id 'no-such-run'"},
        {"compare", p, b, "--whole", "--from", "1.5"}, {"--whole and --from/--to: give one"}};
    for (int i = 0; i < bad.length; i += 2) {
      Result r = tlogsim(TlogsimTest.args(bad[i], "--data", d));
      assertEquals(2, r.code(), String.join(" ", bad[i]) + ": " + r.err());
      assertEquals(1, r.errLines().size(), r.err());
      assertTrue(r.err().contains(bad[i + 1][0]), r.err());
    }
  }
}
