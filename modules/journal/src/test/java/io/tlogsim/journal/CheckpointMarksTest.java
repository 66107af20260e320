package io.tlogsim.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.scenario.BadInputException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Checkpoints at simulated-time marks, and the marks passed over within the minimum wall gap. */
class CheckpointMarksTest {
  private static final long GAP_MS = 1000; // long beside a loaded machine's pauses between two calls

  private static Config config(String marks, String gap) {
    return ConfigFactory.parseString(CheckpointMarks.KEY + " = \"" + marks + "\"\n" + CheckpointMarks.GAP_KEY + " = \""
        + gap + "\"");
  }

  @Test
  void aMarkWithinTheGapOfTheLastMarkTakenIsPassedOverAndSpentNotTakenLate() throws Exception {
    // marks every 10 ns of a 100 ns run
    CheckpointPolicy p = CheckpointMarks.of(config("10%", GAP_MS + "ms")).policy(100);
    assertFalse(p.checkpointNow(1, 5), "the first window, before the first mark");
    assertFalse(p.checkpointNow(2, 10), "the first mark, less than the gap after the first window");
    Thread.sleep(GAP_MS + 100);
    assertFalse(p.checkpointNow(3, 15), "the mark passed over is spent: no checkpoint between marks");
    assertTrue(p.checkpointNow(4, 20), "the next mark, the gap over");
    assertFalse(p.checkpointNow(5, 30), "a mark at once after the one taken: the gap counts from it");
  }

  @Test
  void aZeroGapTakesEveryMark() {
    CheckpointPolicy p = CheckpointMarks.of(config("10%", "0s")).policy(100);
    assertFalse(p.checkpointNow(1, 5));
    for (int t = 10; t < 100; t += 10) assertTrue(p.checkpointNow(t, t), "mark " + t);
    assertNull(CheckpointMarks.of(config("off", "250ms")).policy(100), "no marks");
  }

  @Test
  void theCommandLinesOptionsReplaceTheConfigsValuesWhichAreThenNotRead() {
    CheckpointMarks m = CheckpointMarks.of(config("often", "soon"), "20%", "1s");
    assertEquals("20%", m.text());
    assertEquals(Duration.ofSeconds(1), m.minWallGap());
    assertEquals(Duration.ofMillis(500), CheckpointMarks.configured().minWallGap(), "reference.conf's default");
  }

  @Test
  void aBadGapIsOneLineNamingTheKeyAndTheValueAsWritten() {
    for (String gap : new String[] {"-1s", "soon", "", "2"}) { // "2": 2 ms to the config's parser, no unit
      BadInputException fromConfig = assertThrows(BadInputException.class,
          () -> CheckpointMarks.of(config("10%", gap)));
      String allowed = ": must be a wall duration with its unit (500ms, 2s) or 0s, got '" + gap + "'";
      assertEquals("tlogsim.journal.checkpoint-min-gap" + allowed, fromConfig.getMessage());
      BadInputException fromOption = assertThrows(BadInputException.class,
          () -> CheckpointMarks.of(config("10%", "250ms"), null, gap));
      assertEquals("--checkpoint-min-gap" + allowed, fromOption.getMessage());
    }
    assertEquals(Duration.ZERO, CheckpointMarks.of(config("10%", "0"), null, null).minWallGap(), "0 needs no unit");
    BadInputException marks = assertThrows(BadInputException.class, () -> CheckpointMarks.of(config("often", "0s")));
    assertTrue(marks.getMessage().startsWith("tlogsim.journal.checkpoint-every-simulated: must be a percent"),
        marks.getMessage());
  }
}
