package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The events one component holds, handed out in the kernel's order: (time, tie), tie = (rank of the in-link, sequence
 * on it), timers ranking after every in-link (see {@link Tie}).
 *
 * <p>Delivered batches arrive sorted, so each is kept as a run and the queue merges the runs with a tournament (a
 * winner tree) over slots of runs: a pop replays the one path from the popped run's leaf to the root, one compare per
 * level (log2(slots)), where a binary heap of runs needed two per level it sifted through. A log manager holds
 * many runs at once (GCM-1: about 35 at N = 1,000 and 140 at N = 100,000, the pools' batches of commits stamped up to
 * milliseconds ahead), so this is the queue's main cost (docs/performance.md). The order is the kernel's total
 * order (time, tie), which no two events share, so any correct merge pops the same sequence. The component's own
 * timers are one more sorted source. Primitive arrays, no allocation per event.
 */
final class EventQueue {
  private final int self;
  private final int timerRank;
  private final Timers timers = new Timers();
  // The tournament: slots 0 .. slots-1 hold runs (null: free); winner[v] is the slot whose head comes first in the
  // subtree of node v (root 1; slot s is leaf slots + s, winner[slots + s] = s). head[s] is slot s's head time
  // (NEVER when free), kept beside the slots so that a compare reads one array unless the times are equal.
  private int slots = 4;
  private Run[] slot = new Run[slots];
  private long[] head = filled(slots);
  private int[] winner = leaves(slots);
  private int[] freeSlots = freeList(0, slots);
  private int freeCount = slots;
  private int runCount;
  private int runEvents;

  /** @param timerRank the tie rank of the component's timers: its number of in-links */
  EventQueue(int self, int timerRank) {
    this.self = self;
    this.timerRank = timerRank;
  }

  int size() {
    return runEvents + timers.size();
  }

  /** Time of the next event, or {@link VirtualTime#NEVER}. */
  long headTime() {
    long t = timers.headTime();
    return runCount > 0 ? Math.min(head[winner[1]], t) : t;
  }

  /** Earliest event held per input port, index {@code port + 1} ({@link Context#SELF_PORT}, the timers, at 0). */
  long[] headTimeByPort(int ports) {
    long[] min = new long[ports + 1];
    java.util.Arrays.fill(min, VirtualTime.NEVER);
    min[0] = timers.headTime();
    for (int s = 0; s < slots; s++) {
      if (slot[s] != null) min[slot[s].port + 1] = Math.min(min[slot[s].port + 1], head[s]);
    }
    return min;
  }

  /** Adds a delivered batch as a run; its arrays are kept, not copied. */
  void addRun(EventBatch batch, int port, int rank, int sender) {
    if (batch.size() == 0) return;
    if (freeCount == 0) grow();
    int s = freeSlots[--freeCount];
    Run r = new Run(batch, port, rank, sender);
    slot[s] = r;
    head[s] = r.headTime();
    runCount++;
    runEvents += batch.size();
    replay(s);
  }

  /** Twice the slots (all were taken): the new ones free, the tournament played again from its leaves. */
  private void grow() {
    int n = slots * 2;
    slot = Arrays.copyOf(slot, n);
    long[] h = filled(n);
    System.arraycopy(head, 0, h, 0, slots);
    head = h;
    winner = leaves(n);
    for (int v = n - 1; v >= 1; v--) {
      int l = winner[2 * v], r = winner[2 * v + 1];
      winner[v] = before(r, l) ? r : l;
    }
    freeSlots = freeList(slots, n);
    freeCount = n - slots;
    slots = n;
  }

  /** Slot s's head changed (a pop, a new run, a run used up): the matches on its path to the root are played again. */
  private void replay(int s) {
    int w = s;
    for (int v = slots + s; v > 1; v >>>= 1) {
      int o = winner[v ^ 1];
      if (before(o, w)) w = o;
      winner[v >>> 1] = w;
    }
  }

  /** Slot s's head comes before slot u's: by time, then by tie (in-link rank, sequence); a free slot comes last. */
  private boolean before(int s, int u) {
    long t = head[s], v = head[u];
    if (t != v) return t < v;
    Run a = slot[s], b = slot[u];
    if (a == null) return false;
    if (b == null) return true;
    return a.tieBefore(b);
  }

  private static long[] filled(int n) {
    long[] h = new long[n];
    Arrays.fill(h, VirtualTime.NEVER);
    return h;
  }

  private static int[] leaves(int n) {
    int[] w = new int[2 * n];
    for (int s = 0; s < n; s++) w[n + s] = s;
    return w;
  }

