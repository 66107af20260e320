package io.tlogsim.database.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.log.LogProtocol;
import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Rng;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL's WALWriteLock in the session pool (xlog.c XLogFlush, lwlock.c): driven event by event, with the log
 * manager played by the test (it answers each FLUSH when told, acknowledging the commits it says).
 */
class WalWriteLockTest {
  static final long US = 1_000;
  static final long HOP = US;
  // host costs (ns): wake and sleep across cores, the same on one core, idle wake, 8 kB write, fdatasync
  static final HostCosts COSTS = new HostCosts(10 * US, 20 * US, 2 * US, 1 * US, 5 * US, 15 * US, 60 * US);

  /** A pool of sessions around the lock: its timers run in time order; what it sends and who is done is kept. */
  static final class Rig {
    final HostCpu cpu;
    final WaitCharger charger;
    final WalWriteLock lock;
    final boolean[] inStatement;
    final List<long[]> flushes = new ArrayList<>(); // {time at the log manager, session}
    final List<long[]> done = new ArrayList<>(); // {time, session}
    final PriorityQueue<long[]> timers = new PriorityQueue<>(
        Comparator.<long[]>comparingLong(t -> t[0]).thenComparingLong(t -> t[4])); // time, kind, a, b, seq
    long seq;
    long now;
    final Context ctx = new Context() {
      public int self() {
        return 0;
      }

      public long now() {
        return now;
      }

      public long endTime() {
        return Long.MAX_VALUE;
      }

      public long seed() {
        return 1;
      }

      public Rng rng() {
        throw new UnsupportedOperationException();
      }

      public int linkTo(int component) {
        return 0;
      }

      public int replyLink() {
        return 0;
      }

      public void send(int link, long time, int kind, long a, long b) {
        assertEquals(LogProtocol.FLUSH, kind, "the lock sends only FLUSH");
        assertTrue(time >= now + HOP, "a send leaves at least one hop later");
        flushes.add(new long[] {time, a});
      }

      public void send(int link, long time, int kind, long a, long b, long c, long d) {
        throw new UnsupportedOperationException();
      }

      public void send(int link, long time, int kind, long a, long b, long c, long d, Object payload) {
        throw new UnsupportedOperationException();
      }

      public long schedule(long time, int kind, long a, long b) {
        assertTrue(time >= now, "no timer in the past");
        timers.add(new long[] {time, kind, a, b, seq++});
        return seq;
      }

      public long schedule(long time, int kind, long a, long b, long c, long d, Object payload) {
        throw new UnsupportedOperationException();
      }

      public boolean cancel(long timer) {
        throw new UnsupportedOperationException();
      }

      public void record(Object fact) {}

      public int crash() {
        throw new UnsupportedOperationException();
      }

      public String name(int component) {
        return "pool";
      }
    };

    Rig(int sessions, int cores, long commitDelayNanos, int commitSiblings) {
      this(sessions, cores, commitDelayNanos, commitSiblings, COSTS);
    }

    Rig(int sessions, int cores, long commitDelayNanos, int commitSiblings, HostCosts costs) {
      cpu = new HostCpu(cores);
      charger = new WaitCharger(sessions, costs, FlushPolicy.Flusher.SESSION);
      inStatement = new boolean[sessions];
      lock = new WalWriteLock(sessions, costs, charger, commitDelayNanos, commitSiblings, 0, HOP, 0,
          j -> inStatement[j], (c, i, at) -> done.add(new long[] {at, i}));
    }

    /** Session i's commit CPU runs from {@code at}; it enters XLogFlush when that ends. */
    void commit(int i, long at, long cpuNanos) {
      now = at;
      long end = cpu.run(at, cpuNanos);
      charger.ranOn(i, cpu.lastCore());
      lock.commit(ctx, i, end);
    }

    /** Runs the pool's timers up to {@code until} (inclusive). */
    void runTo(long until) {
      while (!timers.isEmpty() && timers.peek()[0] <= until) {
        long[] t = timers.poll();
        now = t[0];
        if (t[1] == SessionPool.WAL_LOCK) lock.timer(ctx, cpu, (int) t[2], now, t[3]);
        else if (t[1] == SessionPool.WOKEN) lock.woken(ctx, cpu, (int) t[2], now, t[3]);
        else throw new AssertionError("timer kind " + t[1]);
      }
      now = Math.max(now, until);
    }

