package io.tlogsim.kernel;

/**
 * The trace digest: a running hash over every processed event. Each component hashes its own events in the order
 * it processes them; the run's digest combines the components' hashes in component-id order, so it does not
 * depend on threads or on how the actors were scheduled.
 */
public final class Digest {
  private static final long M1 = 0x9e3779b97f4a7c15L;
  private static final long M2 = 0xc2b2ae3d27d4eb4fL;

  private Digest() {}

  public static final long SEED = 0x243f6a8885a308d3L;

  /**
   * Folds one event (time, ordering key, port and kind, the four longs) into a running hash. An event's object
   * payload is not hashed: its identity is not deterministic, and what it changes shows in later events.
   */
  public static long step(long h, long time, long tie, int portKind, long a, long b, long c, long d) {
    h = Long.rotateLeft((h ^ time) * M1, 29);
    h = Long.rotateLeft((h ^ tie) * M2, 31);
    h = Long.rotateLeft((h ^ portKind) * M1, 27);
    h = Long.rotateLeft((h ^ a) * M2, 33);
    h = Long.rotateLeft((h ^ b) * M1, 29);
    h = Long.rotateLeft((h ^ c) * M2, 31);
    h = (h ^ d) * M1;
    return h ^ (h >>> 32);
  }

  public static long combine(long h, long v) {
    return Rng.mix64(h * M1 ^ v);
  }

  public static String hex(long h) {
    return String.format("%016x", h);
  }
}
