package io.tlogsim.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tlogsim.kernel.Clock;
import io.tlogsim.kernel.ComponentActor;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The clock asks again for components it has not heard from (a Host lost with a dying node): asked again for the same
 * incarnation, a component answers with the actor it made, not a second one; a new incarnation gets a new actor.
 */
class ComponentEntityTest {
  private static final ActorTestKit KIT = ActorTestKit.create();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static ActorRef<ComponentActor.Command> placed(TestProbe<Clock.Command> clock, long epoch) {
    Clock.Placed p = clock.expectMessageClass(Clock.Placed.class);
    assertEquals(0, p.component());
    assertEquals(epoch, p.epoch());
    return p.actor();
  }

  @Test
  void aRepeatedHostForTheSameIncarnationGetsTheSameActorAndANewIncarnationANewOne() {
    RunSubmission spec = new RunSubmission("entity-test", "gcm1", "built-in:gcm1", null,
        Map.of("sessions", "10", "simulatedSeconds", "0.01"), 42, "--seed");
    ActorRef<ComponentEntity.Command> entity = KIT.spawn(ComponentEntity.create());
    TestProbe<Clock.Command> clock = KIT.createTestProbe();

    entity.tell(new ComponentEntity.Host(spec, 0, "coordinator-a", 1, null, clock.ref()));
    ActorRef<ComponentActor.Command> first = placed(clock, 1);
    entity.tell(new ComponentEntity.Host(spec, 0, "coordinator-a", 1, null, clock.ref()));
    assertEquals(first, placed(clock, 1), "asked again: the same actor");

    entity.tell(new ComponentEntity.Host(spec, 0, "coordinator-a", 2, null, clock.ref()));
    ActorRef<ComponentActor.Command> second = placed(clock, 2);
    assertNotEquals(first, second, "a new incarnation: a new actor");
    // another coordinator (the first one's node was lost) counts its incarnations anew: epoch 2 of it is not the same
    entity.tell(new ComponentEntity.Host(spec, 0, "coordinator-b", 2, null, clock.ref()));
    assertNotEquals(second, placed(clock, 2), "another coordinator's incarnation: a new actor");
    entity.tell(new ComponentEntity.Release());
  }
}
