package io.tlogsim.analysis.calibrate;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A host calibration as a host profile: HOCON with the conventions of device profiles (a {@code profile} block whose
 * keys are the scenario settings it gives, a {@code measured} block recording what was measured and how). Scenarios of
 * the commit-path family name it as {@code host = "profile:NAME"} ({@code <data>/hosts/NAME.conf}) or by path; the
 * loader copies the settings into the run (docs/commit-path-host-costs.md: what each costs and where it is charged).
 */
public final class HostProfileFile {
  private HostProfileFile() {}

  /** Where a host profile NAME lives: {@code <data>/hosts/NAME.conf}. */
  public static Path fileOf(Path dataDir, String name) {
    return dataDir.resolve("hosts").resolve(name + ".conf");
  }

  /**
   * The settings of the profile block, each from a figure's median (p50: a shared host's stray samples move it least):
   * hostWakeCpuUs, hostSleepCpuUs (a wake across cores), hostSameCoreWakeCpuUs, hostSameCoreSleepCpuUs (on one core),
   * hostIdleWakeUs, hostWriteCpuUs, hostFlushCpuUs (us). Where one kind of wake was not measured (one core allowed;
   * no taskset, so no same-core figures), the other stands in for it and the profile's comments say so.
   */
  public static Map<String, Double> settings(HostCalibration.Result r) {
    Map<String, Double> m = new LinkedHashMap<>();
    HostCalibration.Figure cross = r.figure("futexWakeCallCpu");
    HostCalibration.Figure same = r.figure("futexSameCoreWakeCallCpu");
    double wake = p50(r, cross != null ? "futexWakeCallCpu" : "futexSameCoreWakeCallCpu");
    double sleep = p50(r, cross != null ? "futexSleepCpu" : "futexSameCoreSleepCpu");
    m.put("hostWakeCpuUs", wake);
    m.put("hostSleepCpuUs", sleep);
    m.put("hostSameCoreWakeCpuUs", same != null ? same.p50Us() : wake);
    m.put("hostSameCoreSleepCpuUs", same != null ? p50(r, "futexSameCoreSleepCpu") : sleep);
    HostCalibration.Figure idle = r.figure("futexWakeIdleCore");
    // the model charges the waker's call and the whole wait's CPU on their cores; what is left of the measured latency
    // is the delay before an idle core runs the woken thread
    m.put("hostIdleWakeUs", idle == null ? 0 : Math.max(0, idle.p50Us() - wake - sleep));
    m.put("hostWriteCpuUs", p50(r, "walWriteCpu"));
    m.put("hostFlushCpuUs", p50(r, "fdatasyncCpu"));
    // a wake onto a core that runs something else (measured with two cores or more and threads pinned; 0: the figures
    // above stand in)
    boolean busy = measuredBusyCore(r);
    m.put("hostBusyCoreWakeCpuUs", busy ? p50(r, "futexWakeBusyCoreCallCpu") : 0);
    m.put("hostBusyCoreSleepCpuUs", busy ? p50(r, "futexBusyCoreSleepCpu") : 0);
    return m;
  }

  /** True when calibrate-host measured a wake onto a busy core (two cores or more, threads pinned). */
  private static boolean measuredBusyCore(HostCalibration.Result r) {
    return r.figure("futexWakeBusyCoreCallCpu") != null && r.figure("futexBusyCoreSleepCpu") != null;
  }

  private static double p50(HostCalibration.Result r, String name) {
    HostCalibration.Figure f = r.figure(name);
    if (f == null) throw new IllegalStateException("calibrate-host measured no " + name);
    return f.p50Us();
  }

