package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.args;
import static io.tlogsim.cli.TlogsimTest.summary;
import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.tlogsim.cli.TlogsimTest.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's durability promises, with real child JVMs: a run announced as running is in the journal whenever the
 * process is killed after that line, and resumes to the digest of an uninterrupted run; a run directory exists only
 * for a run the journal holds; a journal that cannot be written (a full disk) stops the run at once with one line, its
 * status failed and no temporary file left; a journal on read-only media can be listed and replayed. The last two need
 * root (they mount a small tmpfs) and are skipped without.
 */
class DurableRunTest {
  private static final String[] SCENARIO = {"gcm1", "--set", "sessions=5000", "--set", "simulatedSeconds=3",
      "--seed", "5", "--threads", "2"};

  @TempDir
  Path tmp;

  private final List<Path> mounted = new ArrayList<>();

  @BeforeEach
  void stderrIsNotATerminal() {
    System.setProperty(Progress.STDERR_TTY_PROPERTY, "false");
  }

  @AfterEach
  void forget() throws Exception {
    System.clearProperty(Progress.STDERR_TTY_PROPERTY);
    for (Path p : mounted) new ProcessBuilder("umount", "-l", p.toString()).inheritIO().start().waitFor();
  }

  /** A child JVM running tlogsim with {@code argv}; stdout and stderr to files. */
  private static Process child(Path out, Path err, String... argv) throws IOException, InterruptedException {
    List<String> cmd = ChildJvm.command(); // java and the class path, with the children's class-data archive
    cmd.addAll(List.of("-Dtlogsim.stderr.tty=false", "-Dtlogsim.journal.checkpoint-every=300ms",
        Tlogsim.class.getName()));
    cmd.addAll(List.of(argv));
    return new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
  }

  /**
   * tlogsim with {@code argv} in a child JVM, to its end: after a kill -9 a user lists and resumes from a new process,
   * and so does this test. (In the test's own JVM the commands shared one H2 engine with whatever earlier commands
   * left in it; once, on CI, a resume there found the journal "in use by another process" for 30 s.)
   */
  private Result inChild(String... argv) throws Exception {
    Path out = Files.createTempFile(tmp, "cmd", ".out"), err = Files.createTempFile(tmp, "cmd", ".err");
    Process p = child(out, err, argv);
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly(); // or it keeps the journal's file, and the next command waits for it in vain
      fail("tlogsim " + String.join(" ", argv) + " did not end within 300 s");
    }
    return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** {@code tlogsim runs} in a child JVM: its lines. */
  private List<String> runs(Path data) throws Exception {
    Result r = inChild("runs", "--data", data.toString());
    assertEquals(0, r.code(), r.err());
    return r.out().lines().toList();
  }

  private static Set<String> runIds(List<String> runs) {
    Set<String> ids = new HashSet<>();
    runs.stream().filter(l -> l.startsWith("gcm1-")).forEach(l -> ids.add(l.split("\\s+")[0]));
    return ids;
  }

  private static Set<String> runDirs(Path data) throws IOException {
    Set<String> dirs = new HashSet<>();
    if (!Files.isDirectory(data.resolve("runs"))) return dirs;
    try (Stream<Path> s = Files.list(data.resolve("runs"))) {
      s.forEach(p -> dirs.add(p.getFileName().toString()));
    }
    return dirs;
  }

