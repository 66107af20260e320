package io.tlogsim.analysis.calibrate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Puts a thread on one core. Java cannot pin a thread itself, so the thread finds its own Linux thread id
 * (/proc/thread-self) and has {@code taskset -p -c CPU TID} (util-linux) set its affinity, then reads the affinity back
 * (/proc/thread-self/status). Where taskset or /proc is missing, nothing is pinned and {@link #available()} says why.
 */
final class Pinning {
  private final List<Integer> cpus;
  private final String missing; // null: pinning works

  private Pinning(List<Integer> cpus, String missing) {
    this.cpus = List.copyOf(cpus);
    this.missing = missing;
  }

  /** What this process may use, and whether threads can be pinned here. */
  static Pinning detect() {
    List<Integer> cpus = allowedCpus();
    if (cpus.isEmpty()) return new Pinning(List.of(), "no /proc/self/status (not Linux): threads left unpinned");
    try {
      Process p = new ProcessBuilder("taskset", "-V").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return new Pinning(cpus, "taskset -V failed: threads left unpinned");
      }
    } catch (IOException e) {
      return new Pinning(cpus, "taskset (util-linux) not found: threads left unpinned");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Pinning(cpus, "interrupted");
    }
    return new Pinning(cpus, null);
  }

  /** The cores this process may run on (its affinity, as Cpus_allowed_list says). */
  List<Integer> cpus() {
    return cpus;
  }

  boolean available() {
    return missing == null;
  }

  /** Why threads cannot be pinned here (null when they can). */
  String missing() {
    return missing;
  }

  /** Pins the calling thread to {@code cpu}; false when pinning is not available. */
  boolean pinSelf(int cpu) throws IOException {
    if (missing != null) return false;
    String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // "PID/task/TID"
    String tid = link.substring(link.lastIndexOf('/') + 1);
    Process p = new ProcessBuilder("taskset", "-p", "-c", Integer.toString(cpu), tid).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IOException("taskset -p -c " + cpu + " " + tid + " failed: " + out.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while pinning");
    }
    List<Integer> now = parseList(statusField(Path.of("/proc/thread-self/status"), "Cpus_allowed_list"));
    if (!now.equals(List.of(cpu))) throw new IOException("taskset pinned thread " + tid + " to " + now + ", not " + cpu);
    return true;
  }

  /** Voluntary plus involuntary context switches of the calling thread so far (-1 where /proc has none). */
  static long contextSwitches() {
    try {
      Path status = Path.of("/proc/thread-self/status");
      return Long.parseLong(statusField(status, "voluntary_ctxt_switches").strip())
          + Long.parseLong(statusField(status, "nonvoluntary_ctxt_switches").strip());
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static List<Integer> allowedCpus() {
    try {
      return parseList(statusField(Path.of("/proc/self/status"), "Cpus_allowed_list"));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  private static String statusField(Path status, String field) throws IOException {
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith(field + ":")) return line.substring(field.length() + 1).strip();
    }
    throw new IOException(status + " has no " + field);
  }

  /** "0-2,5" -> [0, 1, 2, 5]. */
  static List<Integer> parseList(String list) {
    List<Integer> out = new ArrayList<>();
    for (String part : list.split(",")) {
      if (part.isBlank()) continue;
      int dash = part.indexOf('-');
      if (dash < 0) {
        out.add(Integer.parseInt(part.strip()));
      } else {
        int from = Integer.parseInt(part.substring(0, dash).strip());
        int to = Integer.parseInt(part.substring(dash + 1).strip());
        for (int c = from; c <= to; c++) out.add(c);
      }
    }
    return out;
  }
}
