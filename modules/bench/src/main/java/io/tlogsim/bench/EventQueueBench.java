package io.tlogsim.bench;

import io.tlogsim.kernel.EventQueue;
import io.tlogsim.kernel.Rng;
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

/**
 * The cost of one event through a component's input queue (hold model: take the head, add one a random time
 * later), at the queue sizes GCM-1 sees: about 1,000 held events.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EventQueueBench {
  @Param({"1000", "100000"})
  int held;

  private EventQueue queue;
  private final long[] rng = {Rng.seedFor(42, 1)};
  private long seq;

  @Setup
  public void fill() {
    queue = new EventQueue();
    for (int i = 0; i < held; i++) queue.add(Rng.nextExponential(rng, 0, 1e6), seq++, 10, i, 200);
  }

  @Benchmark
  public long holdOneEvent() {
    long t = queue.headTime();
    long a = queue.headA();
    queue.removeHead();
    queue.add(t + Rng.nextExponential(rng, 0, 1e6), seq++, 10, a, 200);
    return t;
  }
}
