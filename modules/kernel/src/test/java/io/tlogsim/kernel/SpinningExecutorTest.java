package io.tlogsim.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The run dispatcher's executor: every task runs, on exactly its threads, which park once idle past the spin. */
class SpinningExecutorTest {
  private static final long SPIN = TimeUnit.MICROSECONDS.toNanos(100);

  private static SpinningExecutor executor(int threads, String id) {
    return new SpinningExecutor(threads, SPIN, r -> {
      Thread t = new Thread(r, id);
      t.setDaemon(true);
      return t;
    }, BusyMeter.of(id));
  }

  @Test
  void everyTaskRunsOnTheExecutorsThreadsAlone() throws Exception {
    SpinningExecutor ex = executor(3, "spin-test-every");
    Set<Thread> ran = ConcurrentHashMap.newKeySet();
    int tasks = 200_000;
    CountDownLatch done = new CountDownLatch(tasks);
    AtomicInteger chained = new AtomicInteger();
    // Tasks sent from outside and from the executor's own threads (as actors tell each other), in bursts and alone,
    // with pauses past the spin so that threads park and must be woken: a lost wake-up would hang the latch.
    for (int i = 0; i < tasks / 2; i++) {
      ex.execute(() -> {
        ran.add(Thread.currentThread());
        ex.execute(() -> {
          chained.incrementAndGet();
          done.countDown();
        });
        done.countDown();
      });
      if (i % 10_000 == 0) Thread.sleep(1);
    }
    assertTrue(done.await(60, TimeUnit.SECONDS), "every task ran: " + done.getCount() + " left");
    assertEquals(tasks / 2, chained.get());
    assertTrue(ran.size() <= 3, "no more threads than asked: " + ran);
    ex.shutdown();
    assertTrue(ex.awaitTermination(10, TimeUnit.SECONDS));
    assertThrows(RejectedExecutionException.class, () -> ex.execute(() -> {}));
  }

  @Test
  void idleThreadsParkAndSpinningIsNotBusy() throws Exception {
    SpinningExecutor ex = executor(2, "spin-test-park");
    CountDownLatch ran = new CountDownLatch(2);
    for (int i = 0; i < 2; i++) {
      ex.execute(() -> {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        while (System.nanoTime() < end) Thread.onSpinWait(); // 20 ms of work
        ran.countDown();
      });
    }
    assertTrue(ran.await(10, TimeUnit.SECONDS));
    Thread.sleep(50); // both tasks' times are added once they return
    Map<Thread, Long> before = BusyMeter.of("spin-test-park").snapshot();
    Thread.sleep(200); // far past the spin: both threads parked, no CPU burnt between runs
    Map<Thread, Long> after = BusyMeter.of("spin-test-park").snapshot();
    for (Thread t : after.keySet()) assertEquals(Thread.State.WAITING, t.getState(), "parked: " + t);
    assertEquals(before, after, "waiting for work, spinning included, is not busy");
    long total = after.values().stream().mapToLong(Long::longValue).sum();
    assertTrue(total >= TimeUnit.MILLISECONDS.toNanos(40), "the tasks' time is busy: " + after);
    ex.shutdown();
    assertTrue(ex.awaitTermination(10, TimeUnit.SECONDS));
    assertTrue(ex.isTerminated());
  }
}
