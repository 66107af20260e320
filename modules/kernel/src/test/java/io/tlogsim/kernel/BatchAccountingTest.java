package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.JUnit5TestKitBuilder;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/** A component starts a window only when it holds every batch the window announced; late batches wait. */
@ExtendWith(TestKitJUnit5Extension.class)
class BatchAccountingTest {
  static {
    LoggerFactory.getILoggerFactory(); // logging up before the test kit's actor system logs
  }

  @JUnit5TestKit
  public ActorTestKit testKit = new JUnit5TestKitBuilder().build();

  @Test
  void aLateBatchIsWaitedForThenHandledInOrder() {
    Topology.Builder b = Topology.builder();
    int e = b.component("e", 0), rec = b.component("rec", 1);
    int l = b.link(e, rec, 0, 5);
    Topology topo = b.build();
    ToyModels.Recorder recorder = new ToyModels.Recorder();
    TestProbe<Clock.Command> clock = testKit.createTestProbe();
    ActorRef<ComponentActor.Command> actor =
        testKit.spawn(ComponentActor.create(new ComponentHost(rec, topo, recorder, 10_000, 1), true, clock.ref()));
    actor.tell(new ComponentActor.Wire(List.of(actor, actor)));

    // The window announces two batches; none has arrived yet.
    actor.tell(new ComponentActor.Advance(1, 100, 0, 2, false, false));
    clock.expectNoMessage(Duration.ofMillis(200));
    actor.tell(new ComponentActor.EventBatch(l, 0, new long[] {40, 10}, new int[] {3, 3}, new long[] {0, 1},
        new long[] {0, 0}));
    clock.expectNoMessage(Duration.ofMillis(200));
    // The late batch carries the earliest event: it must still come first.
    actor.tell(new ComponentActor.EventBatch(l, 2, new long[] {5, 200}, new int[] {3, 3}, new long[] {2, 3},
        new long[] {0, 0}));
    Clock.Report report = clock.expectMessageClass(Clock.Report.class);
    assertEquals(3, report.events());
    assertEquals(200, report.minEvent()); // the event at 200 is beyond the horizon: held, not dropped
    @SuppressWarnings("unchecked")
    List<long[]> seen = (List<long[]>) recorder.results();
    assertEquals(3, seen.size());
    assertArrayEquals(new long[] {5, 10, 40}, seen.stream().mapToLong(x -> x[0]).toArray());
  }
}
