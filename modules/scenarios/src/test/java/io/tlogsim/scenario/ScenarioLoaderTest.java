package io.tlogsim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.ScenarioKinds;
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
  void anOverrideThatLeavesTheModelAsPublishedKeepsTheReference() {
    Scenario same = loader.load("gcm1", Map.of("sessions", "1000", "hopUs", "5.0"));
    assertNotNull(same.reference(), "sessions=1000 and hopUs=5.0 are the published values");
    assertNull(same.droppedReference());
    Scenario changed = loader.load("gcm1", Map.of("sessions", "1000", "hopUs", "6", "recordBytes", "100"));
    assertNull(changed.reference());
    assertEquals(List.of("hopUs", "recordBytes"), changed.droppedReference().changedKeys());
    assertTrue(changed.droppedReference().lines().get(0).contains("dropped: --set hopUs, recordBytes change the model"),
        changed.droppedReference().lines().toString());
  }

  @Test
  void everyValueSaysWhereItComesFrom() {
    Scenario s = loader.load("gcm1", Map.of("hopUs", "7"));
    assertEquals("built-in:gcm1", s.source());
    assertEquals("scenario, scenarios/gcm1.conf:4", s.seedOrigin());
    assertEquals("scenario, scenarios/gcm1.conf:5", s.origins().get("sessions"));
    assertEquals("--set", s.origins().get("hopUs"));
    assertTrue(s.origins().get("thinkMeanUs").matches("default, application.conf:\\d+"), s.origins().toString());
    assertEquals(Map.of("hopUs", "7"), s.overrides());
    assertEquals("--set", loader.load("gcm1", Map.of("seed", "3")).seedOrigin());
  }

  @Test
  void defaultsCarryTheirSourceComment() {
    List<ScenarioLoader.ParamDefault> d = loader.defaults(loader.kind("gcm1"));
    assertEquals(loader.kind("gcm1").params().size(), d.size());
    ScenarioLoader.ParamDefault think = d.stream().filter(p -> p.spec().key().equals("thinkMeanUs")).findFirst()
        .orElseThrow();
    assertEquals(1000.0, think.value());
    assertEquals("us", think.spec().unit());
    assertTrue(think.comment().contains("BENCH.md"), think.comment());
    BadInputException kind = assertThrows(BadInputException.class, () -> loader.kind("gcm1-100k"));
    assertTrue(kind.getMessage().contains("kinds: ") && kind.getMessage().contains("gcm1")
        && kind.getMessage().contains("is a scenario"),
        kind.getMessage());
  }

  @Test
  void fileErrorsNameTheFileAndLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("mine.conf");
    Files.writeString(f, "kind = gcm1\ndescription = \"x\"\nsessions = -3\n");
    assertMessage(f + ":3: sessions: must be an integer from 1 to", f);
    Files.writeString(f, "kind = gcm1\n\nsesions = 3\n");
    assertMessage(f + ":3: unknown key 'sesions' for kind gcm1; allowed: sessions", f);
    Files.writeString(f, "kind = gcm1\nsessions = {\n");
    assertMessage(f + ":3: malformed:", f);
    Files.writeString(f, "kind = gcm2\n");
    assertMessage(f + ":1: kind 'gcm2' is unknown", f);
    Files.writeString(f, "kind = gcm1\nseed = x\n");
    assertMessage(f + ":2: seed: must be an integer", f);
    Files.writeString(f, "kind = gcm1\nreference { source = \"s\", figures { a = x } }\n");
    assertMessage(f + ":2: reference.figures: 'a' must be a number", f);
  }

  private void assertMessage(String start, Path file) {
    BadInputException e = assertThrows(BadInputException.class, () -> loader.load(file.toString(), Map.of()));
    assertTrue(e.getMessage().startsWith(start), "expected '" + start + "...', got: " + e.getMessage());
  }

  @Test
  void aDirectoryOrAnEmptyNameIsRefusedAsSuch(@TempDir Path dir) {
    BadInputException d = assertThrows(BadInputException.class, () -> loader.load(dir.toString(), Map.of()));
    assertTrue(d.getMessage().contains("is a directory"), d.getMessage());
    BadInputException e = assertThrows(BadInputException.class, () -> loader.load("", Map.of()));
    assertTrue(e.getMessage().contains("must not be empty"), e.getMessage());
    BadInputException k = assertThrows(BadInputException.class, () -> loader.load("gcm1", Map.of(" ", "1")));
    assertTrue(k.getMessage().contains("key must not be empty"), k.getMessage());
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
    assertTrue(kind.getMessage().contains("allowed kinds: ") && kind.getMessage().contains("gcm1"),
        kind.getMessage());
    Files.writeString(f, "kind = gcm1\nsessions = [1, 2]\n");
    assertThrows(BadInputException.class, () -> loader.load(f.toString(), Map.of()));
  }

  @Test
  void summaryPathsReachIntoListsAndMaps() {
    Map<String, Object> summary = Map.of("commits", Map.of("count", 5L),
        "backups", List.of(Map.of("seconds", 1.5), Map.of("seconds", 2.5)));
    assertEquals(5L, SummaryPaths.get(summary, "commits.count"));
    assertEquals(2.5, SummaryPaths.get(summary, "backups[1].seconds"));
    assertNull(SummaryPaths.get(summary, "backups[2].seconds"));
    assertNull(SummaryPaths.get(summary, "log.writes"));
  }
}
