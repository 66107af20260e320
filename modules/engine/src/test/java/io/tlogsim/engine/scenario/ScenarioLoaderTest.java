package io.tlogsim.engine.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.engine.ScenarioKinds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioLoaderTest {
  private final ScenarioLoader loader = ScenarioKinds.loader();

  @Test
  void everyBuiltInScenarioLoadsWithItsDefaults() {
    Map<String, String> builtins = loader.builtins();
    assertTrue(builtins.containsKey("gcm1") && builtins.containsKey("gcm1-100k"), builtins.toString());
    for (String name : builtins.keySet()) {
      Scenario s = loader.load(name, Map.of());
      assertTrue(!builtins.get(name).isBlank(), name + " has no description");
      assertEquals(s.kind().params().size(), s.params().asMap().size(), name);
    }
  }

  @Test
  void referenceIsKeptForTheScenarioAsPublishedAndDroppedWhenTheModelChanges() {
    Scenario asPublished = loader.load("gcm1", Map.of());
    assertNotNull(asPublished.reference());
    assertEquals(1347453.0, asPublished.reference().figures().get("commits.count"));
    assertNotNull(loader.load("gcm1", Map.of("seed", "7")).reference());
    assertNull(loader.load("gcm1", Map.of("sessions", "10")).reference());
  }

  @Test
  void badInputNamesTheKeyAndWhatIsAllowed() {
    BadInputException unknown = assertThrows(BadInputException.class, () -> loader.load("gcm1", Map.of("sesions", "5")));
    assertTrue(unknown.getMessage().contains("sesions") && unknown.getMessage().contains("sessions"), unknown.getMessage());
    BadInputException range = assertThrows(BadInputException.class, () -> loader.load("gcm1", Map.of("sessions", "0")));
    assertTrue(range.getMessage().startsWith("sessions: must be an integer from 1 to"), range.getMessage());
    BadInputException type = assertThrows(BadInputException.class, () -> loader.load("gcm1", Map.of("hopUs", "fast")));
    assertTrue(type.getMessage().contains("hopUs") && type.getMessage().contains("a number"), type.getMessage());
    BadInputException policy = assertThrows(BadInputException.class,
        () -> loader.load("gcm1", Map.of("flushPolicy", "every-commit")));
    assertTrue(policy.getMessage().contains("one of group-commit"), policy.getMessage());
    BadInputException scenario = assertThrows(BadInputException.class, () -> loader.load("gcm2", Map.of()));
    assertTrue(scenario.getMessage().contains("gcm1, gcm1-100k"), scenario.getMessage());
    assertThrows(BadInputException.class, () -> loader.load("gcm1", Map.of("seed", "x")));
  }

  @Test
  void aFileScenarioGetsTheKindDefaultsForWhatItLeavesOut(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("mine.conf");
    Files.writeString(f, "kind = gcm1\ndescription = \"small\"\nsessions = 12\n");
    Scenario s = loader.load(f.toString(), Map.of());
    assertEquals("mine", s.name());
    assertEquals(12, s.params().getInt("sessions"));
    assertEquals(200, s.params().getInt("recordBytes"));
    assertNull(s.reference());

    Files.writeString(f, "kind = gcm9\n");
    BadInputException kind = assertThrows(BadInputException.class, () -> loader.load(f.toString(), Map.of()));
    assertTrue(kind.getMessage().contains("allowed kinds: gcm1"), kind.getMessage());
    Files.writeString(f, "kind = gcm1\nsessions = [1, 2]\n");
    assertThrows(BadInputException.class, () -> loader.load(f.toString(), Map.of()));
  }

  @Test
  void summaryPathsReachIntoListsAndMaps() {
    Map<String, Object> summary = Map.of("commits", Map.of("count", 5L),
        "backups", List.of(Map.of("seconds", 1.5), Map.of("seconds", 2.5)));
    assertEquals(5L, Reference.lookup(summary, "commits.count"));
    assertEquals(2.5, Reference.lookup(summary, "backups[1].seconds"));
    assertNull(Reference.lookup(summary, "backups[2].seconds"));
    assertNull(Reference.lookup(summary, "log.writes"));
  }
}
