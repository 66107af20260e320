package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.VirtualTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedMap;

/**
 * A hard disk drive with a head and a spinning platter (REFERENCE.md section 4: rotational latency, seek, sequential
 * versus random I/O, the controller's write-back cache).
 *
 * <p>Geometry: byte address X lies on track X / bytesPerTrack at angle (X mod bytesPerTrack) / bytesPerTrack, where a
 * track holds what passes under the head in one revolution at the transfer rate. Time t sees the platter at angle
 * (t mod revolution) / revolution. Serving a request: the command overhead (hidden when the command was queued behind
 * another), a seek if the request is on another track than the head, then the wait until its first byte comes round,
 * then the transfer. So a request that continues the previous one and is already waiting starts at once (no seek, no
 * rotation); one that arrives a little late waits nearly a whole revolution; a random one pays a seek and on average
 * half a revolution. Seek time grows with the square root of the distance: track-to-track for one track, and on
 * average over random positions exactly the spec's average seek (write seeks settle longer than reads). With a
 * spread ({@code latencyCv}), each seek and command overhead is the spec's times a lognormal draw of mean 1
 * ({@link LatencySpread}).
 *
 * <p>Read-ahead ({@code readAheadBytes} > 0): after a read the head keeps reading on into the drive's buffer until the
 * segment holds that many bytes beyond what the host has taken, or another command needs the head (a write, a read
 * elsewhere). A later read that starts between what the host took and the end of the segment is a buffer hit: data
 * already read reaches the host at the interface rate, the rest arrives with the stream, and where the stream had
 * stopped with a full segment the head waits for that point to come round again (no seek). A read elsewhere starts a
 * new stream; a write ends it. So a sequential reader that pauses (a VLF header read, a pipeline that drained) loses
 * no revolution.
 *
 * <p>Without a cache a flush costs the command overhead only: the drive has no volatile write cache (an enterprise
 * drive), so a write is on the platter when it completes. With a battery-backed write-back cache
 * ({@link HddSpec.WriteCache}) a write completes at cache latency while the cache has room and is destaged behind it,
 * in arrival order, contiguous writes merged into one platter write; reads are served before destages; a write that
 * finds the cache full waits until destages free room; a flush completes at cache latency. A failed battery makes the
 * drive write-through (as without a cache).
 *
 * <p>Queue: with depth 1 and no cache the drive serves in arrival order and knows each completion on arrival (the
 * reply goes at once). With a deeper queue it picks, whenever it is free, the request with the shortest positioning
 * time among the first {@code queueDepth} waiting (NCQ/TCQ), and replies when it starts serving it; so does a drive
 * with a write-back cache, whose destages take the head between host requests.
 */
public final class Hdd extends Device {
  static final int FREE = 1; // timer: the head finished a request or a destage and picks the next
  /** The least service of a command that waited in the queue (so that its reply obeys the link's lookahead). */
  static final long MIN_SERVICE_NANOS = 1_000;

  private final HddSpec spec;
  private final long rev;
  private final long bpt;
  private final long tracks;
  private final double seekScaleRead;
  private final double seekScaleWrite;
  private final LatencySpread spread; // null: positioning times exactly the spec's
  private final long leastOverhead;
  private final long readAhead;
  private final double ifNanosPerByte;
  private final HddSpec.WriteCache cache;
  private final boolean cached;
  private final boolean queued; // replies when service starts (a deep queue or a write-back cache)

  private long busyUntil;
  private long headTrack;
  private long freeTimerAt = -1;
  private long lastNow;
  // the read-ahead stream: address raOrigin passed under the head at raOriginTime and the head has read on from
  // there; the host has taken everything below raConsumed
  private boolean raValid;
  private long raOrigin, raOriginTime, raConsumed;
  // waiting host requests (queued mode only), in arrival order
  private int waiting;
  private long[] wTag = new long[16], wBytes = new long[16], wOffset = new long[16], wFile = new long[16],
      wArrival = new long[16];
  private int[] wKind = new int[16], wLink = new int[16];
  // write-back cache: dirty extents {offset, bytes, admitted at} in arrival order, the first `destaging` being written
  private final ArrayDeque<long[]> dirty = new ArrayDeque<>();
  private int destaging;
  private long destagingBytes, destageEnd, dirtyBytes;
  private final ArrayDeque<Pending> cacheWait = new ArrayDeque<>();
  private long readAheadHits, cachedWrites, cacheFullWaits, cacheFullWaitNanos, destages, destagedBytes;

