package io.tlogsim.cli;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.Protocol;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import java.util.List;

/**
 * A scenario kind (found through ServiceLoader, as a user's own would be) whose model fails mid-run: a real
 * simulation failing, so the command line's handling of a failed run is tested end to end.
 */
public final class FaultyKind implements ScenarioKind {
  static final Protocol PINGS = Protocol.of("pings", 1, "ping");

  @Override
  public String name() {
    return "test-faulty";
  }

  @Override
  public List<ParamSpec> params() {
    return List.of(ParamSpec.integer("failAtUs", 1, 1_000_000, "when the model fails"));
  }

  @Override
  public long endTimeNanos(Params params) {
    return VirtualTime.NS_PER_S;
  }

  @Override
  public PreparedRun prepare(String scenarioName, Params params, RunControl control) {
    Topology.Builder b = Topology.builder();
    int pinger = b.component("pinger", null, PINGS);
    int broken = b.component("broken-model", PINGS, null);
    int link = b.link(pinger, broken, 0, 1_000);
    Topology topo = b.build();
    long failAt = params.getInt("failAtUs") * 1_000L;
    return PreparedRun.of(() -> topo, t -> t, t -> List.of(new Pinger(link, failAt), new Broken()), (t, outcome) -> {
      throw new IllegalStateException("the faulty model did not fail");
    });
  }

  record Nothing() implements CborSerializable {}

  private static final class Pinger implements SimComponent {
    private final int link;
    private final long at;

    Pinger(int link, long at) {
      this.link = link;
      this.at = at;
    }

    @Override
    public void start(Context ctx) {
      ctx.send(link, Math.max(at, 1_000), 1, 0, 0);
    }

    @Override
    public void onEvent(Context ctx, Event event) {}

    @Override
    public long inputDelay(int port) {
      return VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return new Nothing();
    }

    @Override
    public void restore(Object snapshot) {}

    @Override
    public Object results() {
      return null;
    }
  }

  private static final class Broken implements SimComponent {
    @Override
    public void onEvent(Context ctx, Event event) {
      throw new IllegalStateException("index " + ctx.now() + "\nout of range");
    }

    @Override
    public long inputDelay(int port) {
      return VirtualTime.NEVER;
    }

    @Override
    public Object snapshot() {
      return new Nothing();
    }

    @Override
    public void restore(Object snapshot) {}

    @Override
    public Object results() {
      return null;
    }
  }
}
