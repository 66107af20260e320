package io.tlogsim.database.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tlogsim.database.log.LogRig.Plan;
import io.tlogsim.database.log.LogRig.Reply;
import io.tlogsim.database.log.LogRig.Run;
import io.tlogsim.database.log.policy.GroupCommit;
import io.tlogsim.database.log.policy.MysqlCommit;
import io.tlogsim.database.log.policy.PerCommit;
import io.tlogsim.kernel.VirtualTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A branch that switches flush policy at T (run --branch --set flushPolicy=...): the log manager is restored from the
 * state another policy (or other settings of it) left at T. From T on the new policy must decide as a run that had it
 * does: none of the old policy's timers fires into it, the commits the old one held back (its pending group) are its
 * own, a periodic flusher keeps the grid a run that had it from the start has, and a resume with the same policy
 * changes nothing. On the rig of {@link FlushPolicyTest}: a write reaches the disk 1 us after it is issued and takes
 * 100 us; plan times are in us from {@link LogRig#BASE}.
 */
class PolicySwitchTest {
  private static final LogConfig ONE = LogRig.config(128, 1, Long.MAX_VALUE);

  private static long us(double v) {
    return VirtualTime.micros(v);
  }

  private static List<Long> writeTimes(Run run) {
    return run.logWrites().stream().map(LogRig.Request::time).toList();
  }

  private static List<Long> ackTimes(Run run) {
    return run.acks().stream().map(Reply::time).toList();
  }

  @Test
  void resumingWithTheSamePolicyAndSettingsChangesNothing() {
    Plan plan = new Plan().commit(0, 0, true).commit(10, 1, true).commit(300, 2, true).commit(310, 3, true);
    Run whole = LogRig.run(plan, new GroupCommit(us(200), 0), ONE, null, 2);
    Run resumed = LogRig.runSwitched(plan, new GroupCommit(us(200), 0), new GroupCommit(us(200), 0), ONE, 100, 2);
    assertEquals(List.of(us(201), us(501)), writeTimes(whole), "each group's timer 200 us after its first commit");
    assertEquals(writeTimes(whole), writeTimes(resumed), "the pending group and its timer carried over");
    assertEquals(ackTimes(whole), ackTimes(resumed));
  }

  @Test
  void onAnIdleLogTheSwitchedPolicyDoesWhatARunThatHadItDoes() {
    // by 1000 us every commit is hardened: the state at T is the same under both policies but for the policy itself
    Plan plan = new Plan().commit(0, 0, true).commit(1500, 1, true).commit(1510, 2, true).commit(1520, 3, true)
        .commit(3000, 4, true);
    Run had = LogRig.run(plan, new GroupCommit(us(50), 0), ONE, null, 5);
    Run switched = LogRig.runSwitched(plan, new PerCommit(), new GroupCommit(us(50), 0), ONE, 1000, 5);
    List<Long> after = writeTimes(had).stream().filter(t -> t > us(1000)).toList();
    assertEquals(List.of(us(1551), us(3051)), after);
    assertEquals(after, writeTimes(switched).stream().filter(t -> t > us(1000)).toList());
    assertEquals(ackTimes(had).stream().filter(t -> t > us(1000)).toList(),
        ackTimes(switched).stream().filter(t -> t > us(1000)).toList());
  }

  @Test
  void theOldPolicysPendingGroupIsTheNewPolicysAtTheFirstEventAfterT() {
    // group commit with a 500 us delay holds commits 0 and 1 at T = 100 us (its timer due at 501 us); per-commit
    // flushes what waits: at the first event after T (records of another transaction at 200 us), not never
    Plan plan = new Plan().commit(0, 0, true).commit(10, 1, true).records(200, 2, 100, 1, 0);
    Run switched = LogRig.runSwitched(plan, new GroupCommit(us(500), 0), new PerCommit(), ONE, 100, 2);
    assertEquals(List.of(us(201)), writeTimes(switched), "one write, at the switch; none at the old timer's 501 us");
    assertEquals(List.of(us(302), us(302)), ackTimes(switched));
  }

  @Test
  void otherSettingsOfTheSamePolicyAreASwitchTooAndTheOldTimerIsVoid() {
    // the group formed under a 5 ms delay is taken at the switch (200 us) by the 50 us one: flushed at 250 us; the
    // 5 ms timer the old settings set fires into nothing
    Plan plan = new Plan().commit(0, 0, true).commit(10, 1, true).records(200, 2, 100, 1, 0).commit(6000, 3, true);
    Run switched = LogRig.runSwitched(plan, new GroupCommit(us(5000), 0), new GroupCommit(us(50), 0), ONE, 100, 12);
    assertEquals(List.of(us(251), us(6051)), writeTimes(switched));
    Run kept = LogRig.runSwitched(plan, new GroupCommit(us(5000), 0), new GroupCommit(us(5000), 0), ONE, 100, 12);
    assertEquals(List.of(us(5001), us(11001)), writeTimes(kept), "unchanged settings: the group and its timer go on");
    assertNotEquals(writeTimes(kept), writeTimes(switched));
  }

  @Test
  void aPeriodicFlusherSwitchedToKeepsTheGridOfARunThatHadItFromTheStart() {
    // innodb_flush_log_at_trx_commit = 2: commits do not wait; the log is flushed once a second, at 1 s, 2 s, ...
    // (absolute simulated time). Switched to at T = 1.3 s, its next flush is at 2 s, as in the run that had it.
    Plan plan = new Plan().commit(0, 0, true).commit(1_500_000, 1, false);
    Run had = LogRig.run(plan, new MysqlCommit(2, 0, 0), ONE, null, 2500);
    Run switched = LogRig.runSwitched(plan, new PerCommit(), new MysqlCommit(2, 0, 0), ONE, 1_300_000, 2500);
    long atTwo = us(2_000_000) - LogRig.BASE + LogRig.LINK;
    assertEquals(atTwo, writeTimes(had).get(writeTimes(had).size() - 1), writeTimes(had).toString());
    assertEquals(List.of(us(1), atTwo), writeTimes(switched), "per-commit's write at 1 us, then mysql's at 2 s");
  }
}
