package io.tlogsim.kernel;

import java.util.Arrays;

/**
 * How many times the run's critical path crosses between nodes: the longest chain of kernel messages a window waits
 * for, counting only the hops between different nodes (a hop within a JVM and all computation count 0). A window's
 * Advance leaves the clock once every report of the window before is in; a component runs it once the Advance and
 * every batch sent to it in earlier windows are there; its report and its batches leave when it is done. On a
 * network each crossing costs a one-way latency, so {@code crossings x latency} is what the protocol itself costs a
 * run beyond its computation (docs/clusters.md). The figure is the message graph's, not a measured time: the same for
 * the same run on any machine, 0 on one node.
 */
final class CriticalPath {
  private final int[] node; // by component: its node (0: the clock's); the clock's own array, read as it is
  private final long[] start; // by component: crossings on the path to the start of its latest window
  private final long[] batches; // by component: crossings on the path to the arrival of the batches sent to it so far
  private long windowStart; // crossings on the path to the clock's Advances of the window being run
  private long reportsIn; // crossings on the path to the last report of that window reaching the clock
  private long first; // windowStart when this incarnation's first window was granted

  CriticalPath(int[] node) {
    this.node = node;
    start = new long[node.length];
    batches = new long[node.length];
  }

  /** A new incarnation: counted from its first window (what came before it was given up or restored). */
  void reset() {
    Arrays.fill(start, 0);
    Arrays.fill(batches, 0);
    windowStart = reportsIn = first = 0;
  }

  /** The clock grants a window (or the hello window): its Advances leave once the window before is settled. */
  void grant() {
    windowStart = reportsIn;
  }

  /** The window granted is the incarnation's first that handles events. */
  void firstWindow() {
    first = windowStart;
  }

  /** Component i is woken in the window granted: it starts once its Advance and its earlier batches are there. */
  void advance(int i) {
    start[i] = Math.max(windowStart + fromClock(i), batches[i]);
  }

  /** Component i sent a batch to component {@code d} in its window: on d's path to its next window. */
  void batch(int i, int d) {
    batches[d] = Math.max(batches[d], start[i] + cross(i, d));
  }

  /** Component i's report of its window is in. */
  void report(int i) {
    reportsIn = Math.max(reportsIn, start[i] + fromClock(i));
  }

  /** Crossings from the incarnation's first window to the end of the window whose reports are in. */
  long crossings() {
    return reportsIn - first;
  }

  /** 1 when component i is on another node than the clock. */
  private int fromClock(int i) {
    return node[i] == 0 ? 0 : 1;
  }

  /** 1 when components a and b are on different nodes. */
  private int cross(int a, int b) {
    return node[a] == node[b] ? 0 : 1;
  }
}
