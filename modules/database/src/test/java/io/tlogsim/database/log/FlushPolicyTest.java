package io.tlogsim.database.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.log.LogRig.Plan;
import io.tlogsim.database.log.LogRig.Reply;
import io.tlogsim.database.log.LogRig.Run;
import io.tlogsim.database.log.policy.BufferedLog;
import io.tlogsim.database.log.policy.Db2MinCommit;
import io.tlogsim.database.log.policy.DelayedDurability;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.database.log.policy.GroupCommit;
import io.tlogsim.database.log.policy.MysqlCommit;
import io.tlogsim.database.log.policy.OracleCommit;
import io.tlogsim.database.log.policy.PerCommit;
import io.tlogsim.database.log.policy.PostgresCommit;
import io.tlogsim.database.log.policy.SessionMode;
import io.tlogsim.kernel.VirtualTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every flush policy on a rig with exact timing (a request reaches the disk 1 us after the log manager sends it, a
 * write takes 100 us, a reply reaches its session 1 us later): which commits wait, when each write is issued, when
 * each commit is acknowledged, and that no waiting commit is acknowledged before the write holding it completed.
 */
class FlushPolicyTest {
  private static final LogConfig MANY = LogRig.config(128, 32, 3840 * 1024);
  private static final LogConfig ONE = LogRig.config(128, 1, Long.MAX_VALUE);

  private static long us(double v) {
    return VirtualTime.micros(v);
  }

  private static List<Long> times(List<Reply> r) {
    return r.stream().map(Reply::time).toList();
  }

  private static List<Long> writeTimes(Run run) {
    return run.logWrites().stream().map(LogRig.Request::time).toList();
  }

  /** Every acknowledgement comes one hop after the write that hardened its commit; none before. */
  private static void acknowledgedOnlyWhenHardened(Run run) {
    for (Reply ack : run.acks()) {
      boolean afterAWrite = run.facts().stream().anyMatch(f -> f.fact() instanceof LogHardened h && h.acknowledged() > 0
          && f.time() + LogRig.HOP == ack.time());
      assertTrue(afterAWrite, "ack at " + ack.time() + " follows no write's completion by one hop");
    }
    assertEquals(run.acks().size(), run.log().writelogCount(), "every waiting commit counted as a WRITELOG wait");
  }

