package io.tlogsim.engine.log;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import java.util.Arrays;

/**
 * The log manager with group commit (BENCH.md GCM-1; REFERENCE.md section 2, "Group commit"): commit records
 * wait in the log buffer; with no write in flight, it writes as many whole records as fit in one write
 * ({@code maxWriteBytes}, rounded up to {@code blockBytes}) and acknowledges every commit of that write when it
 * completes. At most one write is in flight.
 */
public final class LogManager implements SimComponent {
  private final int maxWriteBytes;
  private final int blockBytes;
  private final long ackDelayNanos;
  private final long deviceDelayNanos;
  private final int deviceLink;
  private final int[] poolLinks;
  private final int sessionsPerPool;

  // the log buffer: records waiting for a write, in arrival order (a ring)
  private int[] bufSession = new int[1024];
  private int[] bufBytes = new int[1024];
  private int head;
  private int size;
  // the write in flight
  private int[] writing = new int[64];
  private int writingCount;
  private boolean busy;
  private long writeTag;
  // statistics
  private long records;
  private long writes;
  private long bytesWritten;
  private long recordBytes;

  /**
   * @param ackDelayNanos delay of an acknowledgement to its session (the lookahead of the links to the pools)
   * @param deviceDelayNanos delay of a write request to the device (the lookahead of the device link)
   * @param poolLinks link to each session pool; session s belongs to pool s / sessionsPerPool
   */
  public LogManager(int maxWriteBytes, int blockBytes, long ackDelayNanos, long deviceDelayNanos, int deviceLink,
      int[] poolLinks, int sessionsPerPool) {
    this.maxWriteBytes = maxWriteBytes;
    this.blockBytes = blockBytes;
    this.ackDelayNanos = ackDelayNanos;
    this.deviceDelayNanos = deviceDelayNanos;
    this.deviceLink = deviceLink;
    this.poolLinks = poolLinks.clone();
    this.sessionsPerPool = sessionsPerPool;
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    switch (ev.kind()) {
      case LogProtocol.COMMIT -> {
        append((int) ev.a(), (int) ev.b());
        if (!busy) issueWrite(ctx);
      }
      case DeviceProtocol.DONE -> {
        if (!busy || ev.a() != writeTag) {
          throw new SimulationException("log manager: unexpected write completion " + ev.a());
        }
        long ackAt = ctx.now() + ackDelayNanos;
        for (int i = 0; i < writingCount; i++) {
          int session = writing[i];
          ctx.send(poolLinks[session / sessionsPerPool], ackAt, LogProtocol.ACK, session, 0);
        }
        busy = false;
        writingCount = 0;
        if (size > 0) issueWrite(ctx);
      }
      default -> throw new SimulationException("log manager: unknown event kind " + ev.kind());
    }
  }

  private void append(int session, int bytes) {
    if (size == bufSession.length) {
      int[] s = new int[size * 2], by = new int[size * 2];
      for (int i = 0; i < size; i++) {
        int k = (head + i) % bufSession.length;
        s[i] = bufSession[k];
        by[i] = bufBytes[k];
      }
      bufSession = s;
      bufBytes = by;
      head = 0;
    }
    int k = head + size;
    if (k >= bufSession.length) k -= bufSession.length;
    bufSession[k] = session;
    bufBytes[k] = bytes;
    size++;
  }

  /** Takes whole records up to one write's size (at least one) and sends the write to the device. */
  private void issueWrite(Context ctx) {
    int taken = 0;
    long bytes = 0;
    while (size > 0) {
      int rec = bufBytes[head];
      if (taken > 0 && bytes + rec > maxWriteBytes) break;
      if (taken == writing.length) writing = Arrays.copyOf(writing, taken * 2);
      writing[taken++] = bufSession[head];
      bytes += rec;
      if (++head == bufSession.length) head = 0;
      size--;
    }
    long padded = (bytes + blockBytes - 1) / blockBytes * blockBytes;
    writingCount = taken;
    busy = true;
    writeTag++;
    records += taken;
    writes++;
    bytesWritten += padded;
    recordBytes += bytes;
    ctx.send(deviceLink, ctx.now() + deviceDelayNanos, DeviceProtocol.WRITE, writeTag, padded, bytesWritten - padded, 0);
  }

  @Override
  public long inputDelay(int port) {
    if (port == LogProtocol.COMMITS_PORT) {
      return busy ? VirtualTime.NEVER : deviceDelayNanos; // while a write is in flight, commits only queue
    }
    return Math.min(deviceDelayNanos, ackDelayNanos);
  }

  /** Only a completed write acknowledges; a commit at most starts a write. */
  @Override
  public long inputDelay(int port, int outLink) {
    if (outLink == deviceLink) return port == LogProtocol.COMMITS_PORT && busy ? VirtualTime.NEVER : deviceDelayNanos;
    return port == LogProtocol.DEVICE_PORT ? ackDelayNanos : VirtualTime.NEVER;
  }

  @Override
  public Object snapshot() {
    int[] s = new int[size], by = new int[size];
    for (int i = 0; i < size; i++) {
      int k = (head + i) % bufSession.length;
      s[i] = bufSession[k];
      by[i] = bufBytes[k];
    }
    return new State(s, by, Arrays.copyOf(writing, writingCount), busy, writeTag, records, writes, bytesWritten,
        recordBytes);
  }

  @Override
  public void restore(Object snapshot) {
    State st = (State) snapshot;
    int cap = Math.max(1024, Integer.highestOneBit(Math.max(1, st.bufSession().length)) * 2);
    bufSession = Arrays.copyOf(st.bufSession(), cap);
    bufBytes = Arrays.copyOf(st.bufBytes(), cap);
    head = 0;
    size = st.bufSession().length;
    writing = Arrays.copyOf(st.writing(), Math.max(64, st.writing().length));
    writingCount = st.writing().length;
    busy = st.busy();
    writeTag = st.writeTag();
    records = st.records();
    writes = st.writes();
    bytesWritten = st.bytesWritten();
    recordBytes = st.recordBytes();
  }

  @Override
  public Object results() {
    return new LogStats(records, writes, bytesWritten, recordBytes, blockBytes);
  }

  public record State(int[] bufSession, int[] bufBytes, int[] writing, boolean busy, long writeTag, long records,
      long writes, long bytesWritten, long recordBytes) implements CborSerializable {}
}