  public Hdd(String name, HddSpec spec) {
    super(name, true);
    this.spec = spec;
    this.rev = spec.revolutionNanos();
    this.bpt = spec.bytesPerTrack();
    this.tracks = spec.tracks();
    // E|sqrt(|x - y|)| = 8/15 for x, y uniform on [0, 1]: scaled so that the mean seek is the spec's average
    this.seekScaleRead = (spec.seekReadNanos() - spec.trackToTrackNanos()) * 15.0 / 8.0;
    this.seekScaleWrite = (spec.seekWriteNanos() - spec.trackToTrackNanos()) * 15.0 / 8.0;
    this.spread = LatencySpread.of("latencyCv", spec.latencyCv());
    this.leastOverhead = LatencySpread.least(spread, spec.commandOverheadNanos());
    this.readAhead = spec.readAheadBytes();
    this.ifNanosPerByte = 1e3 / spec.interfaceMBps();
    this.cache = spec.cache();
    this.cached = cache.cachedWrites();
    this.queued = spec.queueDepth() > 1 || cached;
  }

  @Override
  public String model() {
    return "hdd (" + spec.rpm() + " rpm, queue depth " + spec.queueDepth()
        + (readAhead > 0 ? ", read-ahead " + readAhead / 1024 + " KiB" : "")
        + (cached ? ", write-back cache " + cache.bytes() / (1 << 20) + " MiB"
            : cache.writeBack() ? ", write-through (battery failed)" : "") + ")";
  }

  /**
   * In arrival order every reply goes on arrival, at least the command overhead ahead; queued, a reply goes when its
   * service starts, at least the least service ahead, and a cached write's at cache latency.
   */
  @Override
  public long replyLookaheadNanos() {
    if (!queued) return leastOverhead;
    long d = Math.min(leastOverhead, MIN_SERVICE_NANOS);
    return cached ? Math.min(d, cache.latencyNanos()) : d;
  }

  /** Seek time over {@code distance} tracks (the spec's, before any spread). */
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

  /** When address y passes under the head in the read-ahead stream. */
  private long streamTime(long y) {
    return raOriginTime + transferNanos(raOrigin, y - raOrigin);
  }

  /** The wait from t until address x comes round under the head. */
  private long rotationWait(long t, long x) {
    return Math.floorMod(phase(x) - t % rev, rev);
  }

  private long interfaceNanos(long bytes) {
    return (long) (bytes * ifNanosPerByte);
  }

  /**
   * Completion of a request started at {@code start} by a free drive; moves the head (and the read-ahead stream),
   * and draws the spread, when {@code move}. Without {@code move} it only estimates (a reordering queue comparing
   * candidates).
   */
  private long serve(long start, long arrival, int kind, long bytes, long offset, boolean move) {
    long overhead = move ? LatencySpread.vary(spread, spec.commandOverheadNanos(), rngOrNull())
        : spec.commandOverheadNanos();
    long t = Math.max(start, arrival + overhead);
    if (kind == DeviceProtocol.FLUSH) return Math.max(t, start + MIN_SERVICE_NANOS);
    long x = Math.floorMod(offset, spec.capacityBytes());
    long end = x + bytes;
    boolean read = kind == DeviceProtocol.READ;
    long head = headTrack;
    if (raValid) {
      long stopAddr = raConsumed + readAhead;
      long stopTime = streamTime(stopAddr);
      if (read && x >= raConsumed && x <= stopAddr) { // a buffer hit
        long done;
        long resumeFrom = -1, resumeAt = 0;
        if (t < stopTime) { // the head is still reading ahead: what is not in the buffer yet arrives with it
          done = Math.max(t + interfaceNanos(bytes), streamTime(end));
        } else if (end <= stopAddr) { // all in the buffer; with room again, reading ahead resumes where it stopped
          done = t + interfaceNanos(bytes);
          resumeFrom = stopAddr;
          resumeAt = t + rotationWait(t, stopAddr);
        } else { // the buffer's part, then the platter from where the stream stopped (the head is there)
          long w = rotationWait(t, stopAddr);
          done = Math.max(t + interfaceNanos(bytes), t + w + transferNanos(stopAddr, end - stopAddr));
          resumeFrom = stopAddr;
          resumeAt = t + w;
        }
        if (move) {
          raConsumed = end;
          if (resumeFrom >= 0) {
            raOrigin = resumeFrom;
            raOriginTime = resumeAt;
          }
          headTrack = Math.min(tracks - 1, Math.max(0, end - 1) / bpt);
          readAheadHits++;
        }
        return Math.max(done, start + MIN_SERVICE_NANOS);
      }
      // the head has followed the stream up to now (or to where the segment filled)
      long front = t >= stopTime ? stopAddr
          : raOrigin + Math.max(0, (long) ((t - raOriginTime) * (double) bpt / rev));
      head = Math.min(tracks - 1, front / bpt);
    }
    long track = x / bpt;
    long seek = seekNanos(Math.abs(track - head), !read);
    if (move && seek > 0) seek = LatencySpread.vary(spread, seek, rngOrNull());
    t += seek;
    long done = t + rotationWait(t, x) + transferNanos(x, bytes);
    if (move) {
      headTrack = Math.min(tracks - 1, Math.max(x, end - 1) / bpt);
      raValid = read && readAhead > 0;
      if (raValid) {
        raOrigin = end;
        raOriginTime = done;
        raConsumed = end;
      }
    }
    return Math.max(done, start + MIN_SERVICE_NANOS);
  }

