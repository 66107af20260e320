package io.tlogsim.kinds.commitpath;

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

/**
 * Scenario files of the commit path are checked when loaded: an unknown key, a wrong type or an impossible size is
 * refused with one line that names the file and line, the key, and what is allowed; nothing runs.
 */
class ScenarioValidationTest {
  @TempDir
  Path dir;

  private String refused(String text) throws Exception {
    Path f = dir.resolve("bad.conf");
    Files.writeString(f, text);
    return assertThrows(BadInputException.class, () -> ScenarioKinds.loader().load(f.toString(), Map.of()))
        .getMessage();
  }

  private static void says(String message, String... parts) {
    for (String p : parts) assertTrue(message.contains(p), "'" + p + "' missing from: " + message);
  }

  @Test
  void aGoodScriptLoadsWithEveryStep() throws Exception {
    Path f = dir.resolve("good.conf");
    Files.writeString(f, """
        kind = informix
        description = "every step"
        script = [
          { step = set-log, mode = buffered }
          { step = update, rows = 10, commitEvery = 5, name = "first" }
          { step = insert, seconds = 0.5, thinkUs = 100, think = exponential, access = random }
          { step = delete, rows = 3 }
          { step = large-update, rows = 1000, rollback = true }
          { step = delayed-durability, on = true }
          { step = think, us = 10, distribution = exponential }
          { step = checkpoint }
          { step = flush-log }
          { step = commit-loop, thinkMeanUs = 1000, seconds = 1 }
        ]
        """);
    Scenario s = ScenarioKinds.loader().load(f.toString(), Map.of());
    var steps = s.params().getScript("script").steps();
    assertEquals(10, steps.size());
    assertEquals("first", steps.get(1).name());
    assertEquals(Step.Type.LARGE_UPDATE, steps.get(4).type());
    assertTrue(steps.get(4).rollback());
    assertTrue(steps.get(2).random() && steps.get(2).thinkExponential());
  }

  @Test
  void anUnknownKeyOfAStepNamesTheStepTheLineAndTheAllowedKeys() throws Exception {
    String m = refused("kind = informix\nscript = [\n  { step = update, rows = 10 }\n  { step = update, rowz = 10 }\n]\n");
    says(m, "bad.conf:4", "script[1] (update)", "unknown key 'rowz'", "allowed: rows, seconds, commitEvery");
  }

  @Test
  void anUnknownStepListsTheSteps() throws Exception {
    says(refused("kind = commit-path\nscript = [{ step = upsert, rows = 1 }]\n"), "bad.conf:2", "script[0].step",
        "must be one of commit-loop, insert, update");
  }

  @Test
  void wrongTypesAreRefusedWithWhatIsAllowed() throws Exception {
    says(refused("kind = commit-path\nscript = [{ step = insert, rows = many }]\n"), "bad.conf:2",
        "script[0] (insert).rows", "must be an integer", "'many'");
    says(refused("kind = commit-path\nscript = [{ step = insert, rows = 2.5 }]\n"), "rows", "integer");
    says(refused("kind = commit-path\nscript = { step = insert }\n"), "bad.conf:2", "script", "a list of steps");
    says(refused("kind = commit-path\nscript = [ 5 ]\n"), "script[0]", "must be an object");
    says(refused("kind = commit-path\nscript = [{ step = set-log, mode = lazy }]\n"), "mode",
        "one of unbuffered, buffered, default");
    says(refused("kind = commit-path\nscript = [{ step = insert, rows = 5, seconds = 2 }]\n"),
        "give rows (how many statements) or seconds");
    says(refused("kind = commit-path\nflushClosesPage = maybe\n"), "bad.conf:2", "flushClosesPage",
        "true or false");
    says(refused("kind = commit-path\nflushPolicy = every-commit\n"), "bad.conf:2", "flushPolicy",
        "one of per-commit, buffered, group-commit, delayed-durability, postgresql, mysql, db2, oracle");
    says(refused("kind = commit-path\nscripts = []\n"), "bad.conf:2", "unknown key 'scripts'");
  }

  @Test
  void impossibleSizesNameTheKeyAndWhereItWasSet() throws Exception {
    says(refused("kind = commit-path\nlogBlockBytes = 1000\n"), "bad.conf:2", "logBlockBytes",
        "whole number of log pages of 512 B");
    says(refused("kind = commit-path\nlogPageBytes = 1000\n"), "bad.conf:2", "logPageBytes", "multiple of 512");
    says(refused("kind = commit-path\nlogPageHeaderBytes = 600\n"), "bad.conf:2", "logPageHeaderBytes",
        "less than logPageBytes");
    says(refused("kind = commit-path\ncommitRecordBytes = 65000\n"), "bad.conf:2", "commitRecordBytes",
        "must fit in a log block (61440 B");
    says(refused("kind = commit-path\nlogBlockBytes = 1024\nrowBytes = 2000\n"), "rowBytes", "must fit in a log block");
    says(refused("kind = commit-path\ntableRows = -5\n"), "bad.conf:2", "tableRows", "from 0");
    says(refused("kind = commit-path\ncores = 100000\n"), "bad.conf:2", "cores", "from 0 to 4096");
    says(refused("kind = pg-commit\nwalDeviceMBps = 1\n"), "bad.conf:2", "walDeviceMBps", "not less than fsyncUs");
    says(refused("kind = commit-path\ncpuStatementUs = 0\ncpuInsertRowUs = 0\nscript = [{ step = insert, seconds = 5 }]\n"),
        "bad.conf:4", "script", "take no time");
  }

  @Test
  void aScriptGivenWithSetIsCheckedTheSameWay() {
    BadInputException e = assertThrows(BadInputException.class, () -> ScenarioKinds.loader().load(
        "informix-unbuffered", Map.of("script", "[{ step = update, rows = 0 }]")));
    says(e.getMessage(), "script[0] (update).rows", "from 1");
    BadInputException malformed = assertThrows(BadInputException.class, () -> ScenarioKinds.loader().load(
        "informix-unbuffered", Map.of("script", "[{ step = update")));
    says(malformed.getMessage(), "script", "a list of steps");
  }
}
