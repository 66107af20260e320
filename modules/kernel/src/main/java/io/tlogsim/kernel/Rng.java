package io.tlogsim.kernel;

import java.util.SplittableRandom;

/**
 * The deterministic random source of one component (DESIGN.md principle 2).
 *
 * <p>Bit for bit the generator of {@code new SplittableRandom(seed)} (SplitMix64 with the golden gamma; a test
 * checks it), but with its state visible so that a checkpoint can save and restore it, which
 * {@link SplittableRandom} does not allow. Aggregated entities (thousands of sessions in one pool) keep the same
 * state as a plain {@code long} in an array and use the static methods.
 */
public final class Rng {
  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
  private static final double DOUBLE_UNIT = 0x1.0p-53;

  private long state;

  public Rng(long seed) {
    this.state = seed;
  }

  /** The seed of component (or entity) {@code id} in a run with seed {@code runSeed}. */
  public static long seedFor(long runSeed, long id) {
    return mix64(mix64(runSeed ^ 0x6a09e667f3bcc909L) + id * GOLDEN_GAMMA);
  }

  public long state() {
    return state;
  }

  public void setState(long state) {
    this.state = state;
  }

  public long nextLong() {
    return mix64(state += GOLDEN_GAMMA);
  }

  public double nextDouble() {
    return (nextLong() >>> 11) * DOUBLE_UNIT;
  }

  /**
   * An exponentially distributed duration with the given mean, in ns (a ziggurat draw: see {@link Exponential}; the
   * same on every JVM and machine, so digests agree across them).
   */
  public long nextExponential(double meanNs) {
    single[0] = state;
    long d = nextExponential(single, 0, meanNs);
    state = single[0];
    return d;
  }

  private final long[] single = new long[1];

  // ---- array form: state[i] is one entity's generator ----

  public static long nextLong(long[] states, int i) {
    return mix64(states[i] += GOLDEN_GAMMA);
  }

  public static double nextDouble(long[] states, int i) {
    return (nextLong(states, i) >>> 11) * DOUBLE_UNIT;
  }

  /** An exponentially distributed duration with the given mean, in ns, from entity i's generator. */
  public static long nextExponential(long[] states, int i, double meanNs) {
    return (long) (Exponential.next(states, i) * meanNs);
  }

  /** SplitMix64's finalizer (the same as SplittableRandom's mix64). */
  public static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
