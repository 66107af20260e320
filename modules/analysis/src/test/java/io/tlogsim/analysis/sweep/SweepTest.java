package io.tlogsim.analysis.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.analysis.Stats;
import io.tlogsim.scenario.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepTest {
  @TempDir
  Path dir;

  private static final String SPEC = """
      base = gcm1
      description = "small grid"
      set { simulatedSeconds = 0.02 }
      vary {
        sessions { from = 10, to = 1000, points = 3, scale = log }
        recordBytes = [200, 400]
      }
      replications = 3
      seed = 7
      metrics = ["commits.perSecond", "commits.latencyUs.mean"]
      parallel = 2
      """;

  private Experiment experiment() throws Exception {
    Path f = dir.resolve("grid.conf");
    Files.writeString(f, SPEC);
    return Experiment.load(f.toString());
  }

  @Test
  void aGridOfPointsAndReplicationsGivesOneRowPerRunAndStatisticsPerPoint() throws Exception {
    Experiment e = experiment();
    assertEquals(List.of("10", "100", "1000"), e.axes().get(0).values());
    assertEquals(6, e.points().size());
    List<Sweep.Row> rows = new Sweep(e, dir.resolve("out")).run(2, p -> {});
    assertEquals(18, rows.size());
    assertEquals(19, Files.readAllLines(dir.resolve("out/runs.csv")).size());
    assertEquals(7, Files.readAllLines(dir.resolve("out/points.csv")).size());
    // Replications of one point differ (independent seeds); the same replication index has the same seed everywhere.
    assertTrue(rows.stream().filter(r -> r.point() == 1).map(Sweep.Row::digest).distinct().count() == 3);
    assertEquals(1, rows.stream().filter(r -> r.replication() == 2).map(Sweep.Row::seed).distinct().count());
    Map<Integer, List<Stats>> stats = Sweep.stats(e, rows);
    Stats p1 = stats.get(1).get(0);
    double[] values = rows.stream().filter(r -> r.point() == 1).mapToDouble(r -> r.metrics()[0]).toArray();
    assertEquals((values[0] + values[1] + values[2]) / 3, p1.mean(), 1e-9);
    assertTrue(p1.ci95Low() < p1.mean() && p1.mean() < p1.ci95High());
    String html = Files.readString(dir.resolve("out/report.html"));
    assertEquals(2, html.split("<svg", -1).length - 1, "a chart per metric");
    assertTrue(html.contains("recordBytes=400"), "a line per value of the second axis");
  }

  @Test
  void anInterruptedSweepContinuesWhereItStoppedWithTheSameResults() throws Exception {
    Experiment e = experiment();
    Path out = dir.resolve("out");
    List<Sweep.Row> whole = new Sweep(e, out).run(2, p -> {});
    Path runs = out.resolve("runs.csv");
    List<String> lines = new ArrayList<>(Files.readAllLines(runs));
    List<String> kept = new ArrayList<>(lines.subList(0, 8));
    kept.add(lines.get(8).substring(0, 10)); // a row cut short when the sweep was stopped
    Files.write(runs, kept);
    int[] ran = {0};
    List<Sweep.Row> resumed = new Sweep(e, out).run(2, p -> ran[0]++);
    assertEquals(18 - 7, ran[0], "only the runs not in runs.csv are run again");
    assertEquals(whole.stream().map(Sweep.Row::digest).toList(), resumed.stream().map(Sweep.Row::digest).toList());
    String points = Files.readString(out.resolve("points.csv"));
    new Sweep(e, dir.resolve("fresh")).run(2, p -> {});
    assertEquals(Files.readString(dir.resolve("fresh/points.csv")), points, "the same statistics, to the last digit");
  }

  @Test
  void runsGoWhereTheSweepIsToldAndASweepStoppedThereIsResumedHereWithTheSameRows() throws Exception {
    Experiment e = experiment();
    Path out = dir.resolve("out");
    // elsewhere (as a cluster would be): every run through the given Runs, which fails at its sixth run
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    Sweep.Runs here = Sweep.here(e);
    Sweep.Runs elsewhere = (s, point, replication) -> {
      if (calls.incrementAndGet() > 5) throw new IllegalStateException("the cluster went away");
      return here.summary(s, point, replication);
    };
    IllegalStateException stopped =
        assertThrows(IllegalStateException.class, () -> new Sweep(e, out, elsewhere).run(1, p -> {}));
    assertEquals("the cluster went away", stopped.getMessage());
    assertEquals(1 + 5, Files.readAllLines(out.resolve("runs.csv")).size(), "the five runs that ended are kept");
    int[] ran = {0};
    List<Sweep.Row> resumed = new Sweep(e, out).run(2, p -> ran[0]++);
    assertEquals(18 - 5, ran[0], "only the runs not in runs.csv are run again");
    List<Sweep.Row> fresh = new Sweep(e, dir.resolve("fresh")).run(2, p -> {});
    assertEquals(fresh.stream().map(r -> r.seed() + " " + r.digest() + " " + java.util.Arrays.toString(r.metrics()))
        .toList(), resumed.stream().map(r -> r.seed() + " " + r.digest() + " " + java.util.Arrays.toString(r.metrics()))
        .toList());
  }

  @Test
  void badExperimentsAreRefusedBeforeAnythingRuns() throws Exception {
    Path f = dir.resolve("bad.conf");
    Files.writeString(f, "base = gcm1\nvary { sesions = [1, 2] }\n");
    BadInputException a = assertThrows(BadInputException.class, () -> Experiment.load(f.toString()));
    assertTrue(a.getMessage().contains("vary.sesions") && a.getMessage().contains("sessions"), a.getMessage());
    Files.writeString(f, "base = gcm1\nvary { sessions = [1, -2] }\n");
    BadInputException b = assertThrows(BadInputException.class, () -> Experiment.load(f.toString()));
    assertTrue(b.getMessage().contains("sessions"), b.getMessage());
    Files.writeString(f, "base = gcm1\nrepetitions = 3\n");
    BadInputException c = assertThrows(BadInputException.class, () -> Experiment.load(f.toString()));
    assertTrue(c.getMessage().contains("bad.conf:2") && c.getMessage().contains("replications"), c.getMessage());
    assertTrue(Files.notExists(dir.resolve("out")));
  }

  @Test
  void confidenceIntervalsUseStudentsT() {
    Stats s = Stats.of(new double[] {10, 12, 14});
    assertEquals(12, s.mean(), 1e-12);
    assertEquals(2, s.stddev(), 1e-12);
    assertEquals(12 - 4.303 * 2 / Math.sqrt(3), s.ci95Low(), 1e-9);
    assertEquals(1.96, Stats.t975(1_000_000), 0.001);
  }

  private static final String POLICIES = """
      base = oltp-commits
      set { simulatedSeconds = 0.3 }
      warmup = 0.1
      vary {
        sessions = [1, 20]
        policy {
          per-commit { flushPolicy = per-commit }
          lazy { flushPolicy = delayed-durability, delayedDurability = FORCED }
        }
      }
      replications = 2
      seed = 3
      metrics = ["commits.perSecond", "commits.latencyUs.p99", "commits.warmupSeconds"]
      precision { width = 0.05, metrics = ["commits.perSecond"], maxReplications = 12 }
      parallel = 2
      """;

  @Test
  void namedValuesSetSeveralKeysTheWarmupReachesEveryRunAndReplicationsAreAddedUntilPrecise() throws Exception {
    Path f = dir.resolve("policies.conf");
    Files.writeString(f, POLICIES);
    Experiment e = Experiment.load(f.toString());
    assertEquals(List.of("per-commit", "lazy"), e.axes().get(1).values());
    assertEquals("FORCED", e.scenario(e.points().get(3), 0).params().getString("delayedDurability"));
    assertEquals(0.1, e.scenario(e.points().get(0), 0).params().getDouble("warmupSeconds"));
    List<Sweep.Row> rows = new Sweep(e, dir.resolve("out")).run(2, p -> {});
    for (Sweep.Row r : rows) assertEquals(0.1, r.metrics()[2], "every run left its warm-up out");
    Map<Integer, List<Stats>> stats = Sweep.stats(e, rows);
    boolean added = false;
    for (Map.Entry<Integer, List<Stats>> en : stats.entrySet()) {
      Stats rate = en.getValue().get(0);
      added |= rate.n() > 2;
      assertTrue(Sweep.precise(rate, 0.05) || rate.n() == 12, "point " + en.getKey() + ": " + rate);
    }
    assertTrue(added, "one session's rate over 0.2 s varies by more than 5%: replications were added");
    // replications are numbered on without gaps, and a sweep continued from a cut runs.csv takes the same decisions
    Path runs = dir.resolve("out/runs.csv");
    List<String> lines = Files.readAllLines(runs);
    Files.write(runs, lines.subList(0, lines.size() - 3));
    List<Sweep.Row> resumed = new Sweep(e, dir.resolve("out")).run(1, p -> {});
    assertEquals(rows.stream().map(Sweep.Row::digest).toList(), resumed.stream().map(Sweep.Row::digest).toList());
  }

  @Test
  void aNamedValueWithAnUnknownKeyOrAWarmupOnAKindWithoutOneIsRefused() throws Exception {
    Path f = dir.resolve("bad.conf");
    Files.writeString(f, "base = oltp-commits\nvary { policy { a { flushPolicee = buffered } } }\n");
    BadInputException a = assertThrows(BadInputException.class, () -> Experiment.load(f.toString()));
    assertTrue(a.getMessage().contains("vary.policy") && a.getMessage().contains("flushPolicee"), a.getMessage());
    Files.writeString(f, "base = pg-commit\nwarmup = 0.5\n"); // gcm1 and the commit path have a warm-up; pg-commit not
    BadInputException b = assertThrows(BadInputException.class, () -> Experiment.load(f.toString()));
    assertTrue(b.getMessage().contains("warmup") && b.getMessage().contains("pg-commit"), b.getMessage());
  }

  @Test
  void theBuiltInCommitPoliciesExperimentLoads() {
    Experiment e = Experiment.load("commit-policies");
    assertEquals(50, e.points().size(), "5 session counts x 5 policies x 2 devices");
    assertEquals(List.of("1", "10", "100", "1000", "10000"), e.axes().get(0).values());
    assertTrue(e.precision().on());
    assertEquals("premium", e.scenario(e.points().get(49), 0).params().getString("logDevice"));
  }
}
