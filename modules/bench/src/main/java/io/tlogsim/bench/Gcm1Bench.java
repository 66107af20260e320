package io.tlogsim.bench;

import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.Scenario;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** One whole GCM-1 run (0.5 simulated s) on the actor kernel, actor system start included. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class Gcm1Bench {
  @Param({"1000", "100000"})
  int sessions;

  @Param({"1", "2"})
  int threads;

  private Scenario scenario;

  @Setup
  public void load() {
    scenario = ScenarioKinds.loader().load("gcm1",
        Map.of("sessions", String.valueOf(sessions), "simulatedSeconds", "0.5"));
  }

  @Benchmark
  public Object run() {
    return scenario.run(new RunControl(42, threads, null)).summary().get("digest");
  }
}
