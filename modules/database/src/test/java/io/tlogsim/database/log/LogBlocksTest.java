package io.tlogsim.database.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.data.DataConfig;
import io.tlogsim.database.log.LogRig.Plan;
import io.tlogsim.database.log.LogRig.Request;
import io.tlogsim.database.log.LogRig.Run;
import io.tlogsim.database.log.policy.PerCommit;
import io.tlogsim.kernel.VirtualTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The log manager's own mechanisms, whatever the policy: the outstanding-write limit (count and bytes), log buffers
 * (records wait when none is free), pages and padding, checkpoints (log first, then the dirty pages in page order)
 * and the lazy writer (only pages whose log is hardened).
 */
class LogBlocksTest {
  private static long us(double v) {
    return VirtualTime.micros(v);
  }

  private static Plan tenCommits() {
    Plan p = new Plan();
    for (int i = 0; i < 10; i++) p.commit(i, i, true);
    return p;
  }

  @Test
  void theOutstandingWriteCountHoldsWritesBackAndTheNextWriteTakesWhatArrivedMeanwhile() {
    Run run = LogRig.run(tenCommits(), new PerCommit(), LogRig.config(128, 2, Long.MAX_VALUE), null, 5);
    // commits 0 and 1 each get a write; 2..9 arrive while both are in flight and share the third
    assertEquals(List.of(us(1), us(2), us(102)), run.logWrites().stream().map(Request::time).toList());
    assertEquals(2, run.maxLogWritesInFlight());
    assertEquals(10, run.acks().size());
    assertEquals(3, run.log().writes());
  }

  @Test
  void theOutstandingKilobytesHoldWritesBackToo() {
    // a commit's write is one 512 B page; 512 B in flight allow one write at a time
    Run run = LogRig.run(tenCommits(), new PerCommit(), LogRig.config(128, 32, 512), null, 5);
    assertEquals(List.of(us(1), us(102)), run.logWrites().stream().map(Request::time).toList());
    assertEquals(1, run.maxLogWritesInFlight());
    // with room for 32 writes, each commit has its own
    Run free = LogRig.run(tenCommits(), new PerCommit(), LogRig.config(128, 32, 1 << 20), null, 5);
    assertEquals(10, free.log().writes());
    assertEquals(10, free.maxLogWritesInFlight());
  }

  @Test
  void recordsWaitForAFreeLogBufferAndCountAsLogbufferWaits() {
    // 200 records of 1,000 B fill three 60 KB blocks at once; two buffers hold two, the rest waits for a write
    Run run = LogRig.run(new Plan().records(0, 0, 1000, 200, -1).commit(1, 0, true, false), new PerCommit(),
        LogRig.config(2, 32, Long.MAX_VALUE), null, 5);
    List<Request> w = run.logWrites();
    assertEquals(us(1), w.get(0).time(), "the two full buffers are written at once");
    assertEquals(us(1), w.get(1).time());
    assertTrue(w.get(2).time() >= us(101), "the next waits until a buffer is free: " + w.get(2).time());
    assertEquals(2, run.log().logBufferWaits(), "the records' request waited, and the commit queued behind it");
    assertTrue(run.log().logBufferWaitNanos() >= us(100), "about one write: " + run.log().logBufferWaitNanos());
    assertEquals(201, run.log().records(), "every record logged in the end, and the commit");
    // with 128 buffers nothing waits: two full blocks at once
    Run roomy = LogRig.run(new Plan().records(0, 0, 1000, 200, -1).commit(1, 0, true, false), new PerCommit(),
        LogRig.config(128, 32, Long.MAX_VALUE), null, 5);
    assertEquals(0, roomy.log().logBufferWaits());
    assertEquals(List.of(us(1), us(1), us(1), us(2)), roomy.logWrites().stream().map(Request::time).toList());
  }

