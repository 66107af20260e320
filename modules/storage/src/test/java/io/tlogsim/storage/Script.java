package io.tlogsim.storage;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.VirtualTime;
import java.util.ArrayList;
import java.util.List;

/**
 * A requester that sends a fixed list of requests at given times (all sent at start, stamped with their times) and
 * records every completion: for tests that check a device's timing request by request.
 */
final class Script implements SimComponent {
  /** One request: at {@code time} (ns, > 0), of a kind, bytes, offset. Its tag is its index. */
  record Req(long time, int kind, long bytes, long offset) {}

  /** A completion: tag, time, bytes and kind echoed. */
  record Done(long tag, long time, long bytes, int kind) implements CborSerializable {}

  private final List<Req> requests;
  private final int link;
  private final List<Done> done = new ArrayList<>();

  Script(List<Req> requests, int link) {
    this.requests = requests;
    this.link = link;
  }

  @Override
  public void start(Context ctx) {
    for (int i = 0; i < requests.size(); i++) {
      Req r = requests.get(i);
      ctx.send(link, r.time(), r.kind(), i, r.bytes(), r.offset(), 0);
    }
  }

  @Override
  public void onEvent(Context ctx, Event ev) {
    done.add(new Done(ev.a(), ctx.now(), ev.b(), (int) ev.c()));
  }

  @Override
  public long inputDelay(int port) {
    return VirtualTime.NEVER; // it never answers
  }

  @Override
  public Object snapshot() {
    return new ArrayList<>(done);
  }

  @Override
  @SuppressWarnings("unchecked")
  public void restore(Object snapshot) {
    done.clear();
    done.addAll((List<Done>) snapshot);
  }

  @Override
  public Object results() {
    return List.copyOf(done);
  }

  /** Completion time of each request by tag (-1: none). */
  static long[] run(DeviceSetup setup, List<Req> requests, long endNanos) {
    StorageAssembly a = new StorageAssembly();
    StorageAssembly.Placed dev = a.device("dev", setup);
    int id = a.component("script", List.of(DeviceProtocol.COMPLETIONS), List.of(DeviceProtocol.REQUESTS));
    int link = a.connect(id, dev, 0, 1);
    a.setModel(id, new Script(requests, link));
    RunOutcome out = Simulation.run(a.topology(), a.models(), RunSettings.of(endNanos, 1, 2));
    @SuppressWarnings("unchecked")
    List<Done> got = (List<Done>) out.results().get(id);
    long[] t = new long[requests.size()];
    java.util.Arrays.fill(t, -1);
    for (Done d : got) t[(int) d.tag()] = d.time();
    return t;
  }
}
