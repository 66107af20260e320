package io.tlogsim.kinds.iobench;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.storage.StorageAssembly;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * A storage run made ready ({@link PreparedRun}): the topology of its assembly, fresh models on each call after the
 * first (the build is deterministic, so component ids match), and the result read from the first build's ids.
 */
final class AssemblyRun<M extends AssemblyRun.Built> implements PreparedRun {
  /** What a storage kind builds: an assembly and whatever ids it needs to read the result. */
  interface Built {
    StorageAssembly assembly();
  }

  private final M first;
  private final Supplier<M> again;
  private final BiFunction<M, RunOutcome, ScenarioResult> read;
  private final Topology topology;
  private boolean used;

  AssemblyRun(Supplier<M> build, BiFunction<M, RunOutcome, ScenarioResult> read) {
    this.first = build.get();
    this.again = build;
    this.read = read;
    this.topology = first.assembly().topology();
  }

  @Override
  public Topology topology() {
    return topology;
  }

  @Override
  public List<SimComponent> models() {
    List<SimComponent> ms = used ? again.get().assembly().models() : first.assembly().models();
    used = true;
    return ms;
  }

  @Override
  public ScenarioResult result(RunOutcome outcome) {
    return read.apply(first, outcome);
  }
}
