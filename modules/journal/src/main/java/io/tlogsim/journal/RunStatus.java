package io.tlogsim.journal;

import java.util.Locale;

/** Where a run stands. */
public enum RunStatus {
  /** Its process is alive (or on another host, where this one cannot check). */
  RUNNING,
  COMPLETED,
  /** Stopped before its end: by a signal, or its process died (kill -9) without saying so. Resumable. */
  INTERRUPTED,
  FAILED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
