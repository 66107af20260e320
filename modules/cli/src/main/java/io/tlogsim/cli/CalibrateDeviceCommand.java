package io.tlogsim.cli;

import io.tlogsim.analysis.calibrate.DiskCalibration;
import io.tlogsim.analysis.calibrate.ProfileFile;
import io.tlogsim.storage.DeviceProfiles;
import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim calibrate-device --path DIR}: measures the disk under DIR as a log uses it, writes a device profile
 * scenarios name as {@code profile:NAME}, and prints the measured and the simulated figures of the same patterns.
 */
@Command(name = "calibrate-device", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Measure the disk under a directory the way a log uses it (O_DSYNC writes of 512 B to 60 KB and "
        + "1 MiB one at a time, 4 KB with 8 in flight, a clean flush), write a device profile (<data>/devices/NAME"
        + ".conf) that scenarios name as device=profile:NAME or logDevice=profile:NAME, and print the measured and "
        + "the simulated latency and rate of the same patterns side by side.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_DEBUG})
final class CalibrateDeviceCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--path", required = true, paramLabel = "DIR",
      description = "A directory on the disk to measure (a temporary file is written there and deleted).")
  Path path;

  @Option(names = "--name", paramLabel = "NAME", defaultValue = "local",
      description = "The profile's name (default: ${DEFAULT-VALUE}): <data>/devices/NAME.conf.")
  String name;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the profile here instead.")
  Path out;

  @Option(names = "--data", paramLabel = "DIR", description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  Path data;

  @Option(names = "--force", description = "Replace an existing profile.")
  boolean force;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "60",
      description = "About how long to measure, wall seconds (default: ${DEFAULT-VALUE}; 5 to 3600).")
  double seconds;

  @Option(names = "--max-mb", paramLabel = "MB", defaultValue = "256",
      description = "Most MB (2^20 B) to write in all, the temporary file included (default: ${DEFAULT-VALUE}; 16 "
          + "to 65536).")
  long maxMb;

  @Option(names = "--quiet", description = "Print nothing but errors.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    if (!(seconds >= 5 && seconds <= 3600)) throw new BadInputException("--seconds: must be from 5 to 3600, got "
        + io.tlogsim.scenario.Text.plain(seconds));
    if (maxMb < 16 || maxMb > 65536) throw new BadInputException("--max-mb: must be from 16 to 65536, got " + maxMb);
    if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
      throw new BadInputException("--name: letters, digits, '.', '_' and '-' (it names a file), got '" + name + "'");
    }
    RunOptions.notEmpty("--path", path, "a directory");
    RunOptions.notEmpty("--out", out, "a file");
    RunOptions.notEmpty("--data", data, "a directory");
    if (out != null && data != null) throw new BadInputException("--out and --data: give one of them");
    if (!Files.isDirectory(path)) throw new BadInputException("--path: " + path + " is not a directory");
    if (!Files.isWritable(path)) throw new BadInputException("--path: " + path + " is not writable");
    Path profile = out != null ? out : DeviceProfiles.fileOf(RunOptions.dataDirOf(data), name);
    if (Files.isDirectory(profile)) throw new BadInputException("--out: " + profile + " is a directory");
    if (Files.exists(profile) && !force) {
      throw new BadInputException("--out: " + profile + " exists; --force replaces it, --name gives another");
    }
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    long start = System.nanoTime();
    if (!quiet) {
      stdout.printf(Locale.ROOT, "calibrate    %s: about %.0f wall s, at most %d MB written%n", path.toAbsolutePath(),
          seconds, maxMb);
      stdout.flush();
    }
    DiskCalibration.Result r;
    try {
      long maxBytes = maxMb << 20;
      r = new DiskCalibration(path, new DiskCalibration.Limits(maxBytes, seconds, 32L << 20), line -> {
        if (quiet) return;
        err.printf(Locale.ROOT, "progress     %s (%.1f s)%n", line, (System.nanoTime() - start) / 1e9);
        err.flush();
      }).run();
    } catch (IOException e) {
      throw new IllegalStateException("measuring " + path + ": " + e.getMessage(), e);
    }
    Files.createDirectories(profile.toAbsolutePath().getParent());
    Files.writeString(profile, ProfileFile.render(name, r, host()));
    List<ProfileFile.Row> rows = ProfileFile.compare(profile, r);
    if (!quiet) {
      stdout.printf(Locale.ROOT, "measured     %.1f wall s, %,d bytes written (file deleted)%n", r.seconds(),
          r.bytesWritten());
      stdout.printf(Locale.ROOT, "%-26s %12s %12s %12s %12s %8s %8s%n", "pattern", "measured us", "simulated us",
          "measured/s", "simulated/s", "latency", "rate");
      for (ProfileFile.Row row : rows) {
        stdout.printf(Locale.ROOT, "%-26s %12.1f %12.1f %12.1f %12.1f %+7.1f%% %+7.1f%%%n", row.pattern(),
            row.measuredUs(), row.simulatedUs(), row.measuredIops(), row.simulatedIops(), row.latencyError() * 100,
            row.rateError() * 100);
      }
      DiskCalibration.QueueResult q = r.qd8();
      stdout.printf(Locale.ROOT, "depth 8      the host kept %.2f writes in flight on average (rate x latency)%s%n",
          q.effectiveDepth(), q.effectiveDepth() < 0.9 * q.depth() ? "; its threads waited for a CPU between writes,"
              + " the model keeps " + q.depth() + ", so its latency is " + q.depth() + " / "
              + String.format(Locale.ROOT, "%.2f", q.effectiveDepth()) + " of the measured" : "");
      stdout.printf(Locale.ROOT, "sequential   %.2f MB/s measured (1 MiB O_DSYNC writes)%n",
          r.size(1 << 20).mbPerSec());
      stdout.println("profile      " + profile.toAbsolutePath());
      stdout.println("use          --set logDevice=profile:" + (out != null ? profile.toAbsolutePath() : name)
          + " (commit path), --set device=profile:" + (out != null ? profile.toAbsolutePath() : name) + " (iobench)");
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