  private Context current; // the context of the event being handled (for the spread's draws)

  private io.tlogsim.kernel.Rng rngOrNull() {
    return spread == null ? null : current.rng();
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    current = ctx;
    long now = ctx.now();
    lastNow = now;
    if (ev.port() == Context.SELF_PORT) { // FREE: finish a destage, serve what waits
      freeTimerAt = -1;
      if (destaging > 0 && destageEnd <= now) finishDestage(ctx, now);
      startNext(ctx, now);
      return;
    }
    checkKind(name, ev);
    int kind = ev.kind();
    long bytes = bytesOf(ev);
    if (!queued) { // arrival order: the completion is known now
      long done = serve(Math.max(now, busyUntil), now, kind, bytes, ev.c(), true);
      busyUntil = done;
      stats.request(ctx, kind, bytes, now, done, 0);
      reply(ctx, done, ev);
      return;
    }
    boolean write = kind == DeviceProtocol.WRITE || kind == DeviceProtocol.ZERO;
    if (cached && kind == DeviceProtocol.FLUSH) { // the battery keeps the cache: nothing to wait for
      long done = now + cache.latencyNanos();
      stats.request(ctx, kind, bytes, now, done, 0);
      reply(ctx, done, ev);
      return;
    }
    if (cached && write && bytes <= cache.bytes()) {
      Pending w = new Pending(ev.a(), kind, bytes, ev.c(), ev.d(), now, ctx.replyLink());
      stats.arrive(ctx, now);
      if (cacheWait.isEmpty() && dirtyBytes + bytes <= cache.bytes()) {
        admit(ctx, now, w);
      } else {
        cacheWait.add(w);
      }
      kick(ctx, now);
      return;
    }
    stats.arrive(ctx, now);
    enqueue(ev.a(), kind, bytes, ev.c(), ev.d(), now, ctx.replyLink());
    kick(ctx, now);
  }

  /** The head starts on what waits if it is free, else looks again when it is. */
  private void kick(Context ctx, long now) {
    if (freeTimerAt >= 0) return;
    if (busyUntil <= now) {
      startNext(ctx, now);
    } else {
      freeTimerAt = busyUntil;
      ctx.schedule(busyUntil, FREE, 0, 0);
    }
  }

  /** A write the cache takes now: it completes at cache latency and is destaged behind. */
  private void admit(Context ctx, long now, Pending w) {
    long done = now + cache.latencyNanos();
    if (now > w.arrival()) {
      cacheFullWaits++;
      cacheFullWaitNanos += now - w.arrival();
    }
    cachedWrites++;
    dirtyBytes += w.bytes();
    dirty.add(new long[] {Math.floorMod(w.offset(), spec.capacityBytes()), w.bytes(), now});
    stats.complete(ctx, w.kind(), w.bytes(), w.arrival(), done, 0);
    ctx.send(w.link(), done, DeviceProtocol.DONE, w.tag(), w.bytes(), w.kind(), w.file());
  }

  private void finishDestage(Context ctx, long now) {
    for (int i = 0; i < destaging; i++) dirty.poll();
    dirtyBytes -= destagingBytes;
    destagedBytes += destagingBytes;
    destaging = 0;
    destagingBytes = 0;
    while (!cacheWait.isEmpty() && dirtyBytes + cacheWait.peek().bytes() <= cache.bytes()) {
      admit(ctx, now, cacheWait.poll());
    }
  }