    /** The log manager hardens the holder's flush at {@code at}: ACKs for {@code acked}, then FLUSHED (one page). */
    void harden(long at, int holder, int... acked) {
      runTo(at);
      for (int i : acked) lock.acked(i);
      assertTrue(lock.flushing(holder), "session " + holder + " waits for its flush");
      lock.flushed(ctx, cpu, holder, at, LogProtocol.ackDetails(0, 0, 1));
    }

    long count(int k) {
      return charger.counts()[k];
    }

    boolean isDone(int i) {
      return done.stream().anyMatch(d -> d[1] == i);
    }
  }

  /** The WOKEN timer the last wake scheduled: {time, kind, session, code}. */
  private static long[] lastWoken(Rig r) {
    return r.timers.stream().filter(t -> t[1] == SessionPool.WOKEN).max(Comparator.comparingLong(t -> t[4]))
        .orElseThrow();
  }

  @Test
  void aSleeperWokenOntoItsBusyLastCorePaysTheCrossCoreWakeWhereverItRuns() {
    // 4.2: a waker of many wakes a sleeper where Linux puts it (fair.c wake_wide: its previous core); without
    // busy-core figures a wake onto a busy core costs as much as onto an idle one
    Rig r = new Rig(2, 2, 0, 5);
    r.charger.ranOn(1, 1);
    r.cpu.runOn(1, 0, 100 * US); // session 1's last core is busy until 100 us
    r.now = 10 * US;
    long end = r.charger.wake(r.ctx, r.cpu, 1, 0, 10 * US); // the waker runs on core 0
    assertEquals(20 * US, end, "a cross-core wake call: 10 us on the waker's core");
    long[] woken = lastWoken(r);
    assertEquals(WaitCharger.QUEUED, woken[3] & 0xF, "no idle core: queued on its last core");
    r.now = woken[0];
    long resumed = r.charger.resume(r.cpu, 1, woken[0], woken[3]);
    assertEquals(40 * US, resumed, "core 0 is free first and takes it, but its sleep costs the cross-core 20 us");
    assertEquals(0, r.charger.lastCore(1));
    assertEquals(20 * US, r.count(WaitCharger.SLEEP_NS));
  }

  @Test
  void aWakeOntoABusyCoreCostsTheBusyCoreFiguresAndOntoAnIdleOneTheOthers() {
    // calibrate-host's futexWakeBusyCoreCallCpu and futexBusyCoreSleepCpu (here 30 and 25 us): the wake of a sleeper
    // whose last core runs something else
    HostCosts busy = new HostCosts(10 * US, 20 * US, 2 * US, 1 * US, 5 * US, 15 * US, 60 * US, 30 * US, 25 * US);
    Rig r = new Rig(2, 2, 0, 5, busy);
    r.charger.ranOn(1, 1);
    r.cpu.runOn(1, 0, 100 * US); // session 1's last core is busy until 100 us
    long end = r.charger.wake(r.ctx, r.cpu, 1, 0, 10 * US);
    assertEquals(40 * US, end, "the busy-core wake call: 30 us on the waker's core");
    long[] woken = lastWoken(r);
    assertEquals(WaitCharger.QUEUED_BUSY, woken[3] & 0xF);
    long resumed = r.charger.resume(r.cpu, 1, woken[0], woken[3]);
    assertEquals(65 * US, resumed, "core 0 is free first (at 40 us) and takes it: the busy-core sleep, 25 us");
    assertEquals(25 * US, r.count(WaitCharger.SLEEP_NS));
    // its last core idle: the idle figures, whatever the busy ones
    Rig idle = new Rig(2, 2, 0, 5, busy);
    idle.charger.ranOn(1, 1);
    assertEquals(10 * US, idle.charger.wake(idle.ctx, idle.cpu, 1, 0, 0), "a cross-core wake call onto an idle core");
    assertEquals(WaitCharger.IDLE, lastWoken(idle)[3] & 0xF);
    // its last core the waker's: the same-core figures
    Rig same = new Rig(2, 2, 0, 5, busy);
    same.charger.ranOn(1, 0);
    same.cpu.runOn(1, 0, 100 * US);
    assertEquals(2 * US, same.charger.wake(same.ctx, same.cpu, 1, 0, 0), "a same-core wake call");
    assertEquals(WaitCharger.QUEUED, lastWoken(same)[3] & 0xF);
  }