  @Test
  void perCommitWritesEveryWaitingCommitAtOnceAndAcknowledgesAfterItsWrite() {
    Run run = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true).commit(500, 2, true), new PerCommit(), MANY,
        null, 5);
    assertEquals(List.of(us(1), us(11), us(501)), writeTimes(run));
    assertEquals(List.of(us(102), us(112), us(602)), times(run.acks()));
    acknowledgedOnlyWhenHardened(run);
    assertEquals(0, run.log().lazyCommits());
    // a session that asked for SET BUFFERED LOG is honoured: its commit does not wait
    assertFalse(new PerCommit().waits(SessionMode.LAZY));
    assertTrue(new PerCommit().waits(SessionMode.DEFAULT) && new PerCommit().waits(SessionMode.DURABLE));
  }

  @Test
  void withOneWriteInFlightCommitsArrivingMeanwhileShareTheNextWrite() {
    Run run = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true).commit(20, 2, true).commit(30, 3, true),
        new PerCommit(), ONE, null, 5);
    // the first write carries commit 0; the three that arrived while it was in flight go in the next one
    assertEquals(List.of(us(1), us(102)), writeTimes(run));
    assertEquals(List.of(us(102), us(203), us(203), us(203)), times(run.acks()));
    acknowledgedOnlyWhenHardened(run);
  }

  @Test
  void groupCommitFlushesAfterKCommitsOrADelayAfterTheFirst() {
    GroupCommit policy = new GroupCommit(us(50), 3);
    Run run = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true).commit(20, 2, true)
        .commit(1000, 3, true).commit(1010, 4, true), policy, MANY, null, 5);
    // three commits: flushed at the third; two: flushed 50 us after the first
    assertEquals(List.of(us(21), us(1051)), writeTimes(run));
    assertEquals(List.of(us(122), us(122), us(122), us(1152), us(1152)), times(run.acks()));
    acknowledgedOnlyWhenHardened(run);
    assertEquals(0, run.log().lazyCommits(), "group commit acknowledges nothing before its flush");
  }

  @Test
  void informixBufferedWritesFullBuffersRegardlessAndALoggedCommitFlushesEverythingBeforeIt() {
    // lazy commits of a SET BUFFERED LOG session; then 70 KB of records fill a 60 KB block; then a SET LOG commit
    Run run = LogRig.run(new Plan().commit(0, 0, false).commit(10, 0, false).commit(20, 0, false)
        .records(100, 0, 1000, 70, -1).commit(500, 1, true), new BufferedLog(), MANY, null, 5);
    assertEquals(List.of(us(101), us(501)), writeTimes(run), "the full block at once, the rest with the SET LOG commit");
    assertEquals(61_440, run.logWrites().get(0).bytes(), "a full 60 KB block");
    assertEquals(List.of(us(602)), times(run.acks()), "only the logged commit is acknowledged by the log manager");
    assertEquals(3, run.log().lazyCommits());
    assertEquals(3, run.log().maxAckedNotHardened(), "three commits acknowledged and not yet hardened at once");
    assertEquals(0, run.log().ackedNotHardened(), "hardened by the end");
    assertTrue(run.hardenedAt(1) == us(201), "the first lazy commits became durable with the full block's write");
    assertTrue(new BufferedLog().waits(SessionMode.DURABLE) && !new BufferedLog().waits(SessionMode.DEFAULT));
  }

  @Test
  void delayedDurabilityHonoursTheDatabaseSettingAndSpFlushLog() {
    DelayedDurability disabled = new DelayedDurability(DelayedDurability.Setting.DISABLED);
    DelayedDurability allowed = new DelayedDurability(DelayedDurability.Setting.ALLOWED);
    DelayedDurability forced = new DelayedDurability(DelayedDurability.Setting.FORCED);
    assertTrue(disabled.waits(SessionMode.LAZY), "DISABLED ignores COMMIT WITH (DELAYED_DURABILITY = ON)");
    assertFalse(allowed.waits(SessionMode.LAZY));
    assertTrue(allowed.waits(SessionMode.DEFAULT));
    assertFalse(forced.waits(SessionMode.DEFAULT) || forced.waits(SessionMode.DURABLE));
    // two delayed commits stay in the buffer until sys.sp_flush_log; a second flush finds nothing to do
    Run run = LogRig.run(new Plan().commit(0, 0, false).commit(10, 1, false).flush(50, 2).flush(400, 2), allowed, MANY,
        null, 5);
    assertEquals(List.of(us(51)), writeTimes(run));
    List<Reply> flushed = run.replies().stream().filter(r -> r.kind() == LogProtocol.FLUSHED).toList();
    assertEquals(List.of(us(152), us(401)), times(flushed), "after its write; at once when all is hardened");
    assertEquals(2, run.log().maxAckedNotHardened());
    // a delayed-durable commit returns when its record is in the log buffer: answered as it is appended, on arrival
    List<Reply> appended = run.replies().stream().filter(r -> r.kind() == LogProtocol.APPENDED).toList();
    assertEquals(List.of(us(1), us(11)), times(appended), "one reply hop after each commit arrived");
    assertEquals(List.of(0, 1), appended.stream().map(Reply::session).toList());
    assertTrue(run.acks().isEmpty(), "no ACK: nothing waited for the write");
  }

  @Test
  void aStatementReturnsWhenItsRecordsAreAppendedAndOnlyOneThatWaitsIsAnswered() {
    // a client's statement returns once its log records are in the log buffer: LOGGED one reply hop after they are
    // appended (here as they arrive); records sent without FLAG_REPLY (a large statement's earlier chunks) are not
    // answered
    Run run = LogRig.run(new Plan().records(0, 0, 100, 5, -1).statement(10, 0, 100, 5).commit(20, 0, true, false),
        new DelayedDurability(DelayedDurability.Setting.DISABLED), MANY, null, 5);
    List<Reply> logged = run.replies().stream().filter(r -> r.kind() == LogProtocol.LOGGED).toList();
    assertEquals(List.of(us(11)), times(logged), "one reply hop after the statement's records arrived");
    assertEquals(List.of(0), logged.stream().map(Reply::session).toList());
    assertEquals(1, run.acks().size(), "its commit is acknowledged as before");
  }

  @Test
  void postgresLeaderSleepsCommitDelayOnlyWithEnoughSiblingsThenFlushesForEveryone() {
    // two open transactions; with commit_siblings = 1 the first committer sleeps 30 us and flushes both commits
    Plan two = new Plan().records(0, 0, 100, 1, -1).records(0, 1, 100, 1, -1).commit(10, 0, true, false)
        .commit(20, 1, true, false);
    Run delayed = LogRig.run(two, new PostgresCommit(true, us(30), 1, us(200_000)), ONE, null, 5);
    assertEquals(List.of(us(41)), writeTimes(delayed));
    assertEquals(List.of(us(142), us(142)), times(delayed.acks()));
    acknowledgedOnlyWhenHardened(delayed);
    // with commit_siblings = 5 nobody sleeps: the first flushes at once, the second leads the next flush
    Run eager = LogRig.run(two, new PostgresCommit(true, us(30), 5, us(200_000)), ONE, null, 5);
    assertEquals(List.of(us(11), us(112)), writeTimes(eager));
    assertEquals(List.of(us(112), us(213)), times(eager.acks()));
    // synchronous_commit = off: nothing waits; the WAL writer flushes after wal_writer_delay
    Run async = LogRig.run(new Plan().commit(10, 0, false).commit(20, 1, false), new PostgresCommit(false, 0, 5,
        us(1000)), ONE, null, 5);
    assertEquals(List.of(us(1000) - LogRig.BASE + LogRig.LINK), writeTimes(async), "the WAL writer's first wake-up");
    assertTrue(async.acks().isEmpty());
    assertFalse(new PostgresCommit(false, 0, 5, us(1000)).waits(SessionMode.DEFAULT));
    assertTrue(new PostgresCommit(false, 0, 5, us(1000)).waits(SessionMode.DURABLE), "SET synchronous_commit = on");
  }

  @Test
  void mysqlFlushesPerCommitGroupedByTheBinlogDelayOrOnceASecond() {
    Run one = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true), new MysqlCommit(1, us(40), 0), ONE, null,
        5);
    assertEquals(List.of(us(41)), writeTimes(one), "binlog_group_commit_sync_delay: 40 us after the first");
    assertEquals(List.of(us(142), us(142)), times(one.acks()));
    Run counted = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true), new MysqlCommit(1, us(40), 2), ONE,
        null, 5);
    assertEquals(List.of(us(11)), writeTimes(counted), "_no_delay_count = 2 reached at the second commit");
    for (int setting : new int[] {0, 2}) {
      FlushPolicy p = new MysqlCommit(setting, 0, 0);
      assertFalse(p.waits(SessionMode.DEFAULT), "innodb_flush_log_at_trx_commit = " + setting);
      Run lazy = LogRig.run(new Plan().commit(0, 0, false).commit(10, 1, false).close(20, 0).close(20, 1), p, ONE,
          null, 1500);
      assertEquals(List.of(us(1_000_000) - LogRig.BASE + LogRig.LINK), writeTimes(lazy), "flushed once a second");
    }
  }

  @Test
  void db2MincommitWaitsForThatManyCommitsOrOneSecond() {
    Run run = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true).commit(2000, 2, true), new Db2MinCommit(2),
        ONE, null, 2000);
    assertEquals(List.of(us(11), us(1_002_001)), writeTimes(run));
    assertEquals(List.of(us(112), us(112), us(1_002_102)), times(run.acks()));
    acknowledgedOnlyWhenHardened(run);
  }

  @Test
  void oracleImmediateWritesAtEveryCommitWaitOrNotAndBatchWaitsForItsBatch() {
    OracleCommit nowait = new OracleCommit("IMMEDIATE", "NOWAIT", us(3_000_000));
    assertFalse(nowait.waits(SessionMode.DEFAULT));
    assertTrue(nowait.waits(SessionMode.DURABLE), "a session's COMMIT WRITE WAIT is honoured");
    assertTrue(new OracleCommit("IMMEDIATE", "FORCE_WAIT", 0).waits(SessionMode.LAZY), "FORCE_WAIT overrides NOWAIT");
    Run run = LogRig.run(new Plan().commit(0, 0, false), nowait, MANY, null, 5);
    assertEquals(List.of(us(1)), writeTimes(run), "IMMEDIATE posts the log writer even for a NOWAIT commit");
    assertTrue(run.acks().isEmpty());
    Run batch = LogRig.run(new Plan().commit(0, 0, true).commit(10, 1, true),
        new OracleCommit("BATCH", "WAIT", us(500)), MANY, null, 5);
    assertEquals(List.of(us(501)), writeTimes(batch));
    assertEquals(List.of(us(602), us(602)), times(batch.acks()));
  }
}
