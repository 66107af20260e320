package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel API the domain models need, on toy models shaped like them: each keeps windows long (printed per
 * request or flush) and gives the same digest on 1, 2 and 8 threads.
 */
class ApiToysTest {

  private static RunOutcome sameOnAnyThreads(java.util.function.IntFunction<RunOutcome> run) {
    RunOutcome one = run.apply(1);
    for (int threads : new int[] {2, 8}) {
      RunOutcome other = run.apply(threads);
      assertEquals(one.digestHex(), other.digestHex(), threads + " threads");
      assertEquals(Results.of(one), Results.of(other), threads + " threads");
    }
    return one;
  }

  @Test
  void raidFanOutGathersFourCompletionsPerRequestInFewWindows() {
    RunOutcome out = sameOnAnyThreads(threads -> {
      ApiToys.Raid r = ApiToys.raid(4, 2);
      return Simulation.run(r.topology(), r.models(), RunSettings.of(200_000_000, 21, threads));
    });
    ApiToys.ClientState client = (ApiToys.ClientState) out.results().get(0);
    for (int m = 2; m < 6; m++) {
      ApiToys.MemberState member = (ApiToys.MemberState) out.results().get(m);
      assertTrue(member.served() >= client.done(), "every member served every completed request");
    }
    double perRequest = out.windows() / (double) client.done();
    System.out.printf("RAID-like fan-out: %d requests, %d windows, %.2f windows per request%n", client.done(),
        out.windows(), perRequest);
    assertTrue(client.done() > 500, "requests " + client.done());
    // A request crosses 4 hops (client, controller, members, controller, client); two requests are outstanding, so
    // their windows rarely coincide: about two windows per hop at most, against 200,000 windows of one lookahead.
    assertTrue(perRequest <= 8, "windows per request " + perRequest);
  }

  @Test
  void groupCommitTimerIsArmedCancelledAndReArmedAndPerLinkPromisesSaveWindows() {
    RunOutcome perLink = sameOnAnyThreads(threads -> {
      ApiToys.GroupCommit g = ApiToys.groupCommit(120, 30, 150_000, true);
      return Simulation.run(g.topology(), g.models(), RunSettings.of(100_000_000, 5, threads));
    });
    ApiToys.GroupCommit g = ApiToys.groupCommit(120, 30, 150_000, false);
    RunOutcome onePromise = Simulation.run(g.topology(), g.models(), RunSettings.of(100_000_000, 5, 2));
    assertEquals(perLink.digestHex(), onePromise.digestHex(), "promises change windows, never results");

    ApiToys.FlusherState f = (ApiToys.FlusherState) perLink.results().get(1);
    System.out.printf("group commit: %d flushes (%d by timer), %d timers armed, %d cancelled; %.2f windows per"
        + " flush with per-link promises, %.2f with one promise per port%n", f.flushes(), f.timerFlushes(), f.armed(),
        f.cancelled(), perLink.windows() / (double) f.flushes(), onePromise.windows() / (double) f.flushes());
    assertTrue(f.flushes() > 100, "flushes " + f.flushes());
    assertTrue(f.cancelled() > 10, "a K-flush cancels the pending timer: " + f.cancelled());
    assertTrue(f.timerFlushes() > 10, "some flushes come from the timer: " + f.timerFlushes());
    assertTrue(f.armed() >= f.cancelled() + f.timerFlushes(), "armed " + f.armed());
    assertTrue(perLink.windows() < onePromise.windows(),
        perLink.windows() + " windows with per-link promises, " + onePromise.windows() + " without");
    // Per flush the chain is flusher -> disk -> flusher -> committers -> flusher: a handful of windows, whatever the
    // number of commits in it.
    assertTrue(perLink.windows() / (double) f.flushes() <= 6, "windows per flush");
  }

  @Test
  void aGateThatFollowsTheRuleOpensAndClosesInLongWindows() {
    long[] control = {1_000_000, 3_000_000, 5_000_000, 5_500_000, 8_000_000};
    RunOutcome out = sameOnAnyThreads(threads -> {
      ApiToys.GateRun g = ApiToys.gate(true, control);
      return Simulation.run(g.topology(), g.models(), RunSettings.of(10_000_000, 8, threads));
    });
    ApiToys.GateState gate = (ApiToys.GateState) out.results().get(2);
    List<long[]> passed = ToyModels.recorded(out);
    assertEquals(gate.passed(), passed.size());
    for (long[] p : passed) {
      long t = p[0] - 2_000; // when it left the gate
      boolean open = (t >= 1_000_000 && t < 3_000_000) || (t >= 5_000_000 && t < 5_500_000) || t >= 8_000_000;
      assertTrue(open || t == 1_000_000 || t == 5_000_000 || t == 8_000_000, "left a closed gate at " + t);
    }
    System.out.printf("gate: %d data passed in %d windows (%.1f per window)%n", passed.size(), out.windows(),
        passed.size() / (double) out.windows());
    assertTrue(passed.size() > 400, "passed " + passed.size());
    assertTrue(passed.size() / (double) out.windows() > 10, "windows are long: " + out.windows());
  }

  /** The too weak reading of the contract (NEVER for data while closed) fails the run, naming the gate. */
  @Test
  void aGateThatPromisesNeverWhileClosedIsCaughtAndNamed() {
    ApiToys.GateRun g = ApiToys.gate(false, 1_000_000, 3_000_000);
    SimulationException e = assertThrows(SimulationException.class,
        () -> Simulation.run(g.topology(), g.models(), RunSettings.of(10_000_000, 8, 2)));
    assertTrue(e.getMessage().startsWith("gate broke its promise"), e.getMessage());
  }
}