  @Test
  void aSleeperWhoseLastCoreIsTheWakersPaysTheSameCoreFigures() {
    Rig r = new Rig(2, 2, 0, 5);
    r.charger.ranOn(1, 0);
    r.cpu.runOn(1, 0, 100 * US); // the other core is busy: no idle core
    long end = r.charger.wake(r.ctx, r.cpu, 1, 0, 0);
    assertEquals(2 * US, end, "a same-core wake call");
    long[] woken = lastWoken(r);
    long resumed = r.charger.resume(r.cpu, 1, woken[0], woken[3]);
    assertEquals(3 * US, resumed, "a same-core sleep (1 us) on the waker's core once its wake call is done");
  }

  @Test
  void aSleeperGoesToItsOwnLastCoreWhenThatIsIdle() {
    Rig r = new Rig(2, 3, 0, 5);
    r.charger.ranOn(1, 2); // cores 1 and 2 are idle; the waker is on 0
    r.charger.wake(r.ctx, r.cpu, 1, 0, 0);
    long[] woken = lastWoken(r);
    assertEquals(WaitCharger.IDLE, woken[3] & 0xF);
    assertEquals(2, (woken[3] >>> 4) - 1, "its own idle core, not the lowest-numbered idle one");
    assertEquals(10 * US + 5 * US, woken[0], "the wake call, then the idle core's wake-up delay");
  }

  @Test
  void aCoreAWakeUpIsOnItsWayToIsNotIdleToOtherWork() {
    // Linux's idle_cpu() is false for a core with a wake-up pending: work that starts between the wake call and the
    // sleeper's resume goes to another idle core, and the sleeper resumes at once (no wait behind that work)
    Rig r = new Rig(2, 2, 0, 5);
    r.charger.ranOn(1, 1); // the sleeper last ran on core 1; the waker is on core 0
    long end = r.charger.wake(r.ctx, r.cpu, 1, 0, 0);
    long[] woken = lastWoken(r);
    assertEquals(1, (woken[3] >>> 4) - 1, "woken onto its idle last core");
    assertEquals(end + 5 * US, woken[0], "after the idle core's wake-up delay");
    assertEquals(woken[0] + 20 * US, r.cpu.freeAt(1), "the core is taken until the sleeper has run there");
    r.cpu.run(end + 1 * US, 50 * US); // another session's work, booked while the wake-up is on its way
    assertEquals(0, r.cpu.lastCore(), "it ran on the waker's core, now free, not on the sleeper's");
    long resumed = r.charger.resume(r.cpu, 1, woken[0], woken[3]);
    assertEquals(woken[0] + 20 * US, resumed, "the sleeper resumes on its core at once: the cross-core sleep only");
    assertEquals(0, r.cpu.waits(), "nobody waited for a core");
  }

  @Test
  void aSleeperWokenOntoAnIdleCoreRunsThereBeforeWorkBookedAfterItsWake() {
    // the waker's core stays busy past the wake-up (a long chain): work booked meanwhile gets the core free first,
    // the sleeper's; it runs there after the sleeper, which Linux runs first (its wake-up was queued there first)
    Rig r = new Rig(2, 2, 0, 5);
    r.charger.ranOn(1, 1);
    long end = r.charger.wake(r.ctx, r.cpu, 1, 0, 0);
    r.cpu.runOn(0, end, 500 * US); // the waker goes on waking others
    long[] woken = lastWoken(r);
    long other = r.cpu.run(end + 1 * US, 50 * US); // another session's next transaction
    assertEquals(1, r.cpu.lastCore(), "the core free first is the sleeper's");
    assertEquals(woken[0] + 20 * US + 50 * US, other, "it runs after the sleeper's resume");
    long resumed = r.charger.resume(r.cpu, 1, woken[0], woken[3]);
    assertEquals(woken[0] + 20 * US, resumed, "the sleeper resumes as soon as it is due, not behind that work");
    assertEquals(1, r.cpu.waits(), "the work that came later waited for the core, the sleeper did not");
    assertEquals(1, r.count(WaitCharger.SLEEPS), "one resume counted");
    assertEquals(20 * US, r.count(WaitCharger.SLEEP_NS), "its cross-core sleep, once");
    assertEquals((10 + 500 + 20 + 50) * US, r.cpu.busyNanos(), "wake call, waker's work, sleep, other work: once each");
  }

