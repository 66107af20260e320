package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.VirtualTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SortedMap;

/**
 * A RAID controller in front of its member devices, each member a component of its own (REFERENCE.md section 4,
 * "RAID write penalty", "Controller write-back cache with battery"). Requests arrive on port 0 in the device protocol,
 * member completions on port 1; the layout is {@link RaidLayout}'s.
 *
 * <ul>
 *   <li>A request fans out to member I/Os after the controller's own time; it completes, one controller time after
 *       its last member I/O, when every member I/O has completed (a read-modify-write's writes start when its reads
 *       are done). A read goes to the mirror with the fewest I/Os outstanding from this controller.</li>
 *   <li>Write-back (cache on, battery good): a write completes at cache latency and is destaged behind it, in
 *       arrival order, at most {@code destageDepth} writes per member at once (reads go to the members meanwhile,
 *       not behind the whole cache); at most {@code cacheBytes} are dirty, and a write that finds the cache full
 *       waits, in arrival order, for destages to free room. A flush completes at cache latency (the battery keeps
 *       the cache). A write larger than the whole cache goes through.</li>
 *   <li>Write-through (cache off or battery failed): a write completes when its members have; a flush goes to every
 *       member.</li>
 * </ul>
 * Only a cached write knows its completion on arrival; every other completion follows the members' (which they send
 * ahead, stamped with their completion times).
 */
public final class RaidController extends Device {
  public static final int HOST_PORT = 0;
  public static final int MEMBER_PORT = 1;
  /** Member tags carry (operation, member): members are fewer than this. */
  private static final int TAG_MEMBERS = 128;

  private final RaidSpec spec;
  private final RaidLayout layout;
  private final int[] memberLinks;
  private final boolean cached;
  private final long hostDelay; // least delay of a completion to the host, either way

  private long nextOp = 1;
  private final LinkedHashMap<Long, Op> ops = new LinkedHashMap<>(); // in creation order: the oldest first
  private final ArrayDeque<Waiting> cacheWait = new ArrayDeque<>();
  private final ArrayDeque<Op> destageWait = new ArrayDeque<>(); // cached writes not yet destaging, oldest first
  private final int maxDestaging;
  private int destaging;
  private long dirty;
  private final int[] outstanding;
  private long backendReads, backendWrites, backendFlushes, cacheWaits, cacheWaitNanos, cachedWriteCount;

  /**
   * @param memberLinks the links from this controller to its members, member 0 first (the members' replies come back
   *     on port {@link #MEMBER_PORT})
   */
  public RaidController(String name, RaidSpec spec, int[] memberLinks) {
    super(name, true);
    if (memberLinks.length != spec.members()) {
      throw new IllegalArgumentException(name + ": " + memberLinks.length + " member links for " + spec.members()
          + " members");
    }
    if (spec.members() >= TAG_MEMBERS) throw new IllegalArgumentException(name + ": too many members");
    this.spec = spec;
    this.layout = new RaidLayout(spec);
    this.memberLinks = memberLinks.clone();
    this.cached = spec.cachedWrites();
    this.outstanding = new int[spec.members()];
    this.hostDelay = cached ? Math.min(spec.cacheLatencyNanos(), spec.controllerNanos()) : spec.controllerNanos();
    this.maxDestaging = spec.members() * spec.destageDepth();
  }

  @Override
  public String model() {
    return "raid " + spec.level() + " of " + spec.members() + ", stripe " + spec.stripeBytes() + " B, "
        + (cached ? "write-back cache" : "write-through") + (spec.writeBack() && !spec.batteryOk() ? " (battery failed)" : "");
  }

  /** The lookahead of the links from this controller back to its hosts. */
  @Override
  public long replyLookaheadNanos() {
    return hostDelay;
  }

  /** The lookahead of the links from this controller to its members. */
  public long memberLookaheadNanos() {
    return spec.controllerNanos();
  }

  @Override
  protected void handle(Context ctx, Event ev) {
    if (ev.port() == MEMBER_PORT) {
      memberDone(ctx, ev);
      return;
    }
    checkKind(name, ev);
    long now = ctx.now();
    int kind = ev.kind();
    long bytes = bytesOf(ev);
    stats.arrive(ctx, now);
    boolean write = kind == DeviceProtocol.WRITE || kind == DeviceProtocol.ZERO;
    if (cached && kind == DeviceProtocol.FLUSH) { // the battery-backed cache is durable: nothing to wait for
      long done = now + spec.cacheLatencyNanos();
      stats.complete(ctx, kind, bytes, now, done, 0);
      reply(ctx, done, ev);
    } else if (cached && write && bytes <= spec.cacheBytes()) {
      Waiting w = new Waiting(ev.a(), kind, bytes, ev.c(), ev.d(), now, ctx.replyLink());
      if (cacheWait.isEmpty() && dirty + bytes <= spec.cacheBytes()) {
        admit(ctx, w);
      } else {
        cacheWait.add(w);
      }
    } else {
      start(ctx, new Op(nextOp++, ev.a(), kind, bytes, ev.c(), ev.d(), now, ctx.replyLink()));
    }
  }

