package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tlogsim.cli.TlogsimTest.Result;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html's timeline marks the run's checkpoints (those its journal holds) and, for a branch, where it left its
 * parent; replay and {@code tlogsim report} write the live run's report byte for byte.
 */
@ExtendWith(StderrNotATerminal.class)
class ReportTimelineTest {
  private static final JsonMapper JSON = new JsonMapper();

  @TempDir
  Path tmp;

  private static int count(String html, String regex) {
    Matcher m = Pattern.compile(regex).matcher(html);
    int n = 0;
    while (m.find()) n++;
    return n;
  }

  @Test
  void theTimelineMarksCheckpointsAndWhereABranchLeftItsParentAndReplayWritesTheSameBytes() throws Exception {
    Path data = tmp.resolve("data");
    String d = data.toString();
    Result p = tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=2", "--checkpoint-min-gap", "0s", "--data", d,
        "--quiet", "--json");
    assertEquals(0, p.code(), p.err());
    String parent = JSON.readTree(p.out()).get("runId").asText();
    Result b = tlogsim("run", "--branch", parent, "--at", "1", "--set", "flushPolicy=group-commit", "--set",
        "groupCommitDelayUs=200", "--checkpoint-min-gap", "0s", "--data", d, "--quiet", "--json");
    assertEquals(0, b.code(), b.err());
    JsonNode branch = JSON.readTree(b.out());
    String branchId = branch.get("runId").asText();

    int parentCheckpoints, branchCheckpoints;
    try (Journal journal = Journal.openForReading(JournalSettings.of(JournalKind.H2, data))) {
      parentCheckpoints = journal.store().state(parent).checkpointSequenceNrs().size();
      branchCheckpoints = journal.store().state(branchId).checkpointSequenceNrs().size();
    }
    String parentHtml = Files.readString(data.resolve("runs").resolve(parent).resolve("report.html"));
    String branchHtml = Files.readString(data.resolve("runs").resolve(branchId).resolve("report.html"));
    assertTrue(parentCheckpoints >= 5, "marks every 10 % of 2 s: " + parentCheckpoints);
    assertEquals(parentCheckpoints, count(parentHtml, "<line class=\"mark\"[^>]*><title>checkpoint at "));
    assertTrue(parentHtml.contains(">checkpoints (" + parentCheckpoints + ")</text>"), "the row names the count");
    assertFalse(parentHtml.contains("left its parent"), "not a branch");

    assertEquals(branchCheckpoints, count(branchHtml, "<line class=\"mark\"[^>]*><title>checkpoint at "));
    assertEquals(1, count(branchHtml, "<title>left " + Pattern.quote(parent) + " at 1.0 s</title>"));
    assertTrue(branchHtml.contains("parent&#39;s run (up to T)") || branchHtml.contains("parent's run (up to T)"),
        "the parent's part up to T drawn as a phase");
    // the branch's first checkpoint is its start: the first event after T, not a mark one window later
    Matcher first = Pattern.compile("<title>checkpoint at ([0-9.]+) s</title>").matcher(branchHtml);
    assertTrue(first.find());
    double start = Double.parseDouble(first.group(1));
    assertTrue(start >= 1.0 && start < 1.001, "the branch's start checkpoint at T: " + start);
    assertTrue(first.find());
    assertTrue(Double.parseDouble(first.group(1)) >= 1.2, "the next at the next 10 % mark: " + first.group(1));

    // replay and report: the same bytes as the live run's
    for (String run : new String[] {parent, branchId}) {
      String live = Files.readString(data.resolve("runs").resolve(run).resolve("report.html"));
      Path replayed = tmp.resolve("replay-" + run);
      Result r = tlogsim("replay", run, "--out", replayed.toString(), "--data", d, "--quiet");
      assertEquals(0, r.code(), r.err());
      assertEquals("", r.err(), "no drift between the rebuilt and the stored summary");
      assertEquals(live, Files.readString(replayed.resolve("report.html")), "replay of " + run);
      Path again = tmp.resolve("report-" + run);
      Result rep = tlogsim("report", run, "--out", again.toString(), "--data", d, "--quiet");
      assertEquals(0, rep.code(), rep.err());
      assertEquals(live, Files.readString(again.resolve("report.html")), "report of " + run);
    }

    // without a journal: no checkpoints to mark
    Path none = tmp.resolve("none");
    Result n = tlogsim("run", "oltp-commits", "--set", "simulatedSeconds=1", "--journal", "none", "--out",
        none.toString(), "--quiet");
    assertEquals(0, n.code(), n.err());
    assertFalse(Files.readString(none.resolve("report.html")).contains("class=\"mark\""));
  }
}
