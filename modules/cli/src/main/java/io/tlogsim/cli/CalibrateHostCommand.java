package io.tlogsim.cli;

import io.tlogsim.analysis.calibrate.HostCalibration;
import io.tlogsim.analysis.calibrate.HostProfileFile;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Text;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim calibrate-host}: measures this host's cost of waiting and waking the way a database backend waits,
 * and writes a host profile (<data>/hosts/NAME.conf) that commit-path scenarios name as {@code host = profile:NAME}.
 */
@Command(name = "calibrate-host", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Measure this host's cost of waiting and waking the way a database backend waits (a thread woken "
        + "by another on the same core, on another core and on an idle one: futex-style, through a pipe and a Unix "
        + "socket; a context switch; the CPU of an 8 kB write and of its fdatasync under --path), each with its "
        + "spread (p10/p50/p90), and write a host profile (<data>/hosts/NAME.conf) that commit-path scenarios name as "
        + "host = profile:NAME. Threads are put on chosen cores with taskset where it exists.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_DEBUG})
final class CalibrateHostCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--name", paramLabel = "NAME", defaultValue = "local",
      description = "The profile's name (default: ${DEFAULT-VALUE}): <data>/hosts/NAME.conf.")
  String name;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the profile here instead.")
  Path out;

  @Option(names = "--data", paramLabel = "DIR", description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  Path data;

  @Option(names = "--path", paramLabel = "DIR",
      description = "A directory on the log's disk for the fdatasync's CPU (a temporary 8 MiB file is written there "
          + "and deleted; default: the data directory).")
  Path path;

  @Option(names = "--force", description = "Replace an existing profile.")
  boolean force;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "20",
      description = "About how long to measure, wall seconds (default: ${DEFAULT-VALUE}; 2 to 3600).")
  double seconds;

  @Option(names = "--quiet", description = "Print nothing but errors.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    if (!(seconds >= 2 && seconds <= 3600)) {
      throw new BadInputException("--seconds: must be from 2 to 3600, got " + Text.plain(seconds));
    }
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
      throw new BadInputException("--name: letters, digits, '.', '_' and '-' (it names a file), got '" + name + "'");
    }
    RunOptions.notEmpty("--path", path, "a directory");
    RunOptions.notEmpty("--out", out, "a file");
    RunOptions.notEmpty("--data", data, "a directory");
    if (out != null && data != null) throw new BadInputException("--out and --data: give one of them");
    Path dataDir = RunOptions.dataDirOf(data);
    Path dir = path != null ? path : dataDir;
    if (path != null && !Files.isDirectory(path)) throw new BadInputException("--path: " + path + " is not a directory");
    if (path != null && !Files.isWritable(path)) throw new BadInputException("--path: " + path + " is not writable");
    Path profile = out != null ? out : HostProfileFile.fileOf(dataDir, name);
    if (Files.isDirectory(profile)) throw new BadInputException("--out: " + profile + " is a directory");
    if (Files.exists(profile) && !force) {
      throw new BadInputException("--out: " + profile + " exists; --force replaces it, --name gives another");
    }
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    long start = System.nanoTime();
    if (!quiet) {
      stdout.printf(Locale.ROOT, "calibrate    this host's waits and wake-ups, and an fdatasync under %s: about %.0f"
          + " wall s%n", dir.toAbsolutePath(), seconds);
      stdout.flush();
    }
    HostCalibration.Result r;
    try {
      r = new HostCalibration(dir, seconds, line -> {
        if (quiet) return;
        err.printf(Locale.ROOT, "progress     %s (%.1f s)%n", line, (System.nanoTime() - start) / 1e9);
        err.flush();
      }).run();
    } catch (IOException e) {
      throw new IllegalStateException("measuring this host: " + e.getMessage(), e);
    }
    Files.createDirectories(profile.toAbsolutePath().getParent());
    Files.writeString(profile, HostProfileFile.render(name, r, host()));
    if (!quiet) {
      stdout.printf(Locale.ROOT, "measured     %.1f wall s; threads pinned: %s; cores %s%n", r.seconds(), r.pinning(),
          r.cpus());
      for (String note : r.notes()) stdout.println("note         " + note);
      stdout.printf(Locale.ROOT, "%-36s %10s %10s %10s %10s %10s%n", "figure", "p10 us", "p50 us", "p90 us", "mean us",
          "samples");
      for (HostCalibration.Figure f : r.figures()) {
        stdout.printf(Locale.ROOT, "%-36s %10.2f %10.2f %10.2f %10.2f %,10d%n", f.name(), f.p10Us(), f.p50Us(),
            f.p90Us(), f.meanUs(), f.count());
      }
      for (Map.Entry<String, Double> e : HostProfileFile.settings(r).entrySet()) {
        stdout.printf(Locale.ROOT, "setting      %s = %.3f%n", e.getKey(), e.getValue());
      }
      stdout.println("profile      " + profile.toAbsolutePath());
      stdout.println("use          host = profile:" + (out != null ? profile.toAbsolutePath() : name)
          + " in a commit-path scenario (docs/commit-path.md, calibrate-host)");
      stdout.flush();
    }
    return Tlogsim.OK;
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
