package io.tlogsim.engine.session;

import io.tlogsim.engine.log.LogProtocol;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import org.HdrHistogram.Histogram;

/**
 * Many committer sessions in one component (DESIGN.md principle 4). Each session thinks for an exponential time,
 * sends a commit record to the log manager, waits for its acknowledgement and thinks again (BENCH.md GCM-1).
 *
 * <p>A session sends its commit the moment it draws its think time, stamped with the future arrival time: the
 * pool never holds anything to send, which keeps windows long. Every session has its own generator, derived from
 * (seed, session id), so results do not depend on how sessions are split into pools.
 */
public final class SessionPool implements SimComponent {
  /** Namespace of session generators among the run's seeds. */
  public static final long SESSION_SEED_SPACE = 0x5e55_1000_0000_0000L;

  private final int firstSession;
  private final int count;
  private final double thinkMeanNanos;
  private final long hopNanos;
  private final int recordBytes;
  private final int logLink;

  private long[] rng;
  private long[] commitStart;
  private long commits;
  private long latencySum;
  private long latencyMax;
  private Histogram histogram = CommitStats.newHistogram();

  /**
   * @param firstSession id of the pool's first session; the pool holds sessions firstSession .. firstSession+count-1
   * @param hopNanos one-way delay of a commit record to the log manager (the lookahead of {@code logLink})
   */
  public SessionPool(int firstSession, int count, double thinkMeanNanos, long hopNanos, int recordBytes, int logLink) {
    this.firstSession = firstSession;
    this.count = count;
    this.thinkMeanNanos = thinkMeanNanos;
    this.hopNanos = hopNanos;
    this.recordBytes = recordBytes;
    this.logLink = logLink;
    rng = new long[count];
    commitStart = new long[count];
  }

  @Override
  public void start(Context ctx) {
    long space = Rng.seedFor(ctx.seed(), SESSION_SEED_SPACE);
    for (int i = 0; i < count; i++) {
      rng[i] = Rng.seedFor(space, firstSession + i);
      think(ctx, i, 0);
    }
  }

  /** Session i thinks from {@code t}; its commit record leaves when the think time ends. */
  private void think(Context ctx, int i, long t) {
    long start = t + Rng.nextExponential(rng, i, thinkMeanNanos);
    commitStart[i] = start;
    if (start <= ctx.endTime()) ctx.send(logLink, start + hopNanos, LogProtocol.COMMIT, firstSession + i, recordBytes);
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    if (ev.kind() != LogProtocol.ACK) throw new SimulationException("session pool: unknown event kind " + ev.kind());
    int i = (int) ev.a() - firstSession;
    long now = ctx.now();
    long latency = now - commitStart[i];
    commits++;
    latencySum += latency;
    if (latency > latencyMax) latencyMax = latency;
    histogram.recordValue(latency);
    think(ctx, i, now);
  }

  @Override
  public long inputDelay(int port) {
    return hopNanos; // an acknowledgement can lead to a commit record no sooner than one hop later
  }

  @Override
  public Object snapshot() {
    return new State(rng.clone(), commitStart.clone(), commits, latencySum, latencyMax, CommitStats.encode(histogram));
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    if (s.rng().length != count) throw new SimulationException("session pool: checkpoint holds " + s.rng().length
        + " sessions, this pool " + count);
    rng = s.rng().clone();
    commitStart = s.commitStart().clone();
    commits = s.commits();
    latencySum = s.latencySum();
    latencyMax = s.latencyMax();
    histogram = CommitStats.decode(s.histogram());
  }

  @Override
  public Object results() {
    return new CommitStats(commits, latencySum, latencyMax, CommitStats.encode(histogram));
  }

  public record State(long[] rng, long[] commitStart, long commits, long latencySum, long latencyMax,
      byte[] histogram) implements CborSerializable {}
}