  @Test
  void aFlushClosesItsPageAndWritesWholePagesAtSequentialOffsets() {
    Run run = LogRig.run(new Plan().commit(0, 0, true).commit(500, 1, true).commit(1000, 2, true), new PerCommit(),
        LogRig.config(128, 32, Long.MAX_VALUE), null, 5);
    List<Request> w = run.logWrites();
    assertEquals(List.of(0L, 512L, 1024L), w.stream().map(Request::offset).toList(), "each commit on a new sector");
    assertTrue(w.stream().allMatch(r -> r.bytes() == 512));
    assertEquals(3, run.log().pages());
    assertEquals(300, run.log().recordBytes());
  }

  @Test
  void aCheckpointHardensItsRecordThenWritesEveryDirtyPageInPageOrder() {
    // 1,000 rows of 10 per page: 100 pages dirty after the records; a checkpoint at 300 us
    DataConfig data = DataConfig.builder().fileId(1).name("data").baseOffset(1L << 30).pageBytes(8192).pages(100)
        .rowsPerPage(10).maxOutstandingWrites(8).build();
    Run run = LogRig.run(new Plan().records(0, 0, 100, 1000, 0).commit(10, 0, true, false).checkpoint(300, 1),
        new PerCommit(), LogRig.config(128, 32, Long.MAX_VALUE), data, 10);
    List<Request> pages = run.writes().stream().filter(r -> r.tag() >= LogManager.DATA_TAGS).toList();
    assertEquals(100, pages.size());
    long logHardened = run.hardenedAt(run.log().recordBytes());
    assertTrue(pages.stream().allMatch(p -> p.time() > logHardened), "write-ahead logging: log first");
    for (int i = 1; i < pages.size(); i++) assertTrue(pages.get(i).offset() > pages.get(i - 1).offset(), "page order");
    assertEquals((1L << 30) + 99 * 8192, pages.get(99).offset());
    long lastPage = pages.get(pages.size() - 1).time() + LogRig.DISK;
    List<LogRig.Reply> done = run.replies().stream().filter(r -> r.kind() == LogProtocol.CHECKPOINTED).toList();
    assertEquals(1, done.size());
    assertEquals(lastPage + LogRig.HOP, done.get(0).time(), "the checkpoint completes with its last page write");
    assertEquals(0, run.log().data().dirtyPagesAtEnd());
    assertEquals(100, run.log().data().checkpointWrites());
    assertEquals(1, run.log().checkpoints());
    // at most 8 data writes in flight
    for (Request p : pages) {
      long inFlight = pages.stream().filter(o -> o.time() <= p.time() && o.time() + LogRig.DISK > p.time()).count();
      assertTrue(inFlight <= 8, "in flight " + inFlight);
    }
  }

  @Test
  void theLazyWriterWritesOnlyPagesWhoseLogIsHardened() {
    // the lazy writer wakes every 1 ms, writes up to 5 pages while more than 10 are dirty
    DataConfig data = DataConfig.builder().fileId(1).name("data").pageBytes(8192).pages(100).rowsPerPage(10)
        .lazyWriterIntervalNanos(us(1000)).lazyWriterThresholdPages(10).lazyWriterPagesPerRun(5).maxOutstandingWrites(8)
        .build();
    // rows 0..499 (50 pages) logged at 0 but not hardened until the commit at 1,500 us
    Run run = LogRig.run(new Plan().records(0, 0, 100, 500, 0).commit(1500, 0, true, false).close(1600, 0),
        new PerCommit(), LogRig.config(128, 32, Long.MAX_VALUE), data, 20);
    List<Request> pages = run.writes().stream().filter(r -> r.tag() >= LogManager.DATA_TAGS).toList();
    long hardened = run.hardenedAt(run.log().recordBytes());
    assertTrue(hardened > us(1500));
    assertTrue(pages.stream().allMatch(p -> p.time() > hardened), "no page before its log is hardened");
    assertTrue(pages.size() >= 10, "pages written " + pages.size());
    assertEquals(pages.size(), run.log().data().lazyWrites());
    assertTrue(pages.stream().map(Request::offset).distinct().count() == pages.size(), "each page once");
    assertEquals(10, run.log().data().dirtyPagesAtEnd(), "it stops at the threshold");
  }
}