  /** Free slots from..to-1 as a stack whose top is the lowest (a new run takes the lowest free slot first). */
  private static int[] freeList(int from, int to) {
    int[] f = new int[to];
    for (int k = 0; k < to - from; k++) f[k] = to - 1 - k;
    return f;
  }

  long schedule(long t, int kind, long a, long b, long c, long d, Object payload) {
    return timers.add(t, kind, a, b, c, d, payload);
  }

  boolean cancel(long handle) {
    return timers.cancel(handle);
  }

  /** Copies the next event into {@code ev}, removes it and returns its tie. Arrivals of an instant precede timers. */
  long pop(Event ev) {
    int s = winner[1];
    if (runCount > 0 && head[s] <= timers.headTime()) {
      Run r = slot[s];
      int i = r.pos;
      EventBatch bt = r.batch;
      ev.time = bt.time()[i];
      ev.kind = bt.kind()[i];
      ev.a = bt.a()[i];
      ev.b = bt.b()[i];
      ev.c = bt.c() == null ? 0 : bt.c()[i];
      ev.d = bt.d() == null ? 0 : bt.d()[i];
      ev.payload = bt.payload() == null ? null : bt.payload()[i];
      ev.port = r.port;
      ev.sender = r.sender;
      long tie = Tie.of(r.rank, bt.firstSeq() + i);
      runEvents--;
      if (++r.pos == bt.size()) { // used up: its slot is free
        slot[s] = null;
        head[s] = VirtualTime.NEVER;
        freeSlots[freeCount++] = s;
        runCount--;
      } else {
        head[s] = r.time[r.pos];
      }
      // with one run left (a pool's acknowledgements, often) the free slots cannot beat it: nothing to replay
      if (runCount > 1 || (runCount == 1 && slot[s] == null)) replay(s);
      return tie;
    }
    long tie = Tie.of(timerRank, timers.headSeq());
    timers.pop(ev);
    ev.port = Context.SELF_PORT;
    ev.sender = self;
    return tie;
  }

  /** Drops everything (a crash); returns how many events were dropped. */
  int clear() {
    int n = size();
    Arrays.fill(slot, null);
    Arrays.fill(head, VirtualTime.NEVER);
    freeSlots = freeList(0, slots);
    freeCount = slots;
    runCount = 0;
    runEvents = 0;
    timers.clear();
    return n;
  }

  /** What the queue holds, for a checkpoint: each run's unhandled rest, and the timers. */
  State state() {
    List<EventBatch> rest = new ArrayList<>(runCount);
    for (int s = 0; s < slots; s++) if (slot[s] != null) rest.add(slot[s].rest());
    return new State(rest, timers.state());
  }

  /** Refills from a checkpoint; {@code place} gives each saved run its port, rank and sender. */
  void restore(State s, RunPlacer place) {
    clear();
    for (EventBatch b : s.runs()) place.add(this, b);
    timers.restore(s.timers());
  }

  interface RunPlacer {
    void add(EventQueue q, EventBatch rest);
  }

  record State(List<EventBatch> runs, Timers.State timers) implements CborSerializable {}

  /** A delivered batch and how far it has been consumed. */
  private static final class Run {
    final EventBatch batch;
    final long[] time; // batch.time(), kept at hand for the heap's comparisons
    final int port;
    final int rank;
    final int sender;
    int pos;

    Run(EventBatch batch, int port, int rank, int sender) {
      this.batch = batch;
      this.time = batch.time();
      this.port = port;
      this.rank = rank;
      this.sender = sender;
    }

    long headTime() {
      return time[pos];
    }

    /** At equal head times: this run's head comes first. */
    boolean tieBefore(Run o) {
      return rank < o.rank || (rank == o.rank && pos + batch.firstSeq() < o.pos + o.batch.firstSeq());
    }

    /** The events not handled yet, as a batch of their own. */
    EventBatch rest() {
      int n = batch.size();
      return new EventBatch(batch.window(), batch.link(), batch.firstSeq() + pos,
          Arrays.copyOfRange(batch.time(), pos, n), Arrays.copyOfRange(batch.kind(), pos, n),
          Arrays.copyOfRange(batch.a(), pos, n), Arrays.copyOfRange(batch.b(), pos, n),
          batch.c() == null ? null : Arrays.copyOfRange(batch.c(), pos, n),
          batch.d() == null ? null : Arrays.copyOfRange(batch.d(), pos, n),
          batch.payload() == null ? null : Arrays.copyOfRange(batch.payload(), pos, n));
    }
  }
}