  /** A cached write: completes at cache latency from now; its destage starts now. */
  private void admit(Context ctx, Waiting w) {
    long now = ctx.now();
    long done = now + spec.cacheLatencyNanos();
    dirty += w.bytes();
    cachedWriteCount++;
    if (now > w.arrival()) {
      cacheWaits++;
      cacheWaitNanos += now - w.arrival();
    }
    stats.complete(ctx, w.kind(), w.bytes(), w.arrival(), done, 0);
    ctx.send(w.link(), done, DeviceProtocol.DONE, w.tag(), w.bytes(), w.kind(), w.file());
    Op destage = new Op(nextOp++, -1, w.kind(), w.bytes(), w.offset(), w.file(), now, -1);
    if (destaging < maxDestaging) {
      destaging++;
      start(ctx, destage);
    } else {
      destageWait.add(destage);
    }
  }

  private void start(Context ctx, Op op) {
    List<RaidLayout.MemberIo> plan = layout.plan(op.kind, op.offset, op.bytes, this::leastBusy);
    List<RaidLayout.MemberIo> later = new ArrayList<>();
    for (RaidLayout.MemberIo io : plan) {
      if (io.phase() == 0) {
        issue(ctx, op, io);
      } else {
        later.add(io);
      }
    }
    op.later = later;
    ops.put(op.id, op);
  }

  private int leastBusy(int first, int step, int count) {
    int best = first;
    for (int i = 1; i < count; i++) {
      int m = first + i * step;
      if (outstanding[m] < outstanding[best]) best = m;
    }
    return best;
  }

  private void issue(Context ctx, Op op, RaidLayout.MemberIo io) {
    int m = io.member();
    outstanding[m]++;
    op.pending++;
    switch (io.kind()) {
      case DeviceProtocol.READ -> backendReads++;
      case DeviceProtocol.FLUSH -> backendFlushes++;
      default -> backendWrites++;
    }
    ctx.send(memberLinks[m], ctx.now() + spec.controllerNanos(), io.kind(), op.id * TAG_MEMBERS + m, io.bytes(),
        io.offset(), op.file);
  }

  private void memberDone(Context ctx, Event ev) {
    long id = ev.a() / TAG_MEMBERS;
    int m = (int) (ev.a() % TAG_MEMBERS);
    Op op = ops.get(id);
    if (op == null || m >= outstanding.length) {
      throw new SimulationException(name + ": a member completion for no request (tag " + ev.a() + ")");
    }
    outstanding[m]--;
    if (--op.pending > 0) return;
    if (!op.later.isEmpty()) { // the read half of a read-modify-write is done: write
      List<RaidLayout.MemberIo> later = op.later;
      op.later = List.of();
      for (RaidLayout.MemberIo io : later) issue(ctx, op, io);
      return;
    }
    ops.remove(id);
    long now = ctx.now();
    if (op.link < 0) { // a destage: the next one starts, and there is room in the cache for writes that wait
      dirty -= op.bytes;
      destaging--;
      if (!destageWait.isEmpty()) {
        destaging++;
        start(ctx, destageWait.poll());
      }
      while (!cacheWait.isEmpty() && dirty + cacheWait.peek().bytes() <= spec.cacheBytes()) admit(ctx, cacheWait.poll());
    } else {
      long done = now + spec.controllerNanos();
      stats.complete(ctx, op.kind, op.bytes, op.arrival, done, 0);
      ctx.send(op.link, done, DeviceProtocol.DONE, op.tag, op.bytes, op.kind, op.file);
    }
  }

  @Override
  protected long oldestUnknownArrival() {
    long oldest = cacheWait.isEmpty() ? VirtualTime.NEVER : cacheWait.peek().arrival();
    for (Op op : ops.values()) {
      if (op.link >= 0) return Math.min(oldest, op.arrival);
    }
    return oldest;
  }

  /**
   * A host request reaches the members after the controller's time; it reaches the host only as a cached write (cache
   * latency) or through its members. A member completion reaches the host after the controller's time (or a waiting
   * write after cache latency), and the members after the controller's time (the writes of a read-modify-write, a
   * destage). The tick sends nothing.
   */
  @Override
  public long inputDelay(int port) {
    if (port == Context.SELF_PORT) return VirtualTime.NEVER;
    return Math.min(spec.controllerNanos(), hostDelay);
  }