  /** The profile's text: the settings, then every figure with its spread, how threads were placed, and notes. */
  public static String render(String name, HostCalibration.Result r, String host) {
    Map<String, Double> s = settings(r);
    HostCalibration.Figure idle = r.figure("futexWakeIdleCore");
    boolean cross = r.figure("futexWakeCallCpu") != null;
    boolean same = r.figure("futexSameCoreWakeCallCpu") != null;
    Map<String, String> why = new LinkedHashMap<>();
    why.put("hostWakeCpuUs", cross ? "CPU on the waker's core to wake a thread sleeping on another core"
        + " (futexWakeCallCpu p50)" : "not measured across cores here: the same-core figure");
    why.put("hostSleepCpuUs", cross ? "CPU one wait costs a thread woken from another core: its sleep and its resume"
        + " (futexSleepCpu p50)" : "not measured across cores here: the same-core figure");
    why.put("hostSameCoreWakeCpuUs", same ? "the same when waker and sleeper share a core"
        + " (futexSameCoreWakeCallCpu p50)" : "not measured on one core here (threads unpinned): the figure above");
    why.put("hostSameCoreSleepCpuUs", same ? "the same when waker and sleeper share a core (futexSameCoreSleepCpu p50)"
        : "not measured on one core here (threads unpinned): the figure above");
    why.put("hostIdleWakeUs", idle == null ? "not measured here (" + String.join("; ", r.notes()) + "): 0"
        : String.format(Locale.ROOT, "delay, no CPU, before a thread woken on an idle core runs: futexWakeIdleCore"
            + " p50 %.3f less hostWakeCpuUs and hostSleepCpuUs", idle.p50Us()));
    why.put("hostWriteCpuUs", "CPU of writing 8 kB of log (walWriteCpu p50)");
    why.put("hostFlushCpuUs", "CPU of the fdatasync after it (fdatasyncCpu p50)");
    boolean busy = measuredBusyCore(r);
    String notBusy = "not measured here (one core, or threads not pinned): 0, ";
    why.put("hostBusyCoreWakeCpuUs", busy ? "CPU on the waker's core to wake a thread queued on another, busy core"
        + " (futexWakeBusyCoreCallCpu p50)" : notBusy + "hostWakeCpuUs stands in");
    why.put("hostBusyCoreSleepCpuUs", busy ? "CPU one wait costs a thread woken from another core onto a busy one"
        + " (futexBusyCoreSleepCpu p50)" : notBusy + "hostSleepCpuUs stands in");
    StringBuilder b = new StringBuilder();
    b.append("# tlogsim host profile '").append(name).append("', written by tlogsim calibrate-host\n");
    b.append("# Use: host = \"profile:").append(name).append("\" in a scenario of the commit-path family (or --set host=")
        .append("profile:").append(name).append(");\n# the settings below are copied into the run, so replay and resume")
        .append(" need no file. Where the model\n# charges each: docs/commit-path-host-costs.md.\n");
    b.append("profile {\n");
    for (Map.Entry<String, Double> e : s.entrySet()) {
      b.append(String.format(Locale.ROOT, "  %s = %.3f   # %s%n", e.getKey(), e.getValue(), why.get(e.getKey())));
    }
    b.append("}\n");
    b.append("measured {\n");
    b.append("  host = ").append(quote(host)).append('\n');
    b.append("  at = ").append(quote(Instant.now().toString())).append('\n');
    b.append("  path = ").append(quote(r.dir().toAbsolutePath().toString())).append('\n');
    b.append("  pinning = ").append(quote(r.pinning())).append('\n');
    b.append("  cpus = [").append(r.cpus().stream().map(String::valueOf).collect(Collectors.joining(", ")))
        .append("]\n");
    b.append(String.format(Locale.ROOT, "  wallSeconds = %.1f%n", r.seconds()));
    b.append("  notes = [").append(r.notes().stream().map(HostProfileFile::quote).collect(Collectors.joining(", ")))
        .append("]\n");
    b.append("  figures = [\n");
    for (HostCalibration.Figure f : r.figures()) {
      b.append(String.format(Locale.ROOT, "    { name = %s, count = %d, p10Us = %.3f, p50Us = %.3f, p90Us = %.3f,"
          + " meanUs = %.3f,%n      what = %s }%n", f.name(), f.count(), f.p10Us(), f.p50Us(), f.p90Us(), f.meanUs(),
          quote(f.what())));
    }
    b.append("  ]\n");
    b.append("}\n");
    return b.toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
