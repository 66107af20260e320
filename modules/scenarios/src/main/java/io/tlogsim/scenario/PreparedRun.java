package io.tlogsim.scenario;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A scenario made ready to run: its components and links, and how to read the finished run. The kernel runs it here
 * or over a cluster (each node makes the models of the components it hosts); either way the result comes from the
 * components' results through {@link #result}.
 *
 * <p>A kind hands over how to build its run ({@code B}: whatever it needs to read the result, such as component ids)
 * and how to read it: the run is built once at once (its topology, and the models of the first start), and again for
 * every later call of {@link #models} (the build is deterministic, so the ids match).
 */
public final class PreparedRun {
  private final Object built;
  private final Supplier<?> build;
  private final Function<Object, List<SimComponent>> models;
  private final BiFunction<Object, RunOutcome, ScenarioResult> result;
  private final Topology topology;
  private boolean used;

  @SuppressWarnings("unchecked")
  private <B> PreparedRun(Supplier<B> build, Function<B, Topology> topology, Function<B, List<SimComponent>> models,
      BiFunction<B, RunOutcome, ScenarioResult> result) {
    this.build = build;
    this.built = build.get();
    this.models = (Function<Object, List<SimComponent>>) models;
    this.result = (BiFunction<Object, RunOutcome, ScenarioResult>) result;
    this.topology = topology.apply((B) built);
  }

  /**
   * A run that {@code build} makes (fresh models each call), whose topology and models {@code topology} and
   * {@code models} take from what it built, and whose result {@code result} reads from the first build and the outcome.
   */
  public static <B> PreparedRun of(Supplier<B> build, Function<B, Topology> topology,
      Function<B, List<SimComponent>> models, BiFunction<B, RunOutcome, ScenarioResult> result) {
    return new PreparedRun(build, topology, models, result);
  }

  public Topology topology() {
    return topology;
  }

  /**
   * Model objects for every component, in component-id order. Each call gives fresh objects: should a component be
   * lost, every component starts again from the last checkpoint in new ones.
   */
  public synchronized List<SimComponent> models() {
    List<SimComponent> ms = models.apply(used ? build.get() : built);
    used = true;
    return ms;
  }

  /** The summary and text of the finished run. */
  public ScenarioResult result(RunOutcome outcome) {
    return result.apply(built, outcome);
  }
}