  /**
   * The head is free at {@code now}: serves the waiting host request it reaches soonest and replies, or else writes
   * the oldest dirty data (with what follows it contiguously), and looks again when done.
   */
  private void startNext(Context ctx, long now) {
    if (waiting > 0) {
      int window = Math.min(waiting, spec.queueDepth());
      int best = 0;
      if (window > 1) {
        long bestDone = VirtualTime.NEVER;
        for (int i = 0; i < window; i++) {
          long d = serve(now, wArrival[i], wKind[i], wBytes[i], wOffset[i], false);
          if (d < bestDone) {
            bestDone = d;
            best = i;
          }
        }
      }
      long done = serve(now, wArrival[best], wKind[best], wBytes[best], wOffset[best], true);
      busyUntil = done;
      stats.complete(ctx, wKind[best], wBytes[best], wArrival[best], done, 0);
      ctx.send(wLink[best], done, DeviceProtocol.DONE, wTag[best], wBytes[best], wKind[best], wFile[best]);
      remove(best);
      if (waiting > 0 || dirty.size() > 0) {
        freeTimerAt = done;
        ctx.schedule(done, FREE, 0, 0);
      }
      return;
    }
    if (destaging == 0 && !dirty.isEmpty()) {
      long offset = -1, bytes = 0, queuedAt = now;
      int n = 0;
      for (long[] e : dirty) { // the oldest extent and those that continue it
        if (n > 0 && (e[0] != offset + bytes || bytes + e[1] > cache.destageBytes())) break;
        if (n == 0) {
          offset = e[0];
          queuedAt = e[2];
        }
        bytes += e[1];
        n++;
      }
      // the controller queued this write at the drive when its oldest data came in: a command queued behind the one
      // before it has its overhead hidden, and one that continues it streams on without a lost revolution
      long done = serve(now, queuedAt, DeviceProtocol.WRITE, bytes, offset, true);
      busyUntil = done;
      destaging = n;
      destagingBytes = bytes;
      destageEnd = done;
      destages++;
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
    long oldest = waiting == 0 ? VirtualTime.NEVER : wArrival[0];
    return cacheWait.isEmpty() ? oldest : Math.min(oldest, cacheWait.peek().arrival());
  }

  /**
   * A new request completes no sooner than its command overhead (a cached write or flush: its cache latency); a
   * waiting one no sooner than the head's next service start plus the least service (a write waiting for room: the
   * cache latency after a destage ends).
   */
  @Override
  public long inputDelay(int port) {
    long d = port == Context.SELF_PORT ? MIN_SERVICE_NANOS : leastOverhead;
    return cached ? Math.min(d, cache.latencyNanos()) : d;
  }

  /**
   * Nothing the head serves completes before the request in service does: whatever arrives is served after it; with
   * a write-back cache a write arriving from now on may complete at cache latency.
   */
  @Override
  public long quietUntil() {
    return cached ? Math.min(busyUntil, VirtualTime.plus(lastNow, cache.latencyNanos())) : busyUntil;
  }

  @Override
  protected SortedMap<String, Long> counters() {
    SortedMap<String, Long> c = super.counters();
    if (readAhead > 0) c.put("readAheadHits", readAheadHits);
    if (cached) {
      c.put("cachedWrites", cachedWrites);
      c.put("cacheFullWaits", cacheFullWaits);
      c.put("cacheFullWaitNanos", cacheFullWaitNanos);
      c.put("destages", destages);
      c.put("destagedBytes", destagedBytes);
    }
    return c;
  }

  /** A write waiting for room in the cache. */
  public record Pending(long tag, int kind, long bytes, long offset, long file, long arrival, int link)
      implements CborSerializable {}

  @Override
  public Object snapshot() {
    return new State(busyUntil, headTrack, freeTimerAt, Arrays.copyOf(wTag, waiting), Arrays.copyOf(wKind, waiting),
        Arrays.copyOf(wBytes, waiting), Arrays.copyOf(wOffset, waiting), Arrays.copyOf(wFile, waiting),
        Arrays.copyOf(wArrival, waiting), Arrays.copyOf(wLink, waiting), stats.state(), lastNow, raValid, raOrigin,
        raOriginTime, raConsumed, new ArrayList<>(dirty), destaging, destagingBytes, destageEnd, dirtyBytes,
        new ArrayList<>(cacheWait), new long[] {readAheadHits, cachedWrites, cacheFullWaits, cacheFullWaitNanos,
            destages, destagedBytes});
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
    lastNow = s.lastNow();
    raValid = s.raValid();
    raOrigin = s.raOrigin();
    raOriginTime = s.raOriginTime();
    raConsumed = s.raConsumed();
    dirty.clear();
    if (s.dirty() != null) for (long[] e : s.dirty()) dirty.add(e.clone());
    destaging = s.destaging();
    destagingBytes = s.destagingBytes();
    destageEnd = s.destageEnd();
    dirtyBytes = s.dirtyBytes();
    cacheWait.clear();
    if (s.cacheWait() != null) cacheWait.addAll(s.cacheWait());
    long[] c = s.counters() == null ? new long[6] : s.counters();
    readAheadHits = c[0];
    cachedWrites = c[1];
    cacheFullWaits = c[2];
    cacheFullWaitNanos = c[3];
    destages = c[4];
    destagedBytes = c[5];
  }

  public record State(long busyUntil, long headTrack, long freeTimerAt, long[] tag, int[] kind, long[] bytes,
      long[] offset, long[] file, long[] arrival, int[] link, IoStats.State stats, long lastNow, boolean raValid,
      long raOrigin, long raOriginTime, long raConsumed, List<long[]> dirty, int destaging, long destagingBytes,
      long destageEnd, long dirtyBytes, List<Pending> cacheWait, long[] counters) implements CborSerializable {}
}
