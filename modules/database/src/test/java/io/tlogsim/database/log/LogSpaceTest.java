package io.tlogsim.database.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlogsim.database.log.LogRig.Plan;
import io.tlogsim.database.log.LogRig.Request;
import io.tlogsim.database.log.LogRig.Run;
import io.tlogsim.database.log.policy.PerCommit;
import io.tlogsim.database.logspace.LogSpace;
import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.VirtualTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The log manager through the {@link LogSpace} interface the log-space issue implements: a write that crosses a file
 * boundary goes out as one request per segment and is hardened when all complete; a space that refuses more room
 * makes appends wait until it says the room is there (here: after zero-filling the next file).
 */
class LogSpaceTest {

  /** Two log files of 4 KB each used one after the other (then again), the second growing once by zero-fill. */
  static final class TwoFiles implements LogSpace {
    static final long FILE = 4096;
    boolean grown;
    boolean zeroing;
    final List<Long> zeroTags = new ArrayList<>();

    @Override
    public List<Segment> place(long logOffset, long bytes) {
      List<Segment> out = new ArrayList<>();
      long at = logOffset;
      long left = bytes;
      while (left > 0) {
        long inFile = FILE - at % FILE;
        long n = Math.min(inFile, left);
        int file = (int) (at / FILE % 2);
        out.add(new Segment(0, file * (1L << 20) + at % FILE, 2 + file, n));
        at += n;
        left -= n;
      }
      return out;
    }

    @Override
    public boolean reserve(Host host, long logEnd) {
      if (logEnd <= FILE || grown) return true;
      if (!zeroing) {
        zeroing = true;
        host.zero(0, 1L << 20, FILE, 3, 7);
      }
      return false;
    }

    @Override
    public void onZeroDone(Host host, long tag) {
      zeroTags.add(tag);
      grown = true;
      host.spaceReady();
    }

    @Override
    public List<LogFile> files() {
      return List.of(new LogFile(2, "log1", 0), new LogFile(3, "log2", 0));
    }

    @Override
    public Object snapshot() {
      return new State(grown, zeroing);
    }

    @Override
    public void restore(Object snapshot) {
      grown = ((State) snapshot).grown();
      zeroing = ((State) snapshot).zeroing();
    }

    record State(boolean grown, boolean zeroing) implements CborSerializable {}
  }

  @Test
  void aWriteAcrossFilesIsSplitAndHardenedWhenEverySegmentCompletes() {
    // blocks of 8 pages (4 KB); 3,000 B of records and a commit: the next block would reach past the first file, so
    // the space zero-fills the second (100 us) and the records sent meanwhile wait; then the second write crosses
    // from the first file into the second
    LogConfig cfg = LogConfig.builder().pageBytes(512).maxBlockPages(8).logBuffers(128).maxOutstandingWrites(32)
        .maxOutstandingBytes(Long.MAX_VALUE).flushClosesPage(true).checkpointRecordBytes(1).replyNanos(LogRig.HOP)
        .deviceLinkNanos(LogRig.LINK).build();
    TwoFiles space = new TwoFiles();
    Run run = LogRig.run(new Plan().records(0, 0, 1000, 3, -1).commit(10, 0, true, false)
        .records(50, 1, 1000, 3, -1).commit(60, 1, true, false), new PerCommit(), cfg, null, space, 10);
    List<Request> zero = run.writes().stream().filter(w -> w.tag() >= LogManager.SPACE_TAGS).toList();
    assertEquals(1, zero.size(), "the second file zero-filled once");
    assertEquals(LogManager.SPACE_TAGS + 7, zero.get(0).tag());
    List<Request> log = run.logWrites();
    // write 1: pages 0-6 of file 1; write 2: page 7 of file 1 and pages 0-5 of file 2 (two requests)
    assertEquals(3, log.size(), "two writes, the second in two segments: " + log);
    assertEquals(List.of(2, 2, 3), log.stream().map(Request::file).toList());
    assertEquals(log.get(1).time(), log.get(2).time(), "both segments go out together");
    assertEquals(List.of(512L, 3072L), List.of(log.get(1).bytes(), log.get(2).bytes()));
    assertEquals(VirtualTime.micros(112), log.get(1).time(), "sent once the zero-fill completed (at 111 us)");
    // the second commit waited for the zero-fill (LOGBUFFER) and is acknowledged after both segments completed
    assertEquals(2, run.log().logBufferWaits(), "the records and the commit behind them");
    long bothDone = Math.max(log.get(1).time(), log.get(2).time()) + LogRig.DISK;
    assertEquals(List.of(VirtualTime.micros(112), bothDone + LogRig.HOP),
        run.acks().stream().map(LogRig.Reply::time).toList());
    assertEquals(2, run.log().files().size());
    assertEquals(2, run.log().files().get(0).writes());
    assertEquals(1, run.log().files().get(1).writes());
  }
}
