package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;

/**
 * What a pool's sessions were told before the server lost power (REFERENCE.md 3): per session, how many commits were
 * acknowledged, a waiting commit when its ACK reached it, a commit that does not wait for its flush when its APPENDED
 * did (its record was in the log buffer by then: none acknowledged is still on its way to the log manager). Kept only
 * when the run has a crash.
 */
public final class SessionsAtCrash {
  private long[] acked; // by session index in the pool

  SessionsAtCrash(int sessions) {
    acked = new long[sessions];
  }

  /** A commit of session {@code i} is acknowledged (its ACK or APPENDED reached it). */
  void acknowledged(int i) {
    acked[i]++;
  }

  long[] acknowledged() {
    return acked.clone();
  }

  State snapshot() {
    return new State(acked.clone());
  }

  void restore(State s) {
    acked = s.acked().clone();
  }

  public record State(long[] acked) implements CborSerializable {}
}