  @Test
  void aRunKilledAtAnyMomentAfterItIsAnnouncedIsInTheJournalAndResumesToItsUninterruptedDigest() throws Exception {
    Path whole = tmp.resolve("whole");
    Result w = tlogsim(args(new String[] {"run"}, args(SCENARIO, "--journal", "none", "--out", whole.toString(),
        "--quiet")));
    assertEquals(0, w.code(), w.err());
    String want = summary(whole).get("digest").asText();
    // The run's wall time as a child that journals as the killed ones do takes it (from its summary), what the kill
    // moments below span: a child runs as fast as they do, JIT and class loading and all, where this JVM is warm or
    // cold from what ran in it before. (Sized from the run in this JVM, the window put 11 of 16 announced kills past
    // the run's end once the children had a class-data archive, which loads the classes a run needs after it says
    // "running" faster; 5 of 16 without it, run alone; 0 to 2 in CI.)
    Path wholeData = tmp.resolve("whole-data");
    Process u = child(tmp.resolve("whole.out"), tmp.resolve("whole.err"), args(new String[] {"run"},
        args(SCENARIO, "--data", wholeData.toString(), "--quiet")));
    assertTrue(u.waitFor(300, TimeUnit.SECONDS), "the uninterrupted child ended");
    assertEquals(0, u.exitValue(), Files.readString(tmp.resolve("whole.err")));
    Set<String> childRuns = runDirs(wholeData);
    assertEquals(1, childRuns.size(), "one run: " + childRuns);
    JsonNode childRun = summary(wholeData.resolve("runs").resolve(childRuns.iterator().next()));
    assertEquals(want, childRun.get("digest").asText(), "the journaled child's digest");
    long runMs = Math.round(childRun.get("run").get("wallSeconds").asDouble() * 1000);

    Path data = tmp.resolve("data"); // one journal for all of them, as in use
    SplittableRandom random = new SplittableRandom(24);
    Set<String> known = new HashSet<>();
    int announced = 0, resumed = 0, finished = 0;
    boolean checkedSystems = false;
    // 12 kills at seeded random moments (20 before 2026-12-05: each costs a JVM or three, and CI's budget is 30
    // minutes; once the kill window was sized from a child's own run, 16 of 20 landed mid-run, so 12 still give
    // about 8 mid-run kills and 5 or more resumes)
    final int kills = 12;
    for (int i = 0; i < kills; i++) {
      Path out = tmp.resolve("child-" + i + ".out"), err = tmp.resolve("child-" + i + ".err");
      Process p = child(out, err, args(new String[] {"run"}, args(SCENARIO, "--data", data.toString())));
      // Killed at a random moment: one in five before it is announced (in its first 2 s: the JVM, the journal), the
      // others from the moment it says "running" to a little (half a second) past the end its run would have on its own.
      boolean early = random.nextInt(5) == 0;
      long killAfterMs = early ? random.nextLong(2_000) : random.nextLong(runMs + 500);
      if (!early) {
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); p.isAlive()
            && !Files.readString(out).contains("running ") && System.nanoTime() < deadline; ) {
          Thread.sleep(5);
        }
      }
      if (!early && !checkedSystems && p.isAlive()) { // once: the process has one actor system (one scheduler)
        Set<String> systems = actorSystems(p.pid());
        if (!systems.isEmpty()) {
          assertEquals(Set.of("tlogsim"), systems, "one actor system for the journal and the run");
          checkedSystems = true;
        }
      }
      boolean ended = p.waitFor(killAfterMs, TimeUnit.MILLISECONDS);
      boolean wasAnnounced = Files.readString(out).contains("running ");
      if (!ended) {
        p.destroyForcibly(); // SIGKILL
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      }
      String at = "child " + i + " killed after " + killAfterMs + " ms (" + (ended ? "it had ended" : "announced: "
          + wasAnnounced) + "): " + Files.readString(err);
      List<String> listed = runs(data); // once a kill: the process is dead, the journal cannot change meanwhile
      Set<String> ids = runIds(listed);
      Set<String> fresh = new HashSet<>(ids);
      fresh.removeAll(known);
      assertTrue(fresh.size() <= 1, at + ": " + fresh);
      assertTrue(ids.containsAll(runDirs(data)), at + ": a run directory exists only for a run the journal holds: "
          + runDirs(data) + " vs " + ids);
      if (wasAnnounced) {
        announced++;
        assertEquals(1, fresh.size(), at + ": a run announced as running is in the journal");
      }
      if (fresh.isEmpty()) continue; // killed before its start was durable: nothing of it anywhere
      String id = fresh.iterator().next();
      known.add(id);
      if (ended && p.exitValue() == 0) {
        finished++;
        assertEquals(want, summary(data.resolve("runs").resolve(id)).get("digest").asText(), at);
        continue;
      }
      if (listed.stream().anyMatch(l -> l.startsWith(id + " ")
          && l.contains(" completed "))) { // killed once its end was durable, before its files were written
        Path replayed = tmp.resolve("replayed-" + i);
        Result r = inChild("replay", id, "--data", data.toString(), "--out", replayed.toString(), "--quiet");
        assertEquals(0, r.code(), at + ": " + r.err());
        assertEquals(want, summary(replayed).get("digest").asText(), at + ": replayed");
        finished++;
        continue;
      }
      Result r = inChild("run", "--resume", id, "--data", data.toString(), "--quiet");
      assertEquals(0, r.code(), at + ": " + r.err());
      assertEquals(want, summary(data.resolve("runs").resolve(id)).get("digest").asText(),
          at + ": resumed to the uninterrupted digest");
      resumed++;
    }
    System.out.printf("%d runs killed at random: %d announced, %d resumed to the digest, %d had finished (the run"
        + " took %d ms in a child)%n", kills, announced, resumed, finished, runMs);
    assertTrue(announced >= 6 && resumed >= 3, "enough kills landed mid-run to mean something: " + announced
        + " announced, " + resumed + " resumed");
    assertTrue(checkedSystems, "a running child's threads were looked at");
    Result verify = tlogsim("journal", "verify", "--data", data.toString());
    assertEquals(0, verify.code(), verify.out() + verify.err());
  }

  /** The names of the actor systems in process {@code pid}, from its threads (each system has one scheduler). */
  private static Set<String> actorSystems(long pid) throws Exception {
    Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        String.valueOf(pid), "Thread.print").redirectErrorStream(true).start();
    String dump = new String(jcmd.getInputStream().readAllBytes());
    jcmd.waitFor(60, TimeUnit.SECONDS);
    Set<String> systems = new HashSet<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\"(\\S+)-scheduler-\\d+\"",
        java.util.regex.Pattern.MULTILINE).matcher(dump);
    while (m.find()) systems.add(m.group(1));
    return systems;
  }

  /** Mounts a tmpfs of {@code size} at {@code dir}; skips the test where that is not allowed (not root). */
  private void tmpfs(Path dir, String size) throws Exception {
    Files.createDirectories(dir);
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
        .redirectErrorStream(true).start();
    String said = new String(p.getInputStream().readAllBytes());
    Assumptions.assumeTrue(p.waitFor() == 0, "skipped: cannot mount a tmpfs here (" + said.strip() + ")");
    mounted.add(0, dir);
  }

  @Test
  void aFullDiskStopsTheRunAtOnceWithOneLineItsStatusFailedAndNoTemporaryFile() throws Exception {
    Path data = tmp.resolve("full");
    tmpfs(data, "3m");
    Path out = tmp.resolve("full.out"), err = tmp.resolve("full.err");
    long t0 = System.nanoTime();
    Process p = child(out, err, "run", "gcm1-100k", "--set", "simulatedSeconds=30", "--data", data.toString());
    assertTrue(p.waitFor(300, TimeUnit.SECONDS));
    double wall = (System.nanoTime() - t0) / 1e9;
    List<String> errLines = Files.readAllLines(err);
    assertEquals(1, p.exitValue(), String.join("\n", errLines));
    assertEquals(1, errLines.size(), "one line: " + String.join("\n", errLines));
    assertTrue(errLines.get(0).startsWith("tlogsim: run failed: the H2 journal ") && errLines.get(0).contains(
        "could not be written") && errLines.get(0).contains("its disk is full"), errLines.get(0));
    assertTrue(wall < 120, "stopped when the journal failed, not at the end of 30 simulated s: " + wall + " s");
    Result runs = tlogsim("runs", "--data", data.toString());
    assertTrue(runs.out().lines().anyMatch(l -> l.startsWith("gcm1-100k-") && l.contains(" failed ")), runs.out());
    try (Stream<Path> files = Files.walk(data)) {
      List<Path> tmpFiles = files.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList();
      assertEquals(List.of(), tmpFiles, "no temporary file left");
    }
    assertEquals(Set.of(), runDirs(data), "the run's empty directory is removed");
    Result resume = tlogsim("run", "--resume", runs.out().lines().filter(l -> l.startsWith("gcm1-100k-"))
        .findFirst().orElseThrow().split("\\s+")[0], "--data", data.toString());
    assertEquals(2, resume.code());
    assertTrue(resume.err().contains("failed: the H2 journal"), resume.err());
  }

  @Test
  void aJournalOnReadOnlyMediaCanBeListedAndReplayed() throws Exception {
    Path data = tmp.resolve("media");
    tmpfs(data, "64m");
    Result r = tlogsim(args(new String[] {"run"}, "gcm1", "--set", "simulatedSeconds=0.05", "--data",
        data.toString(), "--quiet"));
    assertEquals(0, r.code(), r.err());
    String id = runDirs(data).iterator().next();
    Path live = data.resolve("runs").resolve(id);
    Process ro = new ProcessBuilder("mount", "-o", "remount,ro", data.toString()).inheritIO().start();
    assertEquals(0, ro.waitFor());
    assertFalse(Files.isWritable(data.resolve("journal")), "read-only now");
    Result runs = tlogsim("runs", "--data", data.toString());
    assertEquals(0, runs.code(), runs.err());
    assertTrue(runs.out().lines().anyMatch(l -> l.startsWith(id) && l.contains(" completed ")), runs.out());
    Path replayed = tmp.resolve("replayed");
    Result replay = tlogsim("replay", id, "--data", data.toString(), "--out", replayed.toString(), "--quiet");
    assertEquals(0, replay.code(), replay.err());
    assertEquals(Files.readString(live.resolve("summary.json")), Files.readString(replayed.resolve("summary.json")));
    Result verify = tlogsim("journal", "verify", "--data", data.toString());
    assertEquals(0, verify.code(), verify.out() + verify.err());
  }
}
