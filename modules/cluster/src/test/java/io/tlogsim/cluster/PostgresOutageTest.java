package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.journal.Journal;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import io.tlogsim.journal.RunStatus;
import io.tlogsim.journal.RunStore;
import io.tlogsim.journal.TraceLevel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The cluster's shared PostgreSQL journal goes down for 60 s in the middle of a run on 3 nodes, and comes back: the run
 * waits for it (its writes retried with backoff, its end written once the database answers) and ends with the digest
 * of a run here; the journal holds it completed and whole. The server is this test's own (the shared one is never
 * stopped). Run with the other cluster tests: TLOGSIM_CLUSTER_TESTS=1.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
@EnabledIfEnvironmentVariable(named = "TLOGSIM_CLUSTER_TESTS", matches = "1",
    disabledReason = "the loopback cluster tests run with TLOGSIM_CLUSTER_TESTS=1 (CI sets it)")
class PostgresOutageTest {
  static {
    LoggerFactory.getILoggerFactory();
  }

  private static final Duration OUTAGE = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  @Test
  void aRunOnThreeNodesWaitsThroughAMinuteWithoutItsJournalAndEndsWithTheSameDigest() throws Exception {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("sessions", "20000");
    overrides.put("sessionsPerPool", "1250"); // 16 pools: components on every node
    overrides.put("simulatedSeconds", "3");
    RunSubmission spec = new RunSubmission("outage-1", "gcm1", "built-in:gcm1", null, overrides, 42, "--seed");
    ScenarioResult one = spec.scenario().run(new RunControl(spec.seed(), 2, null));
    String want = (String) one.summary().get("digest");
    try (OwnPostgresServer pg = OwnPostgresServer.start();
        LoopbackCluster cluster = new LoopbackCluster(dir, 3, pg.url())) {
      AtomicLong progress = new AtomicLong();
      long[] downAt = {0}, upAt = {0};
      Thread outage = new Thread(() -> {
        try {
          while (progress.get() < 500_000_000L) Thread.sleep(20);
          Thread.sleep(2_500); // a checkpoint has been written since
          pg.stop();
          downAt[0] = System.nanoTime();
          System.out.println("PostgreSQL stopped at " + progress.get() / 1e9 + " simulated s");
          assertFalse(pg.answers());
          Thread.sleep(OUTAGE.toMillis());
          pg.startAgain();
          upAt[0] = System.nanoTime();
          System.out.println("PostgreSQL started again after " + OUTAGE.toSeconds() + " s");
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      outage.start();
      ClusterSubmit.Result result = ClusterSubmit.run(cluster.contact(), cluster.keys(), spec, progress, e -> {});
      long endedAt = System.nanoTime();
      outage.join();
      assertTrue(downAt[0] > 0 && upAt[0] > 0, "the outage happened during the run");
      assertTrue(endedAt > upAt[0], "the run waited for its journal: it ended after the database came back");
      assertEquals(want, result.summary().get("digest"), "the digest of a run here");
      assertTrue(result.journal() != null && result.journal().contains("PostgreSQL"), "journaled: " + result.journal());
      JournalSettings js = new JournalSettings(JournalKind.POSTGRES, pg.url(), OwnPostgresServer.USER, "",
          TraceLevel.SUMMARY, Duration.ofSeconds(2), 200_000);
      try (Journal j = Journal.openForReading(js)) {
        RunStore store = j.store();
        assertEquals(RunStatus.COMPLETED, store.state(spec.runId()).effectiveStatus());
        assertEquals(want, store.load(spec.runId()).summary().get("digest"));
        for (RunStore.Listed l : store.list(true)) assertNull(l.damage(), "whole to the byte: " + l.damage());
      }
      String logs = "";
      for (LoopbackCluster.Node n : cluster.nodes()) logs += Files.readString(n.log());
      logs.lines().filter(l -> l.contains("RunWriter") || l.contains("ERROR")).forEach(System.out::println);
      System.out.printf("run ended %.1f s after the database came back; %s%n", (endedAt - upAt[0]) / 1e9,
          result.summary().get("run"));
      assertTrue(logs.contains("writes are retried") && logs.contains("answers again"), "the outage was noticed and "
          + "outlasted by the coordinator's journal writer: " + logs.lines().filter(l -> l.contains("journal"))
          .toList());
    }
  }
}
