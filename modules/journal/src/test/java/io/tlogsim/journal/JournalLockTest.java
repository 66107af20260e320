package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether this process itself holds an H2 journal's file: what a journal "in use" for too long is blamed on. */
class JournalLockTest {
  @TempDir
  Path data;

  @Test
  void anOpenJournalIsLockedByThisProcessAndAClosedOneIsNot() {
    JournalSettings s;
    try (Journal j = Journal.openForWriting(JournalSettings.of(JournalKind.H2, data))) {
      s = j.settings();
      assertTrue(JournalDatabase.lockedByThisProcess(s), "open here: " + s.h2File());
    }
    assertFalse(JournalDatabase.lockedByThisProcess(s), "closed: " + s.h2File());
  }
}
