package io.tlogsim.database.readers;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.DeviceProtocol;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/** Components the readers' tests run against: a driver that sends what a test says and records replies, a disk. */
final class ReaderRig {
  private ReaderRig() {}

  static final long LINK = 1_000;

  /** An event as a component received it. */
  record Got(long time, int kind, long a, long b, long c, long d) implements CborSerializable {}

  record Gots(List<Got> got) implements CborSerializable {}

  /** Sends at start what {@code start} sends; answers what it receives with {@code answer}; records everything. */
  static final class Driver implements SimComponent {
    private final java.util.function.Consumer<Context> start;
    private final BiConsumer<Context, Event> answer;
    private List<Got> got = new ArrayList<>();

    Driver(java.util.function.Consumer<Context> start, BiConsumer<Context, Event> answer) {
      this.start = start;
      this.answer = answer;
    }

    @Override
    public void start(Context ctx) {
      start.accept(ctx);
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      got.add(new Got(ev.time(), ev.kind(), ev.a(), ev.b(), ev.c(), ev.d()));
      if (answer != null) answer.accept(ctx, ev);
    }

    @Override
    public long inputDelay(int port) {
      return answer == null ? VirtualTime.NEVER : LINK;
    }

    @Override
    public Object snapshot() {
      return new Gots(List.copyOf(got));
    }

    @Override
    public void restore(Object snapshot) {
      got = new ArrayList<>(((Gots) snapshot).got());
    }

    @Override
    public Object results() {
      return List.copyOf(got);
    }
  }

  /** One request at a time: latency + bytes / rate, in arrival order (a simple disk); records requests. */
  static final class Disk implements SimComponent {
    private final long latency;
    private final double bytesPerNano;
    private long free;
    private List<Got> got = new ArrayList<>();

    Disk(long latency, double mbPerSec) {
      this.latency = latency;
      this.bytesPerNano = mbPerSec * 1e6 / 1e9;
    }

    @Override
    public void onEvent(Context ctx, Event ev) {
      got.add(new Got(ev.time(), ev.kind(), ev.a(), ev.b(), ev.c(), ev.d()));
      long start = Math.max(ev.time(), free);
      free = start + latency + (long) Math.ceil(ev.b() / bytesPerNano);
      ctx.send(ctx.replyLink(), free, DeviceProtocol.DONE, ev.a(), ev.b(), ev.kind(), ev.d());
    }

    @Override
    public long inputDelay(int port) {
      return latency;
    }

    @Override
    public Object snapshot() {
      return new Gots(List.copyOf(got));
    }

    @Override
    public void restore(Object snapshot) {
      got = new ArrayList<>(((Gots) snapshot).got());
    }

    @Override
    public Object results() {
      return List.copyOf(got);
    }
  }
}
