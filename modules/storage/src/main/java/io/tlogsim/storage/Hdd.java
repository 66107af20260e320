package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.VirtualTime;
import java.util.Arrays;

/**
 * A hard disk drive with a head and a spinning platter (REFERENCE.md section 4: rotational latency, seek, sequential
 * versus random I/O).
 *
 * <p>Geometry: byte address X lies on track X / bytesPerTrack at angle (X mod bytesPerTrack) / bytesPerTrack, where a
 * track holds what passes under the head in one revolution at the transfer rate. Time t sees the platter at angle
 * (t mod revolution) / revolution. Serving a request: the command overhead (hidden when the command was queued behind
 * another), a seek if the request is on another track than the head, then the wait until its first byte comes round,
 * then the transfer. So a request that continues the previous one and is already waiting starts at once (no seek, no
 * rotation); one that arrives a little late waits nearly a whole revolution; a random one pays a seek and on average
 * half a revolution. Seek time grows with the square root of the distance: track-to-track for one track, and on
 * average over random positions exactly the spec's average seek (write seeks settle longer than reads).
 *
 * <p>A flush costs the command overhead only: the drive has no volatile write cache (an enterprise drive behind a
 * controller), so a write is on the platter when it completes.
 *
 * <p>Queue: with depth 1 the drive serves in arrival order and knows each completion on arrival (the reply goes at
 * once). With a deeper queue it picks, whenever it is free, the request with the shortest positioning time among the
 * first {@code queueDepth} waiting (NCQ/TCQ), and replies when it starts serving it.
 */
public final class Hdd extends Device {
  static final int FREE = 1; // timer: the drive finished a request and picks the next
  /** The least service of a command that waited in the queue (so that its reply obeys the link's lookahead). */
  static final long MIN_SERVICE_NANOS = 1_000;

  private final HddSpec spec;
  private final long rev;
  private final long bpt;
  private final long tracks;
  private final double seekScaleRead;
  private final double seekScaleWrite;

  private long busyUntil;
  private long headTrack;
  private long freeTimerAt = -1;
  // waiting requests (queue depth > 1 only), in arrival order
  private int waiting;
  private long[] wTag = new long[16], wBytes = new long[16], wOffset = new long[16], wFile = new long[16],
      wArrival = new long[16];
  private int[] wKind = new int[16], wLink = new int[16];

  public Hdd(String name, HddSpec spec) {
    super(name, true);
    this.spec = spec;
    this.rev = spec.revolutionNanos();
    this.bpt = spec.bytesPerTrack();
    this.tracks = spec.tracks();
    // E|sqrt(|x - y|)| = 8/15 for x, y uniform on [0, 1]: scaled so that the mean seek is the spec's average
    this.seekScaleRead = (spec.seekReadNanos() - spec.trackToTrackNanos()) * 15.0 / 8.0;
    this.seekScaleWrite = (spec.seekWriteNanos() - spec.trackToTrackNanos()) * 15.0 / 8.0;
  }

  @Override
  public String model() {
    return "hdd (" + spec.rpm() + " rpm, queue depth " + spec.queueDepth() + ")";
  }

  /**
   * In arrival order every reply goes on arrival, at least the command overhead ahead; with a deeper queue a reply
   * goes when its service starts, at least the least service ahead.
   */
  @Override
  public long replyLookaheadNanos() {
    return spec.queueDepth() == 1 ? spec.commandOverheadNanos()
        : Math.min(spec.commandOverheadNanos(), MIN_SERVICE_NANOS);
  }

  /** Seek time over {@code distance} tracks. */
  long seekNanos(long distance, boolean write) {
    if (distance == 0) return 0;
    double scale = write ? seekScaleWrite : seekScaleRead;
    return spec.trackToTrackNanos() + (long) (scale * Math.sqrt(distance / (double) tracks));
  }

  /** Time since the start of the revolution at which byte address x passes under the head. */
  private long phase(long x) {
    return (x % bpt) * rev / bpt;
  }

  /** Rotation time from address x to x + bytes: the transfer time, consistent with the phases. */
  private long transferNanos(long x, long bytes) {
    long y = x + bytes;
    return (y / bpt - x / bpt) * rev + phase(y) - phase(x);
  }

