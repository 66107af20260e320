package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The events one component holds, handed out in the kernel's order: (time, tie), tie = (rank of the in-link, sequence
 * on it), timers ranking after every in-link (see {@link Tie}).
 *
 * <p>Delivered batches arrive sorted, so each is kept as a run and the queue merges the runs with a binary heap of
 * runs (a pop costs log(runs held), not log(events held)); the component's own timers are one more sorted source.
 * Primitive arrays, no allocation per event.
 */
final class EventQueue {
  private final int self;
  private final int timerRank;
  private final Timers timers = new Timers();
  private Run[] runs = new Run[8]; // a binary heap of runs, by their head
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
    return runCount > 0 ? Math.min(runs[0].headTime(), t) : t;
  }

  /** Earliest event held per input port, index {@code port + 1} ({@link Context#SELF_PORT}, the timers, at 0). */
  long[] headTimeByPort(int ports) {
    long[] min = new long[ports + 1];
    java.util.Arrays.fill(min, VirtualTime.NEVER);
    min[0] = timers.headTime();
    for (int i = 0; i < runCount; i++) min[runs[i].port + 1] = Math.min(min[runs[i].port + 1], runs[i].headTime());
    return min;
  }

  /** Adds a delivered batch as a run; its arrays are kept, not copied. */
  void addRun(EventBatch batch, int port, int rank, int sender) {
    if (batch.size() == 0) return;
    if (runCount == runs.length) runs = Arrays.copyOf(runs, runCount * 2);
    Run r = new Run(batch, port, rank, sender);
    int i = runCount++;
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (!r.before(runs[p])) break;
      runs[i] = runs[p];
      i = p;
    }
    runs[i] = r;
    runEvents += batch.size();
  }

  long schedule(long t, int kind, long a, long b, long c, long d, Object payload) {
    return timers.add(t, kind, a, b, c, d, payload);
  }

  boolean cancel(long handle) {
    return timers.cancel(handle);
  }

  /** Copies the next event into {@code ev}, removes it and returns its tie. Arrivals of an instant precede timers. */
  long pop(Event ev) {
    if (runCount > 0 && runs[0].headTime() <= timers.headTime()) {
      Run r = runs[0];
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
      if (++r.pos == bt.size()) {
        Run last = runs[--runCount];
        runs[runCount] = null;
        if (runCount > 0) siftDown(last);
      } else {
        siftDown(r);
      }
      return tie;
    }
    long tie = Tie.of(timerRank, timers.headSeq());
    timers.pop(ev);
    ev.port = Context.SELF_PORT;
    ev.sender = self;
    return tie;
  }

  /** Places {@code r} at the root's place and sifts it down. */
  private void siftDown(Run r) {
    int i = 0, n = runCount, half = n >>> 1;
    while (i < half) {
      int c = 2 * i + 1;
      if (c + 1 < n && runs[c + 1].before(runs[c])) c++;
      if (!runs[c].before(r)) break;
      runs[i] = runs[c];
      i = c;
    }
    runs[i] = r;
  }

  /** Drops everything (a crash); returns how many events were dropped. */
  int clear() {
    int n = size();
    Arrays.fill(runs, 0, runCount, null);
    runCount = 0;
    runEvents = 0;
    timers.clear();
    return n;
  }

  /** What the queue holds, for a checkpoint: each run's unhandled rest, and the timers. */
  State state() {
    List<EventBatch> rest = new ArrayList<>(runCount);
    for (int i = 0; i < runCount; i++) rest.add(runs[i].rest());
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

    boolean before(Run o) {
      long t = headTime(), u = o.headTime();
      return t < u || (t == u && (rank < o.rank || (rank == o.rank && pos + batch.firstSeq() < o.pos + o.batch.firstSeq())));
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
