package io.tlogsim.cli;

import io.tlogsim.analysis.advise.Advisor;
import io.tlogsim.scenario.BadInputException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tlogsim advise}: a flush policy that reaches a commit rate within a loss bound, found by simulated runs, and
 * the log's size, growth, VLFs, backup cadence and cloud file size for it, in one table with the runs behind it.
 */
@Command(name = "advise", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "Search, with simulated runs of the commit path (the oltp-commits load), for the flush policy that "
        + "reaches a commit rate without exposing more than a given time of acknowledged commits to a crash, and size "
        + "the log for it: size, growth increment and VLFs, log-backup cadence, managed-instance file size.",
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_DEBUG})
final class AdviseCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--target-commits-per-second", paramLabel = "X",
      description = "The commit rate to reach (or give --target-mb-per-second).")
  Double targetCommits;

  @Option(names = "--target-mb-per-second", paramLabel = "MB",
      description = "The log rate to reach, in MB/s (10^6 B) of log records: turned into a commit rate by the load's "
          + "log per commit, measured by a short run of it.")
  Double targetMBps;

  @Option(names = "--vcores", paramLabel = "N", description = "With --device premium: the managed instance's vCores, "
      + "for its log-rate cap (REFERENCE.md 4: 3 MB/s per vCore, at most 22 MB/s; default: tlogsim.advisor.vCores; "
      + "0: no cap).")
  Integer vCores;

  @Option(names = "--max-loss-ms", required = true, paramLabel = "Y",
      description = "Most acknowledged work a crash may lose, in ms of commits (0: fully durable policies only).")
  double maxLossMs;

  @Option(names = "--device", paramLabel = "DEVICE", defaultValue = "ssd",
      description = "The log device: ssd, hdd, simple, raid, premium (every managed-instance file band is tried), or "
          + "profile:NAME from calibrate-device (default: ${DEFAULT-VALUE}).")
  String device;

  @Option(names = "--log-growth-per-hour", paramLabel = "GiB", defaultValue = "0",
      description = "Log written per hour, GiB (default: from the simulated log rate at the target).")
  double growth;

  @Option(names = "--sql-server-version", paramLabel = "V", defaultValue = "2022",
      description = "VLF rules: pre-2014, 2014 or 2022 (also Azure) (default: ${DEFAULT-VALUE}).")
  String version;

  @Option(names = "--load", paramLabel = "SCENARIO", defaultValue = "oltp-commits",
      description = "The load: a commit-path or log-space scenario, built-in or a .conf file, whose sessions, flush "
          + "policy and log device the advisor moves (default: ${DEFAULT-VALUE}, one-row transactions with 1 ms think).")
  String load;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed of the runs (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--parallel", paramLabel = "N", defaultValue = "2",
      description = "Policies searched at once (default: ${DEFAULT-VALUE}).")
  int parallel;

  @Option(names = "--quiet", description = "No progress lines.")
  boolean quiet;

  @Override
  public Integer call() {
    if (parallel < 1 || parallel > 64) {
      throw new BadInputException("--parallel: must be from 1 to 64, got " + parallel);
    }
    if ((targetCommits == null) == (targetMBps == null)) {
      throw new BadInputException("advise: give one of --target-commits-per-second X or --target-mb-per-second MB");
    }
    if (targetMBps != null && !(targetMBps > 0 && targetMBps <= 100_000)) {
      throw new BadInputException("--target-mb-per-second: must be a number above 0 and at most 100,000, got "
          + io.tlogsim.scenario.Text.plain(targetMBps));
    }
    int cores = vCores != null ? vCores : Advisor.defaultVCores();
    double perCommit = 0;
    double target;
    if (targetMBps != null) {
      new Advisor.Request(1, maxLossMs, device, growth, version, seed, load, cores); // its checks first
      perCommit = Advisor.recordBytesPerCommit(load, device, seed);
      target = targetMBps * 1e6 / perCommit;
    } else {
      target = targetCommits;
    }
    Advisor.Request req = new Advisor.Request(target, maxLossMs, device, growth, version, seed, load, cores);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    long start = System.nanoTime();
    Advisor advisor;
    try {
      advisor = new Advisor(req, parallel, line -> {
        if (quiet) return;
        synchronized (err) {
          err.printf(Locale.ROOT, "progress     %s (%.0f s)%n", line, (System.nanoTime() - start) / 1e9);
          err.flush();
        }
      });
    } catch (BadInputException e) { // the device is the runs' logDevice: name the option the user typed
      throw new BadInputException(e.getMessage().replaceFirst("^logDevice:", "--device " + device + " (logDevice):"));
    }
    if (targetMBps != null) {
      out.printf(Locale.ROOT, "target       %s MB/s of log records at %,.0f B per commit of the load = %,.0f commits/s%n",
          fmt(targetMBps), perCommit, target);
    }
    out.printf(Locale.ROOT, "advise       %,.0f commits/s, at most %s ms of acknowledged commits lost, log on %s%s%n",
        target, fmt(maxLossMs), device, device.equals("premium") ? cores == 0 ? " (no log-rate cap)"
            : String.format(Locale.ROOT, " (%d vCores: log rate at most %s MiB/s)", cores,
                fmt(Math.min(io.tlogsim.storage.StorageTables.premium().logRateMiBPerVCore() * cores,
                    io.tlogsim.storage.StorageTables.premium().logRateMaxMiB()))) : "");
    out.printf(Locale.ROOT, "load         %s; runs must beat the target by 5%%%n", advisor.loadDescription());
    out.flush();
    Advisor.Advice a = advisor.advise();
    out.printf(Locale.ROOT, "%-20s %-22s %8s %11s %10s %10s %9s %5s  %s%n", "policy", "device", "sessions",
        "commits/s", "p50 us", "p99 us", "loss ms", "runs", "verdict");
    for (Advisor.Option o : a.options()) {
      Advisor.Run r = o.reached() != null ? o.reached() : o.best();
      out.printf(Locale.ROOT, "%-20s %-22s %8d %,11.0f %10s %10s %9s %5d  %s%s%n", o.policy().name(), o.deviceLabel(),
          r.sessions(), r.commitsPerSecond(), fmt(r.p50Us()), fmt(r.p99Us()), fmt(r.lossMs()), o.runs().size(),
          o.verdict(), o == a.chosen() ? "  <- advice" : "");
    }
    out.println("runs behind each line (re-run any of them as it is):");
    for (Advisor.Option o : a.options()) {
      Advisor.Run r = o.reached() != null ? o.reached() : o.best();
      out.printf(Locale.ROOT, "  %-20s %s  (digest %s)%n", o.policy().name(), r.scenarioLine(), r.digest());
    }
    if (a.chosen() == null) {
      out.println("advice       no flush policy meets both on " + device + ": see the verdicts (a faster device,"
          + " a larger loss bound, or more cores)");
    } else {
      Advisor.Sizing s = a.sizing();
      Advisor.Run r = a.chosen().reached();
      out.printf(Locale.ROOT, "advice       flush policy %s on %s: %,.0f commits/s with %d sessions, p99 %s us,"
          + " loss %s ms%n", a.chosen().policy().name(), a.chosen().deviceLabel(), r.commitsPerSecond(), r.sessions(),
          fmt(r.p99Us()), fmt(r.lossMs()));
      out.printf(Locale.ROOT, "log growth   %.3f GiB/hour (%s)%n", s.growthGiBPerHour(),
          s.growthSource().equals("given") ? "given" : "simulated log rate at the target");
      if (s.backupWithinBound()) {
        out.printf(Locale.ROOT, "log backup   every %d min (a backup reads its %.2f GiB of log in %.0f s at %.2f MB/s,"
            + " within %.0f s)%n", s.backupMinutes(), s.backupGiB(), s.backupSeconds(), advisor.logBackupMBps(),
            advisor.maxLogBackupSeconds());
      } else {
        out.printf(Locale.ROOT, "log backup   every %d min, the shortest offered: a backup still reads %.2f GiB of log"
            + " in %.0f s at %.2f MB/s, more than %.0f s (faster backup storage would shorten it)%n",
            s.backupMinutes(), s.backupGiB(), s.backupSeconds(), advisor.logBackupMBps(),
            advisor.maxLogBackupSeconds());
      }
      out.printf(Locale.ROOT, "log size     %.2f GiB (two backup intervals of log), growth %d MiB: %d VLFs at"
          + " creation, %d per growth%s (SQL Server %s rules)%n", s.logGiB(), s.growthMiB(), s.vlfsAtCreation(),
          s.vlfsPerGrowth(), s.growthZeroed() ? ", zero-filled" : ", not zero-filled", version);
      if (s.cloudBand() != null) {
        out.printf(Locale.ROOT, "cloud file   managed-instance log file of %.0f GiB (band %s) for %,.0f IOPS and"
            + " %.2f MiB/s of log writes%n", Math.ceil(s.cloudFileGiB()), s.cloudBand(), s.cloudIopsNeeded(),
            s.cloudMiBpsNeeded());
      } else {
        out.printf(Locale.ROOT, "cloud file   no managed-instance band carries %,.0f IOPS and %.2f MiB/s%n",
            s.cloudIopsNeeded(), s.cloudMiBpsNeeded());
      }
    }
    out.flush();
    return Tlogsim.OK;
  }

  private static String fmt(double v) {
    if (!Double.isFinite(v)) return "-";
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }
}
