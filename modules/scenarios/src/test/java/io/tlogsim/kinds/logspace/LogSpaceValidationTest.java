package io.tlogsim.kinds.logspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.script.Step;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log-space keys and steps are checked when a scenario loads: one line naming the key and what is allowed. */
class LogSpaceValidationTest {
  @TempDir
  Path dir;

  private String refused(String text) throws Exception {
    Path f = dir.resolve("bad.conf");
    Files.writeString(f, text);
    String m = assertThrows(BadInputException.class, () -> ScenarioKinds.loader().load(f.toString(), Map.of()))
        .getMessage();
    assertTrue(!m.contains("\n"), "one line: " + m);
    return m;
  }

  private static void says(String message, String... parts) {
    for (String p : parts) assertTrue(message.contains(p), "'" + p + "' missing from: " + message);
  }

  @Test
  void backupLogNeedsTheFullRecoveryModelAndNoOtherReadPathStepLoads() throws Exception {
    says(refused("""
        kind = log-space
        description = "x"
        recoveryModel = SIMPLE
        script = [{ step = insert, rows = 10 }, { step = backup-log }]
        """), "script", "backup-log", "FULL", "4208");
    says(refused("""
        kind = log-space
        description = "x"
        script = [{ step = backup-database }]
        """), "script", "backup-database", "read path");
    says(refused("""
        kind = commit-path
        description = "x"
        script = [{ step = backup-log }]
        """), "script", "backup-log", "read path");
  }

  @Test
  void everyLogSpaceStepLoads() throws Exception {
    Path f = dir.resolve("good.conf");
    Files.writeString(f, """
        kind = log-space
        description = "every log step"
        logFiles = 2
        logDevices = 2
        script = [
          { step = grow-log, mb = 2, times = 3 }
          { step = add-log-file, file = extra, sizeMB = 2, growthMB = 16, device = 2 }
          { step = large-insert, rows = 10, recordBytes = 400, compensationBytes = 60 }
          { step = large-update, rows = 10, recordBytes = 135, compensationBytes = 85, splitBytes = 84 }
          { step = remove-file, file = 4 }
          { step = shrink-file, file = 2, targetMB = 1 }
          { step = sqlperf, name = end }
        ]
        """);
    Scenario s = ScenarioKinds.loader().load(f.toString(), Map.of());
    var steps = s.params().getScript("script").steps();
    assertEquals(Step.Type.ADD_LOG_FILE, steps.get(1).type());
    assertEquals(84, steps.get(3).splitBytes());
    assertEquals("end", steps.get(6).name());
  }

  @Test
  void badKeysAreRefusedNamingTheKey() throws Exception {
    String head = "kind = log-space\ndescription = x\n";
    says(refused(head + "sqlServerVersion = \"2019\"\n"), "sqlServerVersion", "pre-2014, 2014, 2022");
    says(refused(head + "recoveryModel = BULK\n"), "recoveryModel", "SIMPLE, FULL");
    says(refused(head + "logSizeMB = -1\n"), "logSizeMB");
    says(refused(head + "logGrowthMB = 16\nlogGrowthPercent = 10\n"), "logGrowthPercent", "not both");
    says(refused(head + "logSizeMB = 64\nlogMaxSizeMB = 32\n"), "logMaxSizeMB", "at least logSizeMB");
    says(refused(head + "logDevices = 2\n"), "logDevices", "at most logFiles");
    says(refused(head + "flushClosesPage = false\n"), "flushClosesPage");
    says(refused(head + "rollbackReservationFactor = -0.5\n"), "rollbackReservationFactor");
    says(refused(head + "script = [{ step = grow-log, mb = 0 }]\n"), "bad.conf:3", "grow-log", "mb");
    says(refused(head + "script = [{ step = shrink-file, target = 1 }]\n"), "unknown key 'target'", "targetMB");
    says(refused(head + "script = [{ step = remove-file }]\n"), "remove-file", "needs file");
    says(refused(head + "script = [{ step = add-log-file, file = x }]\n"), "add-log-file", "sizeMB");
    says(refused(head + "script = [{ step = add-log-file, sizeMB = 2, device = 3 }]\n"), "device 3",
        "logDevices");
    says(refused("kind = commit-path\ndescription = x\nscript = [{ step = sqlperf }]\n"), "sqlperf",
        "needs kind log-space");
  }
}