  /**
   * Completion of a request started at {@code start} by a free drive whose head is on {@code headTrack}; moves the
   * head when {@code move}.
   */
  private long serve(long start, long arrival, int kind, long bytes, long offset, boolean move) {
    long t = Math.max(start, arrival + spec.commandOverheadNanos());
    if (kind == DeviceProtocol.FLUSH) return Math.max(t, start + MIN_SERVICE_NANOS);
    long x = Math.floorMod(offset, spec.capacityBytes());
    long track = x / bpt;
    t += seekNanos(Math.abs(track - headTrack), kind != DeviceProtocol.READ);
    long wait = Math.floorMod(phase(x) - t % rev, rev);
    long done = t + wait + transferNanos(x, bytes);
    if (move) headTrack = Math.min(tracks - 1, (x + Math.max(0, bytes - 1)) / bpt);
    return Math.max(done, start + MIN_SERVICE_NANOS);
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    long now = ctx.now();
    if (ev.port() == Context.SELF_PORT) { // FREE: serve the best waiting request
      freeTimerAt = -1;
      startNext(ctx, now);
      return;
    }
    checkKind(name, ev);
    long bytes = bytesOf(ev);
    if (spec.queueDepth() == 1) { // arrival order: the completion is known now
      long done = serve(Math.max(now, busyUntil), now, ev.kind(), bytes, ev.c(), true);
      busyUntil = done;
      stats.request(ctx, ev.kind(), bytes, now, done, 0);
      reply(ctx, done, ev);
      return;
    }
    stats.arrive(ctx, now);
    enqueue(ev.a(), ev.kind(), bytes, ev.c(), ev.d(), now, ctx.replyLink());
    if (busyUntil <= now) {
      startNext(ctx, now);
    } else if (freeTimerAt < 0) {
      freeTimerAt = busyUntil;
      ctx.schedule(busyUntil, FREE, 0, 0);
    }
  }

  /** The drive is free at {@code now}: serves the waiting request it reaches soonest, replies, and waits again. */
  private void startNext(Context ctx, long now) {
    if (waiting == 0) return;
    int window = Math.min(waiting, spec.queueDepth());
    int best = 0;
    long bestDone = VirtualTime.NEVER;
    for (int i = 0; i < window; i++) {
      long d = serve(now, wArrival[i], wKind[i], wBytes[i], wOffset[i], false);
      if (d < bestDone) {
        bestDone = d;
        best = i;
      }
    }
    long done = serve(now, wArrival[best], wKind[best], wBytes[best], wOffset[best], true);
    busyUntil = done;
    stats.complete(ctx, wKind[best], wBytes[best], wArrival[best], done, 0);
    ctx.send(wLink[best], done, DeviceProtocol.DONE, wTag[best], wBytes[best], wKind[best], wFile[best]);
    remove(best);
    if (waiting > 0) {
      freeTimerAt = done;
      ctx.schedule(done, FREE, 0, 0);
    }
  }

  private void enqueue(long tag, int kind, long bytes, long offset, long file, long arrival, int link) {
    if (waiting == wTag.length) {
      int n = waiting * 2;
      wTag = Arrays.copyOf(wTag, n);
      wBytes = Arrays.copyOf(wBytes, n);
      wOffset = Arrays.copyOf(wOffset, n);
      wFile = Arrays.copyOf(wFile, n);
      wArrival = Arrays.copyOf(wArrival, n);
      wKind = Arrays.copyOf(wKind, n);
      wLink = Arrays.copyOf(wLink, n);
    }
    int i = waiting++;
    wTag[i] = tag;
    wKind[i] = kind;
    wBytes[i] = bytes;
    wOffset[i] = offset;
    wFile[i] = file;
    wArrival[i] = arrival;
    wLink[i] = link;
  }

  private void remove(int i) {
    int rest = waiting - i - 1;
    System.arraycopy(wTag, i + 1, wTag, i, rest);
    System.arraycopy(wKind, i + 1, wKind, i, rest);
    System.arraycopy(wBytes, i + 1, wBytes, i, rest);
    System.arraycopy(wOffset, i + 1, wOffset, i, rest);
    System.arraycopy(wFile, i + 1, wFile, i, rest);
    System.arraycopy(wArrival, i + 1, wArrival, i, rest);
    System.arraycopy(wLink, i + 1, wLink, i, rest);
    waiting--;
  }

  @Override
  protected long oldestUnknownArrival() {
    return waiting == 0 ? VirtualTime.NEVER : wArrival[0];
  }

  /**
   * A new request completes no sooner than its command overhead; a waiting one no sooner than the drive's next
   * service start plus the least service.
   */
  @Override
  public long inputDelay(int port) {
    return port == Context.SELF_PORT ? MIN_SERVICE_NANOS : spec.commandOverheadNanos();
  }

  /** Nothing completes before the request in service does: whatever arrives is served after it. */
  @Override
  public long quietUntil() {
    return busyUntil;
  }

  @Override
  public Object snapshot() {
    return new State(busyUntil, headTrack, freeTimerAt, Arrays.copyOf(wTag, waiting), Arrays.copyOf(wKind, waiting),
        Arrays.copyOf(wBytes, waiting), Arrays.copyOf(wOffset, waiting), Arrays.copyOf(wFile, waiting),
        Arrays.copyOf(wArrival, waiting), Arrays.copyOf(wLink, waiting), stats.state());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    busyUntil = s.busyUntil();
    headTrack = s.headTrack();
    freeTimerAt = s.freeTimerAt();
    waiting = 0;
    for (int i = 0; i < s.tag().length; i++) {
      enqueue(s.tag()[i], s.kind()[i], s.bytes()[i], s.offset()[i], s.file()[i], s.arrival()[i], s.link()[i]);
    }
    stats.restore(s.stats());
  }

  public record State(long busyUntil, long headTrack, long freeTimerAt, long[] tag, int[] kind, long[] bytes,
      long[] offset, long[] file, long[] arrival, int[] link, IoStats.State stats) implements CborSerializable {}
}
