package io.tlogsim.kernel;

/**
 * How a component orders events of the same instant (DESIGN.md principle 2): by the rank of the input they came
 * through, then by their sequence number on it. A component's in-links are ranked by sender id (so arrivals go in
 * sender order); its own timers rank after every in-link, so at one instant arrivals come before timers, whatever
 * other components the topology holds. The key packs (rank, sequence) into one long: rank in the high bits.
 */
final class Tie {
  static final int SEQ_BITS = 40;
  /** Highest sequence number an input can carry before the key would overflow. */
  static final long MAX_SEQ = (1L << SEQ_BITS) - 1;
  /** Highest rank: a component can have at most this many in-links. */
  static final int MAX_RANK = (1 << 22) - 1;

  private Tie() {}

  static long of(int rank, long seq) {
    return ((long) rank << SEQ_BITS) | seq;
  }

  static int rank(long tie) {
    return (int) (tie >>> SEQ_BITS);
  }

  static long seq(long tie) {
    return tie & MAX_SEQ;
  }
}