  @Test
  void aSleepBookedAtItsWakeSurvivesACheckpointBeforeItsResume() {
    // a run resumed from a checkpoint taken between the wake and the resume neither loses nor books the sleep again
    Rig r = new Rig(2, 2, 0, 5);
    r.charger.ranOn(1, 1);
    r.charger.wake(r.ctx, r.cpu, 1, 0, 0);
    long[] woken = lastWoken(r);
    Rig resumed = new Rig(2, 2, 0, 5);
    resumed.cpu.restore(r.cpu.snapshot());
    resumed.charger.restore(r.charger.snapshot());
    long here = r.charger.resume(r.cpu, 1, woken[0], woken[3]);
    long there = resumed.charger.resume(resumed.cpu, 1, woken[0], woken[3]);
    assertEquals(here, there, "the same resume");
    assertEquals(r.cpu.freeAt(1), resumed.cpu.freeAt(1), "the core booked as far, once");
    assertEquals(r.cpu.busyNanos(), resumed.cpu.busyNanos());
  }

  @Test
  void oneFlusherAtATimeTheOthersSleepOnTheLock() {
    Rig r = new Rig(3, 2, 0, 5);
    r.commit(0, 0, 10 * US);
    r.commit(1, 0, 10 * US);
    r.commit(2, 15 * US, 10 * US);
    r.runTo(100 * US);
    assertEquals(1, r.flushes.size(), "one FLUSH: the first to enter holds the lock");
    assertEquals(0, r.flushes.get(0)[1]);
    assertEquals(10 * US + HOP, r.flushes.get(0)[0], "sent when its commit CPU ended, one hop on");
    assertEquals(0, r.lock.holder());
    assertEquals(2, r.lock.sleeping(), "sessions 1 and 2 found it held and sleep");
    assertTrue(r.done.isEmpty());
  }

  @Test
  void aReleaseWakesEverySleeperNewestFirstAndTheFlushedReturn() {
    Rig r = new Rig(3, 2, 0, 5);
    r.commit(0, 0, 10 * US);
    r.commit(1, 0, 10 * US);
    r.commit(2, 15 * US, 10 * US);
    r.runTo(100 * US);
    // the flush held 0's and 1's commits (1 inserted before 0's FLUSH reached the log manager), not 2's
    r.harden(200 * US, 0, 0, 1);
    assertEquals(-1, r.lock.holder(), "released");
    assertEquals(0, r.lock.sleeping(), "every sleeper is woken");
    assertEquals(2, r.count(0), "two wake calls");
    assertEquals(1, r.count(2), "one flush charged");
    assertEquals(COSTS.flushCpuNanos(1), r.count(5));
    List<long[]> wakes = r.timers.stream().filter(t -> t[1] == SessionPool.WOKEN).sorted(
        Comparator.comparingLong(t -> t[0])).toList();
    assertEquals(List.of(2L, 1L, 0L), wakes.stream().map(t -> t[2]).toList(),
        "2 (the newest sleeper) first, then 1, then the holder once its wake calls are done");
    r.runTo(1_000 * US);
    assertTrue(r.isDone(0) && r.isDone(1), "the flushed commits are done");
    assertEquals(2, r.lock.holder(), "2's commit was not flushed: woken first, it takes the lock");
    assertEquals(2, r.flushes.size());
    assertEquals(0, r.count(WaitCharger.SECOND_SLEEPS));
  }

