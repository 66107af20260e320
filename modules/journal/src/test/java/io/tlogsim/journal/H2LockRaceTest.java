package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader ({@code tlogsim runs}, {@code show}) that meets another process taking the H2 journal's file lock waits for
 * it instead of failing. H2 itself waits up to 4 s for a lock file that keeps being modified, then refuses ("Lock file
 * recently modified"); here the lock file is kept fresh for 6 s, as a process starting a run and its server could.
 */
class H2LockRaceTest {
  @Test
  void aReaderWaitsOutALockFileBeingTaken(@TempDir Path data) throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, data);
    try (Journal created = Journal.openForWriting(s)) {
      assertEquals(0, created.store().list().size());
    }
    Path lock = JournalDatabase.lockFile(s);
    Files.writeString(lock, "method=file\nid=someone-else\n"); // H2's FILE lock: properties, the method first
    AtomicBoolean touching = new AtomicBoolean(true);
    Thread toucher = new Thread(() -> {
      long until = System.nanoTime() + 6_000_000_000L;
      try {
        while (System.nanoTime() < until) {
          Files.setLastModifiedTime(lock, FileTime.fromMillis(System.currentTimeMillis()));
          Thread.sleep(5);
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      } finally {
        touching.set(false);
      }
    });
    toucher.start();
    long start = System.nanoTime();
    try (Journal reader = Journal.openForReading(s)) {
      assertEquals(0, reader.store().list().size());
    }
    long waited = System.nanoTime() - start;
    assertTrue(!touching.get() && waited > 5_000_000_000L,
        "the reader got in only once the lock file was left alone (" + waited / 1_000_000 + " ms)");
    toucher.join();
  }
}
