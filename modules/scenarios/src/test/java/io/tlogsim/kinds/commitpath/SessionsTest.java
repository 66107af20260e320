package io.tlogsim.kinds.commitpath;

import static io.tlogsim.kinds.ScenarioRuns.num;
import static io.tlogsim.kinds.ScenarioRuns.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sessions running scripts: per-session overrides of the database's flush policy, the host's cores, every step a
 * phase, and the data file's writers seen through the per-file statistics.
 */
class SessionsTest {

  @Test
  void aSessionsSetBufferedLogIsItsOwnWhileTheOthersFlushEveryCommit() {
    // an Informix database that flushes every commit; a session that asks for SET BUFFERED LOG does not wait, and
    // its 10 commits (77 KB of log) stay in one 128 KB buffer until its connection closes
    Map<String, Object> logged = run("informix-unbuffered", "script",
        "[{step = set-log, mode = unbuffered}, {step = update, rows = 1000, commitEvery = 100}]");
    Map<String, Object> buffered = run("informix-unbuffered", "script",
        "[{step = set-log, mode = buffered}, {step = update, rows = 1000, commitEvery = 100}]");
    assertEquals(10.0, num(logged, "commits.durable"));
    assertEquals(10.0, num(logged, "log.writes"), "one flush per commit");
    assertEquals(10.0, num(logged, "waits.WRITELOG.count"));
    assertEquals(0.0, num(buffered, "commits.durable"));
    assertEquals(10.0, num(buffered, "commits.acknowledgedEarly"));
    assertEquals(1.0, num(buffered, "log.writes"), "the buffered session's log is written once, at its close");
    assertEquals(0.0, num(buffered, "waits.WRITELOG.count"));
    assertEquals(10.0, num(buffered, "commits.maxAcknowledgedNotHardened"), "all 10 exposed until the close");
  }

  @Test
  void delayedDurabilityPerTransactionIsHonouredOnlyWhereTheDatabaseAllowsIt() {
    String script = "[{step = delayed-durability, on = true}, {step = insert, rows = 500}]";
    Map<String, Object> allowed = run("commit-path", "script", script, "delayedDurability", "ALLOWED");
    Map<String, Object> disabled = run("commit-path", "script", script, "delayedDurability", "DISABLED");
    Map<String, Object> forced = run("commit-path", "script", "[{step = insert, rows = 500}]", "delayedDurability",
        "FORCED");
    assertEquals(500.0, num(allowed, "commits.acknowledgedEarly"));
    assertTrue(num(allowed, "log.writes") < 50, "delayed commits fill 60 KB blocks: " + num(allowed, "log.writes"));
    assertEquals(0.0, num(disabled, "commits.acknowledgedEarly"), "DISABLED: every commit durable");
    assertEquals(500.0, num(disabled, "log.writes"));
    assertEquals(500.0, num(forced, "commits.acknowledgedEarly"), "FORCED: every commit delayed");
  }

  @Test
  void sessionsWaitForACoreOnlyWhenThereAreMoreRunnableThanCores() {
    // 8 sessions, no log wait to speak of (delayed durability), 100 us of CPU per statement
    String[] common = {"sessions", "8", "script", "[{step = insert, rows = 1000}]", "cpuStatementUs", "90",
        "cpuInsertRowUs", "10", "cpuCommitUs", "0", "delayedDurability", "FORCED"};
    Map<String, Object> eight = run("commit-path", with(common, "cores", "8"));
    Map<String, Object> two = run("commit-path", with(common, "cores", "2"));
    assertEquals(0.0, num(eight, "waits.CPU.count"), "a core each: nobody waits");
    assertEquals(0.1, num(eight, "simulatedSeconds"), 0.002, "1,000 statements of 100 us each, in parallel");
    assertTrue(num(two, "waits.CPU.count") > 1000, "two cores for eight sessions");
    assertEquals(0.4, num(two, "simulatedSeconds"), 0.005, "8,000 statements of 100 us on 2 cores");
    assertEquals(1.0, num(two, "cpu.utilization"), 0.01);
  }

  @Test
  void everyStepIsAPhaseWithItsStartAndLength() {
    Map<String, Object> s = run("commit-path", "script", "[{step = think, us = 5000}, {step = insert, rows = 100, "
        + "name = load}, {step = checkpoint}, {step = update, seconds = 0.01}]", "tableRows", "10000");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> phases = (List<Map<String, Object>>) s.get("phases");
    assertEquals(List.of("think", "load", "checkpoint", "update"), phases.stream().map(p -> p.get("name")).toList());
    assertEquals(0.0, ((Number) phases.get(0).get("startSeconds")).doubleValue());
    assertEquals(0.005, ((Number) phases.get(0).get("seconds")).doubleValue(), 1e-9);
    assertEquals(0.005, ((Number) phases.get(1).get("startSeconds")).doubleValue(), 1e-9);
    double updateStart = ((Number) phases.get(3).get("startSeconds")).doubleValue();
    assertEquals(0.01, ((Number) phases.get(3).get("seconds")).doubleValue(), 0.001);
    assertEquals(updateStart + ((Number) phases.get(3).get("seconds")).doubleValue(), num(s, "simulatedSeconds"),
        1e-6);
    assertEquals(1.0, num(s, "log.checkpoints"));
  }

  @Test
  void dataOnTheLogDeviceSharesItAndTheFileStatisticsTellTheFilesApart() {
    String[] common = {"script", "[{step = update, rows = 5000, access = random}, {step = checkpoint}]",
        "tableRows", "100000", "rowsPerPage", "50", "lazyWriterIntervalMs", "0"};
    Map<String, Object> shared = run("commit-path", with(common, "dataOnLogDevice", "true"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> files = (List<Map<String, Object>>) shared.get("files");
    assertEquals(List.of("ROWS", "LOG"), files.stream().map(f -> f.get("type")).toList());
    double pages = ((Number) files.get(0).get("writes")).doubleValue();
    assertTrue(pages > 1000 && pages <= 2000, "the checkpoint wrote the dirty pages (5,000 random rows of 2,000 pages): "
        + pages);
    assertEquals(pages, num(shared, "data.checkpointWrites"));
    @SuppressWarnings("unchecked")
    Map<String, Object> devices = (Map<String, Object>) shared.get("devices");
    assertEquals(List.of("log-device"), List.copyOf(devices.keySet()), "one device for both files");
    assertEquals(num(shared, "log.writes") + pages, num(shared, "devices.log-device.writes"));
    Map<String, Object> apart = run("commit-path", with(common, "dataOnLogDevice", "false"));
    assertEquals(pages, num(apart, "devices.data-device.writes"), "the same pages on the data device");
  }

  private static String[] with(String[] base, String... more) {
    String[] out = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, out, base.length, more.length);
    return out;
  }
}