  @Test
  void aWokenSessionWhoseCommitIsNotFlushedSleepsAgainAndIsCounted() {
    Rig r = new Rig(4, 2, 0, 5);
    r.commit(0, 0, 10 * US);
    r.commit(1, 20 * US, 10 * US);
    r.commit(2, 30 * US, 10 * US);
    r.commit(3, 40 * US, 10 * US);
    r.runTo(100 * US);
    assertEquals(3, r.lock.sleeping());
    r.harden(200 * US, 0, 0); // 1, 2 and 3 entered after 0's FLUSH left: not in it
    r.runTo(1_000 * US);
    // the first of them to resume took the lock. Their last cores: 1 and 3 on core 1, 2 on core 0 (the waker's). 3
    // was woken first, onto its idle core 1; 2, woken next, is queued on its own core 0, busy with the wake calls,
    // and taken by core 1 before 3's wake-up delay is over (4.2: a core booked before the sleeper's wake reaches it),
    // in a same-core sleep (1 us): it resumes first; 1, woken last, is queued on its core 1 (a cross-core wake: its
    // sleep costs the cross-core 20 us wherever it runs) and resumes after 2; 1 and 3 find the lock held and sleep
    // again
    int next = r.lock.holder();
    assertEquals(2, next, "the first of the unflushed to resume holds the lock");
    assertEquals(2, r.lock.sleeping());
    assertEquals(2, r.count(WaitCharger.SECOND_SLEEPS));
    assertEquals(2, r.flushes.size());
    r.harden(1_100 * US, next, 1, 2, 3); // the second flush holds all three
    r.runTo(2_000 * US);
    assertTrue(r.isDone(1) && r.isDone(2) && r.isDone(3));
    assertEquals(-1, r.lock.holder());
    assertEquals(2, r.count(WaitCharger.SECOND_SLEEPS), "done after the second wake: no third sleep");
    assertEquals(3 + 2, r.count(0), "a wake per sleep: 3 first sleeps, 2 second");
    assertEquals(r.count(0), r.count(6), "every woken session resumed (its sleep charged)");
  }

  @Test
  void commitDelayOnlyWithAtLeastCommitSiblingsOthersInATransaction() {
    long delay = 50 * US;
    // one other session in a statement: fewer than commit_siblings = 2, the holder flushes at once
    Rig few = new Rig(4, 2, delay, 2);
    few.inStatement[1] = true;
    few.commit(0, 0, 10 * US);
    few.runTo(10 * US);
    assertEquals(1, few.flushes.size(), "flushed without commit_delay");
    assertEquals(10 * US + HOP, few.flushes.get(0)[0]);
    assertEquals(0, few.count(WaitCharger.COMMIT_DELAYS));
    // a statement under way and another commit: 2 others in a transaction, the holder sleeps commit_delay first
    Rig enough = new Rig(4, 2, delay, 2);
    enough.inStatement[1] = true;
    enough.commit(0, 0, 10 * US);
    enough.commit(2, 0, 30 * US); // on the other core, committing until its commit is done
    enough.runTo(10 * US);
    assertEquals(0, enough.flushes.size(), "the holder sleeps commit_delay");
    assertEquals(1, enough.count(WaitCharger.COMMIT_DELAYS));
    enough.runTo(200 * US);
    assertEquals(1, enough.flushes.size());
    // woken by its timer on its core, idle by then: the idle wake, then the sleep's CPU
    assertEquals(10 * US + delay + COSTS.idleWakeNanos() + COSTS.sleepNanos() + HOP, enough.flushes.get(0)[0]);
    assertEquals(1, enough.lock.sleeping(), "2 entered during the delay and sleeps on the lock");
    assertEquals(0, enough.lock.holder());
    // sessions thinking between transactions do not count
    Rig thinking = new Rig(4, 2, delay, 1);
    thinking.commit(0, 0, 10 * US);
    thinking.runTo(10 * US);
    assertEquals(1, thinking.flushes.size(), "nobody else in a transaction: no delay even with commit_siblings = 1");
  }
}
