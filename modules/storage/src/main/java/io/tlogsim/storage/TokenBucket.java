package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;

/**
 * A token bucket: tokens accrue at {@code ratePerSecond} up to {@code depth}; a request that costs c tokens may pass
 * once the bucket holds c (or, for a request larger than the whole bucket, once the bucket is full: it then runs the
 * bucket into debt, which later requests wait out). A full bucket lets a burst of {@code depth} through at once;
 * after it the long-run rate is the bucket's rate, and any interval of length T passes at most depth + rate x T.
 * Times are ns; tokens are doubles (deterministic: only +, -, x, / and comparisons).
 */
public final class TokenBucket {
  private final double perNano;
  private final double depth;
  private double tokens;
  private long last;

  /** A bucket that starts full. */
  TokenBucket(double ratePerSecond, double depth) {
    this.perNano = ratePerSecond / 1e9;
    this.depth = depth;
    this.tokens = depth;
  }

  double depth() {
    return depth;
  }

  double ratePerSecond() {
    return perNano * 1e9;
  }

  /** Tokens at time t (t no earlier than the last take). */
  double tokensAt(long t) {
    return Math.min(depth, tokens + (t - last) * perNano);
  }

  /** The earliest time from {@code t} at which a request costing {@code cost} may pass. */
  long readyAt(long t, double cost) {
    double need = Math.min(cost, depth);
    double have = tokensAt(t);
    if (have >= need) return t;
    return t + (long) Math.ceil((need - have) / perNano);
  }

  /** Takes {@code cost} tokens at time t (from readyAt or later). */
  void take(long t, double cost) {
    tokens = tokensAt(t) - cost;
    last = t;
  }

  State state() {
    return new State(tokens, last);
  }

  void restore(State s) {
    tokens = s.tokens();
    last = s.last();
  }

  public record State(double tokens, long last) implements CborSerializable {}
}