  @Override
  public long inputDelay(int port, int outLink) {
    if (port == Context.SELF_PORT) return VirtualTime.NEVER;
    if (isMemberLink(outLink)) return spec.controllerNanos();
    if (port == HOST_PORT) return cached ? spec.cacheLatencyNanos() : VirtualTime.NEVER;
    return hostDelay;
  }

  private boolean isMemberLink(int link) {
    for (int l : memberLinks) if (l == link) return true;
    return false;
  }

  @Override
  protected SortedMap<String, Long> counters() {
    SortedMap<String, Long> c = super.counters();
    c.put("backendReads", backendReads);
    c.put("backendWrites", backendWrites);
    c.put("backendFlushes", backendFlushes);
    c.put("cachedWrites", cachedWriteCount);
    c.put("cacheFullWaits", cacheWaits);
    c.put("cacheFullWaitNanos", cacheWaitNanos);
    return c;
  }

  /** At the very end, requests still outstanding add to the queue depth (they do not count otherwise). */
  @Override
  protected void beforeTick(Context ctx) {
    if (ctx.now() < ctx.endTime()) return;
    for (Op op : ops.values()) if (op.link >= 0) stats.unfinished(ctx, op.arrival);
    for (Waiting w : cacheWait) stats.unfinished(ctx, w.arrival());
  }

  // ---- state ----

  /** One request in progress (or a destage: link -1). */
  private static final class Op {
    final long id, tag, bytes, offset, file, arrival;
    final int kind, link;
    int pending;
    List<RaidLayout.MemberIo> later = List.of();

    Op(long id, long tag, int kind, long bytes, long offset, long file, long arrival, int link) {
      this.id = id;
      this.tag = tag;
      this.kind = kind;
      this.bytes = bytes;
      this.offset = offset;
      this.file = file;
      this.arrival = arrival;
      this.link = link;
    }
  }

  /** A write waiting for room in the cache. */
  public record Waiting(long tag, int kind, long bytes, long offset, long file, long arrival, int link)
      implements CborSerializable {}

  public record OpState(long id, long tag, int kind, long bytes, long offset, long file, long arrival, int link,
      int pending, List<long[]> later) implements CborSerializable {}

  public record State(long nextOp, List<OpState> ops, List<Waiting> cacheWait, List<OpState> destageWait,
      int destaging, long dirty, int[] outstanding, long[] counters, IoStats.State stats) implements CborSerializable {}

  @Override
  public Object snapshot() {
    List<OpState> list = new ArrayList<>();
    for (Op op : ops.values()) list.add(state(op));
    List<OpState> waiting = new ArrayList<>();
    for (Op op : destageWait) waiting.add(state(op));
    return new State(nextOp, list, new ArrayList<>(cacheWait), waiting, destaging, dirty, outstanding.clone(),
        new long[] {backendReads, backendWrites, backendFlushes, cacheWaits, cacheWaitNanos, cachedWriteCount},
        stats.state());
  }

  private static OpState state(Op op) {
    List<long[]> later = new ArrayList<>();
    for (RaidLayout.MemberIo io : op.later) later.add(new long[] {io.member(), io.kind(), io.offset(), io.bytes(), io.phase()});
    return new OpState(op.id, op.tag, op.kind, op.bytes, op.offset, op.file, op.arrival, op.link, op.pending, later);
  }

  private static Op op(OpState o) {
    Op op = new Op(o.id(), o.tag(), o.kind(), o.bytes(), o.offset(), o.file(), o.arrival(), o.link());
    op.pending = o.pending();
    List<RaidLayout.MemberIo> later = new ArrayList<>();
    for (long[] v : o.later()) later.add(new RaidLayout.MemberIo((int) v[0], (int) v[1], v[2], v[3], (int) v[4]));
    op.later = later;
    return op;
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    nextOp = s.nextOp();
    ops.clear();
    for (OpState o : s.ops()) ops.put(o.id(), op(o));
    destageWait.clear();
    for (OpState o : s.destageWait()) destageWait.add(op(o));
    destaging = s.destaging();
    cacheWait.clear();
    cacheWait.addAll(s.cacheWait());
    dirty = s.dirty();
    System.arraycopy(s.outstanding(), 0, outstanding, 0, outstanding.length);
    long[] c = s.counters();
    backendReads = c[0];
    backendWrites = c[1];
    backendFlushes = c[2];
    cacheWaits = c[3];
    cacheWaitNanos = c[4];
    cachedWriteCount = c[5];
    stats.restore(s.stats());
  }
}
