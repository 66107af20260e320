package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;

/**
 * The process that runs (or ran) a run: pid, host and the process's start time, so that a reader can tell a live run
 * from one whose process died (kill -9, power loss) without the run having said so. The start time guards against a
 * later process that got the same pid.
 */
public record Attempt(long pid, String host, long processStartMillis, long startedAtMillis)
    implements CborSerializable {

  /** This process, now. */
  public static Attempt current() {
    ProcessHandle self = ProcessHandle.current();
    return new Attempt(self.pid(), hostName(), startMillis(self), System.currentTimeMillis());
  }

  /** True when this attempt's process is still running (as far as this host can tell: see {@link #onThisHost}). */
  public boolean processAlive() {
    if (!onThisHost()) return true; // another host's process: cannot be checked from here, so not declared dead
    Optional<ProcessHandle> p = ProcessHandle.of(pid);
    return p.isPresent() && p.get().isAlive() && startMillis(p.get()) == processStartMillis;
  }

  public boolean onThisHost() {
    return host.equals(hostName());
  }

  public Instant startedAt() {
    return Instant.ofEpochMilli(startedAtMillis);
  }

  private static long startMillis(ProcessHandle p) {
    return p.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
  }

  static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      String env = System.getenv("HOSTNAME");
      return env != null ? env : "localhost";
    }
  }
}
