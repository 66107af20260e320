package io.tlogsim.storage.load;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Rng;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.SimulationException;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import io.tlogsim.storage.StorageAssembly;
import java.util.List;

/**
 * fio's jobs against one device, as one component (DESIGN.md principle 4: aggregate): {@code numjobs} jobs each keep
 * {@code iodepth} I/Os in flight, and submit the next the moment one completes, until the runtime is over. Sequential
 * patterns walk their file block by block (wrapping at its end); random ones pick a uniformly random block of it; randrw
 * draws each I/O's direction with probability rwmixread. Completion latency runs from submission to completion; only
 * I/Os that complete within the runtime count, as fio's do. With {@code flushEachWrite} (fio's sync on a device with a
 * volatile cache) a write is followed by a flush and completes with it.
 *
 * <p>With fio's {@code rate_iops} a job issues its I/Os on a schedule, one every 1 / rate_iops seconds (fio's default
 * linear rate process), as many in flight as iodepth allows: a freed slot issues at the next scheduled time, or at
 * once when the job is behind its schedule (the device is too slow for the rate), and latency runs from the issue.
 *
 * <p>Requests carry the slot (job x iodepth + i) as their tag, the job's file as their file id (job number).
 */
public final class IoJobs implements SimComponent {
  private final IoJobSpec spec;
  private final int deviceLink;
  private final int slots;

  private final long[] submitted; // per slot: when its I/O was submitted
  private final int[] kind; // per slot: READ or WRITE
  private final long[] nextOffset; // per job: the next block of a sequential pattern
  private final long[] rng; // per job: its generator state
  private final long[] nextIssue; // per job, with rate_iops: its next scheduled issue
  private final IoDirectionStats.Recorder reads = new IoDirectionStats.Recorder();
  private final IoDirectionStats.Recorder writes = new IoDirectionStats.Recorder();
  private long submittedCount;
  private long lastEvent; // time of the last event handled: past the runtime, nothing more is ever sent

  /** @param deviceLink the link to the device (whose completions come back on port 0) */
  public IoJobs(IoJobSpec spec, int deviceLink) {
    this.spec = spec;
    this.deviceLink = deviceLink;
    this.slots = Math.multiplyExact(spec.numjobs(), spec.iodepth());
    this.submitted = new long[slots];
    this.kind = new int[slots];
    this.nextOffset = new long[spec.numjobs()];
    this.rng = new long[spec.numjobs()];
    this.nextIssue = new long[spec.numjobs()];
  }

  /** Adds fio-like jobs against a device of the assembly; returns their component id. */
  public static int place(StorageAssembly a, String name, IoJobSpec spec, StorageAssembly.Placed device) {
    int id = a.component(name, List.of(DeviceProtocol.COMPLETIONS), List.of(DeviceProtocol.REQUESTS));
    int toDevice = a.connect(id, device, 0, spec.submitNanos());
    a.setModel(id, new IoJobs(spec, toDevice));
    return id;
  }

  @Override
  public void start(Context ctx) {
    for (int j = 0; j < spec.numjobs(); j++) rng[j] = Rng.seedFor(ctx.seed(), ((long) ctx.self() << 20) + j);
    for (int slot = 0; slot < slots; slot++) submit(ctx, slot, issueAt(slot, 0));
  }

  /** When a slot freed at {@code now} issues: now, or with rate_iops the job's next scheduled issue (or now if late). */
  private long issueAt(int slot, long now) {
    long gap = spec.issueGapNanos();
    if (gap == 0) return now;
    int job = slot / spec.iodepth();
    long at = Math.max(now, nextIssue[job]);
    nextIssue[job] = at + gap;
    return at;
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    long now = ctx.now();
    lastEvent = now;
    if (ev.kind() != DeviceProtocol.DONE) throw new SimulationException("jobs: unexpected event kind " + ev.kind());
    int slot = (int) ev.a();
    if (slot < 0 || slot >= slots) throw new SimulationException("jobs: completion of no I/O (tag " + ev.a() + ")");
    if (ev.c() == DeviceProtocol.WRITE && spec.flushEachWrite()) {
      // fio's sync: the write is done when the flush that follows it is (its latency runs on)
      ctx.send(deviceLink, now + spec.submitNanos(), DeviceProtocol.FLUSH, slot, ev.b(), 0, ev.d());
      return;
    }
    if (now <= spec.runtimeNanos()) {
      long latency = now - submitted[slot];
      // a flush's DONE carries the bytes of the write it hardens (b), so the write is counted with its size
      (kind[slot] == DeviceProtocol.READ ? reads : writes).add(ev.b(), latency);
    }
    submit(ctx, slot, issueAt(slot, now));
  }

  private void submit(Context ctx, int slot, long now) {
    if (now >= spec.runtimeNanos()) return;
    int job = slot / spec.iodepth();
    long bs = spec.blockBytes();
    int readPct = spec.readPercent();
    int k = readPct == 100 ? DeviceProtocol.READ : readPct == 0 ? DeviceProtocol.WRITE
        : Rng.nextDouble(rng, job) * 100 < readPct ? DeviceProtocol.READ : DeviceProtocol.WRITE;
    long blocks = spec.sizeBytes() / bs;
    long block;
    if (spec.random()) {
      block = (long) (Rng.nextDouble(rng, job) * blocks);
    } else {
      block = nextOffset[job];
      nextOffset[job] = block + 1 == blocks ? 0 : block + 1;
    }
    long offset = spec.startBytes() + job * spec.sizeBytes() + block * bs;
    submitted[slot] = now;
    kind[slot] = k;
    submittedCount++;
    ctx.send(deviceLink, now + spec.submitNanos(), k, slot, bs, offset, job);
  }

  /**
   * A completion leads to the next submission one submit delay later, until the runtime is over (with rate_iops it may
   * be later: still a lower bound).
   */
  @Override
  public long inputDelay(int port) {
    return lastEvent >= spec.runtimeNanos() ? VirtualTime.NEVER : spec.submitNanos();
  }

  @Override
  public Object snapshot() {
    return new State(submitted.clone(), kind.clone(), nextOffset.clone(), rng.clone(), reads.freeze(),
        writes.freeze(), submittedCount, lastEvent, nextIssue.clone());
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    System.arraycopy(s.submitted(), 0, submitted, 0, slots);
    System.arraycopy(s.kind(), 0, kind, 0, slots);
    System.arraycopy(s.nextOffset(), 0, nextOffset, 0, nextOffset.length);
    System.arraycopy(s.rng(), 0, rng, 0, rng.length);
    reads.restore(s.reads());
    writes.restore(s.writes());
    submittedCount = s.submittedCount();
    lastEvent = s.lastEvent();
    if (s.nextIssue() != null) System.arraycopy(s.nextIssue(), 0, nextIssue, 0, nextIssue.length);
  }

  @Override
  public Object results() {
    return new IoJobStats(reads.freeze(), writes.freeze(), submittedCount, spec.runtimeNanos());
  }

  public record State(long[] submitted, int[] kind, long[] nextOffset, long[] rng, IoDirectionStats reads,
      IoDirectionStats writes, long submittedCount, long lastEvent, long[] nextIssue) implements CborSerializable {}
}
