package io.tlogsim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.tlogsim.kinds.ScenarioKinds;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Published figures with their basis (issue 21): the file's forms, what is refused, and what the summary says. */
class ReferenceBasisTest {
  private final ScenarioLoader loader = ScenarioKinds.loader();

  private static String gcm1(String figures) {
    return "kind = gcm1\ndescription = \"mine\"\nreference {\n  source = \"my lab\"\n  figures {\n" + figures
        + "\n  }\n}\n";
  }

  @Test
  void everyBuiltInFigureStatesItsBasisAndACalibratedOneItsFittedKeys() throws Exception {
    int figures = 0;
    int predicted = 0;
    for (String name : loader.builtins().keySet()) {
      String text;
      try (InputStream in = getClass().getClassLoader().getResourceAsStream("scenarios/" + name + ".conf")) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      var c = ConfigFactory.parseString(text);
      if (!c.hasPath("reference")) continue;
      for (Map.Entry<String, ConfigValue> e : c.getObject("reference.figures").entrySet()) {
        figures++;
        assertEquals(ConfigValueType.OBJECT, e.getValue().valueType(), name + ": " + e.getKey()
            + " is a bare number: a built-in figure states its basis");
        ConfigObject o = (ConfigObject) e.getValue();
        assertTrue(o.containsKey("basis"), name + ": " + e.getKey());
        if ("predicted".equals(o.get("basis").unwrapped())) predicted++;
      }
      Reference r = loader.load(name, Map.of()).reference();
      for (String path : r.figures().keySet()) {
        if (Reference.CALIBRATED.equals(r.basisOf(path))) {
          assertFalse(r.fittedOf(path).isEmpty(), name + ": " + path);
        }
      }
    }
    assertTrue(figures > 0);
    assertTrue(predicted * 2 > figures, "more predicted than calibrated figures: " + predicted + " of " + figures);
  }

  @Test
  void aBareNumberIsPredictedWithinTenPercentAndAnObjectSaysItsOwn(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("mine.conf");
    Files.writeString(f, gcm1("    \"commits.count\" = 1000\n"
        + "    \"commits.latencyUs.mean\" { value = 480, tolerance = 0.02, basis = calibrated, fitted = [hopUs,"
        + " \"tlogsim.kinds.gcm1.deviceLatencyUs\"] }\n"
        + "    \"log.writes\" { value = 6000, absoluteTolerance = 500, basis = predicted }"));
    Reference r = loader.load(f.toString(), Map.of()).reference();
    assertEquals(List.of("commits.count", "commits.latencyUs.mean", "log.writes"), List.copyOf(r.figures().keySet()),
        "the file's order");
    assertEquals(Reference.PREDICTED, r.basisOf("commits.count"));
    assertEquals(0.10, r.toleranceOf("commits.count"));
    assertEquals(Reference.CALIBRATED, r.basisOf("commits.latencyUs.mean"));
    assertEquals(List.of("hopUs", "tlogsim.kinds.gcm1.deviceLatencyUs"), r.fittedOf("commits.latencyUs.mean"));
    assertEquals(0.02, r.toleranceOf("commits.latencyUs.mean"));
    assertTrue(r.absolute("log.writes"));
    assertEquals(-100, r.errorOf("log.writes", 5900), 1e-9);

    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("commits", Map.of("count", 1050, "latencyUs", Map.of("mean", 500.0)));
    summary.put("log", Map.of("writes", 5400));
    Map<String, Object> out = r.addTo(summary);
    assertEquals(Map.of("commits.count", "predicted", "commits.latencyUs.mean", "calibrated", "log.writes",
        "predicted"), out.get("referenceBasis"));
    assertEquals(Map.of("commits.latencyUs.mean", List.of("hopUs", "tlogsim.kinds.gcm1.deviceLatencyUs")),
        out.get("referenceFitted"));
    List<String> lines = r.lines(out);
    assertTrue(lines.stream().anyMatch(l -> l.contains("commits.latencyUs.mean") && l.endsWith("(calibrated)")),
        lines.toString());
    assertTrue(lines.stream().noneMatch(l -> l.contains("commits.count") && l.contains("calibrated")));
    List<Reference.Row> rows = r.rows("mine", out);
    assertTrue(rows.get(0).within(), "+5% within 10%");
    assertFalse(rows.get(1).within(), "+4.2% outside 2%");
    assertFalse(rows.get(2).within(), "-600 outside 500");

    Files.writeString(f, gcm1("    \"commits.count\" = 1000").replace("source", "tolerance = 0.5\n  source"));
    assertEquals(0.5, loader.load(f.toString(), Map.of()).reference().toleranceOf("commits.count"));
  }

  @Test
  void badFiguresAreRefusedWithTheFileAndLine(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.conf");
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("\"commits.count\" { value = 1, basis = guessed }", "basis 'guessed' is unknown; allowed: calibrated, predicted");
    bad.put("\"commits.count\" { value = 1, basis = calibrated, fitted = [noSuchKey] }", "fitted key 'noSuchKey'");
    bad.put("\"commits.count\" { value = 1, basis = calibrated, fitted = [\"tlogsim.nothing.here\"] }",
        "fitted key 'tlogsim.nothing.here'");
    bad.put("\"commits.count\" { value = 1, basis = calibrated }", "needs fitted");
    bad.put("\"commits.count\" { value = 1, basis = predicted, fitted = [hopUs] }", "fitted is for a calibrated");
    bad.put("\"commits.count\" { value = 1, tolerance = -0.1, basis = predicted }", "must be a number >= 0");
    bad.put("\"commits.count\" { value = 1, tolerance = 0.1, absoluteTolerance = 3, basis = predicted }", "not both");
    bad.put("\"commits.count\" { value = 1 }", "no basis");
    bad.put("\"commits.count\" { basis = predicted }", "value must be a number");
    bad.put("\"commits.count\" { value = 1, basis = predicted, tol = 1 }", "unknown key 'tol'");
    bad.put("\"commits.count\" = many", "must be a number or");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      Files.writeString(f, gcm1("    " + e.getKey()));
      BadInputException x = assertThrows(BadInputException.class, () -> loader.load(f.toString(), Map.of()),
          e.getKey());
      assertTrue(x.getMessage().contains(e.getValue()), e.getKey() + " -> " + x.getMessage());
      assertTrue(x.getMessage().startsWith(f + ":6: ") || x.getMessage().startsWith("bad.conf:6: ")
          || x.getMessage().contains("bad.conf:6: "), e.getKey() + " -> " + x.getMessage());
    }
  }
}
