package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;
import java.util.Arrays;

/**
 * What a pool's sessions were told before the server lost power (REFERENCE.md 3): per session, how many commits were
 * acknowledged (a waiting commit when its ACK came, a commit that does not wait when its CPU work ended), and how many
 * acknowledged commits had not reached the log manager yet (their requests still on the way: never logged). Kept only
 * when the run has a crash.
 */
public final class SessionsAtCrash {
  private static final int S_SESSION = 0, S_END = 1, S_ARRIVAL = 2;

  private long[] acked; // by session index in the pool
  private long[] sent = new long[3 * 64]; // commits that did not wait, not yet arrived: session, end, arrival
  private int head;
  private int size;

  SessionsAtCrash(int sessions) {
    acked = new long[sessions];
  }

  /** A waiting commit of session {@code i} is acknowledged. */
  void acknowledged(int i) {
    acked[i]++;
  }

  /**
   * A commit of session {@code i} that does not wait: acknowledged at {@code end}, its request reaches the log manager
   * at {@code arrival}; those arrived by {@code now} are forgotten.
   */
  void lazy(int i, long end, long arrival, long now) {
    acked[i]++;
    while (size > 0 && sent[head * 3 + S_ARRIVAL] <= now) {
      head++;
      size--;
    }
    if (head + size == sent.length / 3) { // compact, then grow if still full
      System.arraycopy(sent, head * 3, sent, 0, size * 3);
      head = 0;
      if (size == sent.length / 3) sent = Arrays.copyOf(sent, sent.length * 2);
    }
    int at = (head + size++) * 3;
    sent[at + S_SESSION] = i;
    sent[at + S_END] = end;
    sent[at + S_ARRIVAL] = arrival;
  }

  /**
   * The crash at {@code now}: a commit whose CPU work ends later was never acknowledged; returns how many acknowledged
   * commits were still on their way to the log manager.
   */
  int crash(long now) {
    int inFlight = 0;
    for (int k = 0; k < size; k++) {
      int at = (head + k) * 3;
      if (sent[at + S_ARRIVAL] <= now) continue;
      if (sent[at + S_END] > now) {
        acked[(int) sent[at + S_SESSION]]--;
      } else {
        inFlight++;
      }
    }
    size = 0;
    return inFlight;
  }

  long[] acknowledged() {
    return acked.clone();
  }

  State snapshot() {
    return new State(acked.clone(), Arrays.copyOfRange(sent, head * 3, (head + size) * 3));
  }

  void restore(State s) {
    acked = s.acked().clone();
    sent = Arrays.copyOf(s.sent(), Math.max(3 * 64, s.sent().length));
    head = 0;
    size = s.sent().length / 3;
  }

  public record State(long[] acked, long[] sent) implements CborSerializable {}
}
