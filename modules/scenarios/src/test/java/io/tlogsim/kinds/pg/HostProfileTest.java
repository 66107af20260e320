package io.tlogsim.kinds.pg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code host = profile:NAME} resolves a host profile as calibrate-host writes it, as device profiles are resolved:
 * its settings fill the host keys unless --set gives them, the run holds plain numbers (no file needed afterwards),
 * and a missing or malformed profile, a setting the kind lacks or a value out of range is bad input naming its key.
 */
class HostProfileTest {
  @TempDir Path dir;

  private Path profile(String body) throws Exception {
    Path f = dir.resolve("h" + body.hashCode() + ".conf");
    Files.writeString(f, "# tlogsim host profile\nprofile {\n" + body + "\n}\nmeasured { host = \"test\" }\n");
    return f;
  }

  @Test
  void aProfileFillsTheHostKeysAndTheRunNeedsNoFile() throws Exception {
    Path f = profile("hostWakeCpuUs = 12.5\nhostSleepCpuUs = 20\nhostSameCoreWakeCpuUs = 2\n"
        + "hostSameCoreSleepCpuUs = 1\nhostIdleWakeUs = 7\nhostWriteCpuUs = 15\nhostFlushCpuUs = 60");
    Scenario s = ScenarioRuns.scenario("pg-commit", "host", "profile:" + f, "hostSleepCpuUs", "25",
        "simulatedSeconds", "0.2", "cores", "1", "fsyncUs", "300", "clients", "32");
    Map<String, Object> p = s.params().asMap();
    assertEquals("profile", p.get("host"));
    assertEquals(12.5, ((Number) p.get("hostWakeCpuUs")).doubleValue());
    assertEquals(25.0, ((Number) p.get("hostSleepCpuUs")).doubleValue(), "--set wins over the profile");
    assertEquals(60.0, ((Number) p.get("hostFlushCpuUs")).doubleValue());
    assertTrue(s.origins().get("hostWakeCpuUs").contains("host profile"), s.origins().toString());
    Files.delete(f);
    Map<String, Object> summary = ScenarioRuns.run(s, 7, 2); // the values are frozen into the run
    Map<String, Object> none = ScenarioRuns.run(ScenarioRuns.scenario("pg-commit", "simulatedSeconds", "0.2",
        "cores", "1", "fsyncUs", "300", "clients", "32"), 7, 2);
    assertTrue(ScenarioRuns.num(summary, "commits.perSecond") < ScenarioRuns.num(none, "commits.perSecond"),
        "the profile's costs are charged");
    assertEquals("profile", ScenarioRuns.at(summary, "params.host"));
  }

  @Test
  void badProfilesAreRefusedNamingTheirKey() throws Exception {
    BadInputException missing = assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("pg-commit", "host", "profile:" + dir.resolve("nope.conf")));
    assertTrue(missing.getMessage().startsWith("host: host profile"), missing.getMessage());
    Path notHost = profile("profile512Us = 30");
    BadInputException device = assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("commit-path", "host", "profile:" + notHost));
    assertTrue(device.getMessage().contains("is not a host setting"), device.getMessage());
    Path unknown = profile("hostSpinCpuUs = 3");
    BadInputException key = assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("pg-commit", "host", "profile:" + unknown));
    assertTrue(key.getMessage().contains("has no setting hostSpinCpuUs"), key.getMessage());
    Path range = profile("hostWakeCpuUs = -4");
    BadInputException out = assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("pg-commit", "host", "profile:" + range));
    assertTrue(out.getMessage().contains("hostWakeCpuUs"), out.getMessage());
    Files.writeString(dir.resolve("broken.conf"), "profile { hostWakeCpuUs = ");
    assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("pg-commit", "host", "profile:" + dir.resolve("broken.conf")));
    BadInputException noCores = assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("commit-path", "cores", "0", "hostWakeCpuUs", "5"));
    assertTrue(noCores.getMessage().contains("hostWakeCpuUs") && noCores.getMessage().contains("cores"),
        noCores.getMessage());
    BadInputException noCoresToSleep = assertThrows(BadInputException.class,
        () -> ScenarioRuns.scenario("commit-path", "cores", "0", "sessionSleepCpuUs", "40"));
    assertTrue(noCoresToSleep.getMessage().startsWith("sessionSleepCpuUs") && noCoresToSleep.getMessage().contains(
        "cores"), noCoresToSleep.getMessage());
  }
}
