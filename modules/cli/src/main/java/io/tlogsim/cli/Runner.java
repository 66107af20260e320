package io.tlogsim.cli;

import io.tlogsim.analysis.SummaryWriter;
import io.tlogsim.engine.ScenarioKinds;
import io.tlogsim.engine.scenario.BadInputException;
import io.tlogsim.engine.scenario.RunControl;
import io.tlogsim.engine.scenario.Scenario;
import io.tlogsim.engine.scenario.ScenarioResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * What {@code run} and {@code bench} do: load and validate everything, make the output directory, run with a progress
 * bar on a terminal, print the summary and write summary.json. Bad input throws {@link BadInputException} before any
 * directory is made.
 */
final class Runner {
  private final CommandLine cl;

  Runner(CommandLine cl) {
    this.cl = cl;
  }

  int run(String scenarioArg, Map<String, String> overrides, RunOptions options, boolean bench) throws IOException {
    LoggerFactory.getILoggerFactory(); // logging up before Pekko's threads log (else SLF4J warns about a replay)
    // 1. Validate everything; nothing is written yet.
    Scenario scenario = ScenarioKinds.loader().load(scenarioArg, overrides);
    long seed = options.seed != null ? options.seed : scenario.seed();
    AtomicLong progress = new AtomicLong();
    RunControl control = new RunControl(seed, options.threadsOrDefault(), progress);
    Path out = options.out;
    if (out != null && Files.exists(out) && !Files.isDirectory(out)) {
      throw new BadInputException("--out " + out + ": exists and is not a directory");
    }

    // 2. The run's id and directory.
    Path runs = options.dataDir().resolve("runs");
    LocalDateTime now = LocalDateTime.now();
    String runId;
    boolean created;
    if (out == null) {
      Path[] made = new Path[1];
      runId = SummaryWriter.runId(scenario.name(), seed, now, id -> !tryCreate(runs, id, made));
      out = made[0];
      created = true;
    } else {
      runId = SummaryWriter.runId(scenario.name(), seed, now, id -> Files.exists(runs.resolve(id)));
      created = !Files.isDirectory(out);
      try {
        Files.createDirectories(out);
      } catch (IOException e) {
        throw new BadInputException("--out " + out + ": cannot create the directory (" + e + ")");
      }
    }

    // 3. Run.
    ScenarioResult result;
    try (Progress bar = Progress.start(Progress.onTerminal(), scenario.name(), scenario.endTimeNanos(), progress)) {
      result = scenario.run(control);
      bar.finished();
    } catch (RuntimeException | Error e) {
      if (created) deleteIfEmpty(out);
      throw e;
    }

    // 4. Report.
    PrintWriter stdout = cl.getOut();
    result.humanLines().forEach(stdout::println);
    if (bench) stdout.println(speedLine(result.summary()));
    stdout.flush();
    Path file = SummaryWriter.write(out, runId, result.summary());
    stdout.println("summary      " + file.toAbsolutePath().normalize());
    stdout.flush();
    return Tlogsim.OK;
  }

  /** Makes runs/id (and its parents); false when runs/id is already there, so the caller tries the next id. */
  private static boolean tryCreate(Path runs, String id, Path[] made) {
    try {
      Files.createDirectories(runs);
      made[0] = Files.createDirectory(runs.resolve(id));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new BadInputException("cannot create the run directory " + runs.resolve(id) + " (" + e
          + "); give --out DIR or --data DIR");
    }
  }

  private static void deleteIfEmpty(Path dir) {
    try (var entries = Files.list(dir)) {
      if (entries.findAny().isEmpty()) Files.delete(dir);
    } catch (IOException | UncheckedIOException ignored) {
      // leave it
    }
  }

  /** The benchmark's speed figures, from summary.run. */
  static String speedLine(Map<String, Object> summary) {
    Object r = summary.get("run");
    Map<?, ?> run = r instanceof Map<?, ?> m ? m : Map.of();
    return String.format(Locale.ROOT,
        "speed        %,.0f simulated commits/wall s, %,.0f events/wall s, %.4f messages/event",
        number(run.get("commitsPerWallSecond")), number(run.get("simulatedEventsPerWallSecond")),
        number(run.get("messagesPerEvent")));
  }

  private static double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
