package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.JUnit5TestKitBuilder;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * A component starts a window only when it holds every batch of earlier windows; a late batch is waited for; a batch
 * of the window itself (from a component woken earlier in it) is set aside, out of the window's checkpoint.
 */
@ExtendWith(TestKitJUnit5Extension.class)
class BatchAccountingTest {
  static {
    LoggerFactory.getILoggerFactory(); // logging up before the test kit's actor system logs
  }

  @JUnit5TestKit
  public ActorTestKit testKit = new JUnit5TestKitBuilder().build();

  private static EventBatch batch(long window, int link, long firstSeq, long... times) {
    int n = times.length;
    long[] a = new long[n];
    for (int i = 0; i < n; i++) a[i] = firstSeq + i;
    int[] kind = new int[n];
    java.util.Arrays.fill(kind, ToyModels.NOTE);
    return new EventBatch(window, link, firstSeq, times, kind, a, new long[n], null, null, null);
  }

  @Test
  void batchesOfEarlierWindowsAreWaitedForAndBatchesOfTheWindowWaitForTheNext() {
    Topology.Builder b = Topology.builder();
    int e = ToyModels.toy(b, "e", 0), rec = ToyModels.toy(b, "rec", 1);
    int l = b.link(e, rec, 0, 5);
    Topology topo = b.build();
    ToyModels.Recorder recorder = new ToyModels.Recorder();
    TestProbe<Clock.Command> clock = testKit.createTestProbe();
    ActorRef<ComponentActor.Command> actor = testKit.spawn(ComponentActor.create(
        new ComponentHost(rec, topo, recorder, 10_000, 1, false), clock.ref()));
    actor.tell(new ComponentActor.Wire(List.of(actor, actor)));

    // Window 3 needs two batches of earlier windows; a batch of window 3 itself arrives first and must not count.
    actor.tell(batch(3, l, 3, 700)); // sent in window 3: beyond the receiver's horizon of window 3
    actor.tell(new ComponentActor.Advance(3, 100, new long[0], 2, true));
    clock.expectNoMessage(Duration.ofMillis(200));
    actor.tell(batch(1, l, 0, 40, 60));
    clock.expectNoMessage(Duration.ofMillis(200));
    // The late batch carries the earliest event: it must still come first.
    actor.tell(batch(2, l, 2, 5));
    Clock.Report report = clock.expectMessageClass(Clock.Report.class);
    assertEquals(3, report.events());
    assertEquals(VirtualTime.NEVER, report.promise().minEvent(), "the window-3 batch is set aside, not taken in");
    ComponentState cut = report.snapshot();
    assertArrayEquals(new long[] {3}, cut.inSeq(), "the checkpoint holds the three earlier events, not the fourth");
    assertEquals(3, cut.queue().runs().stream().mapToInt(EventBatch::size).sum());
    assertArrayEquals(new long[] {5, 40, 60},
        ((ToyModels.RecorderState) recorder.results()).list().stream().mapToLong(x -> x[0]).toArray());

    // Window 4 takes the set-aside batch in.
    assertEquals(700, report.promise().held().length == 0 ? 700 : -1);
    actor.tell(new ComponentActor.Advance(4, 1_000, new long[0], 3, false));
    Clock.Report next = clock.expectMessageClass(Clock.Report.class);
    assertEquals(4, next.events());
    assertNull(next.snapshot());
  }
}
