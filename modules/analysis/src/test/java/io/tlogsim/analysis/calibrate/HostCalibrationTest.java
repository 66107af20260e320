package io.tlogsim.analysis.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * calibrate-host on this machine: every figure is measured (samples), positive, and has its spread; same core and
 * another core are told apart where taskset can pin threads (the same-core ping-pong switches twice a round trip);
 * the profile holds the model's settings and every figure, and parses as HOCON.
 */
class HostCalibrationTest {
  @TempDir
  Path dir;

  @Test
  void everyFigureIsMeasuredPositiveWithItsSpreadAndTheProfileHoldsThem() throws Exception {
    List<String> progress = new ArrayList<>();
    long start = System.nanoTime();
    HostCalibration.Result r = new HostCalibration(dir, 3, progress::add).run();
    double wall = (System.nanoTime() - start) / 1e9;
    assertTrue(wall < 3 * 3 + 10, "bounded in time: " + wall + " s");
    assertFalse(Files.exists(dir.resolve(HostCalibration.FILE)), "the temporary file is deleted");
    assertFalse(progress.isEmpty());

    Pinning pin = Pinning.detect();
    List<String> expected = new ArrayList<>(List.of("walWriteCpu", "fdatasyncCpu", "fdatasyncWall"));
    boolean twoCores = !pin.available() || pin.cpus().size() >= 2;
    if (pin.available()) {
      assertEquals("taskset", r.pinning());
      expected.addAll(List.of("futexWakeSameCore", "futexSameCoreWakeCallCpu", "futexSameCoreSleepCpu",
          "pipeWakeSameCore", "socketWakeSameCore", "contextSwitch"));
      if (twoCores) expected.addAll(List.of("futexWakeBusyCore", "futexWakeBusyCoreCallCpu", "futexBusyCoreSleepCpu"));
    } else {
      assertTrue(r.notes().stream().anyMatch(n -> n.contains("unpinned")), r.notes().toString());
    }
    if (twoCores) {
      expected.addAll(List.of("futexWakeCrossCore", "futexWakeCallCpu", "futexSleepCpu", "futexWakeIdleCore",
          "pipeWakeCrossCore", "socketWakeCrossCore"));
    }
    for (String name : expected) {
      HostCalibration.Figure f = r.figure(name);
      assertNotNull(f, name + " measured; figures: " + r.figures());
      assertTrue(f.count() >= 5, name + ": samples " + f);
      assertTrue(f.p10Us() > 0 && f.p10Us() <= f.p50Us() && f.p50Us() <= f.p90Us(), name + ": spread " + f);
      assertTrue(f.meanUs() > 0, name + ": mean " + f);
      assertFalse(f.what().isBlank(), name);
    }
    if (pin.available()) {
      // each wake on one core is a switch to the woken thread and back: the kernel's counters say so
      double switches = r.figure("futexSameCoreSwitchesPerRoundTrip").p50Us();
      assertTrue(switches >= 1.9 && switches <= 3, "switches per same-core round trip: " + switches);
    }

    Map<String, Double> settings = HostProfileFile.settings(r);
    assertEquals(List.of("hostWakeCpuUs", "hostSleepCpuUs", "hostSameCoreWakeCpuUs", "hostSameCoreSleepCpuUs",
        "hostIdleWakeUs", "hostWriteCpuUs", "hostFlushCpuUs", "hostBusyCoreWakeCpuUs", "hostBusyCoreSleepCpuUs"),
        List.copyOf(settings.keySet()));
    boolean busy = r.figure("futexWakeBusyCoreCallCpu") != null && r.figure("futexBusyCoreSleepCpu") != null;
    for (Map.Entry<String, Double> e : settings.entrySet()) {
      assertTrue(e.getValue() >= 0, e.toString());
      boolean measured = !e.getKey().equals("hostIdleWakeUs") && (busy || !e.getKey().startsWith("hostBusyCore"));
      if (measured) assertTrue(e.getValue() > 0, e.toString());
    }
    if (busy) { // the busy-core settings are those figures' medians
      assertEquals(r.figure("futexWakeBusyCoreCallCpu").p50Us(), settings.get("hostBusyCoreWakeCpuUs"), 1e-9);
      assertEquals(r.figure("futexBusyCoreSleepCpu").p50Us(), settings.get("hostBusyCoreSleepCpuUs"), 1e-9);
    }

    Path profile = dir.resolve("h.conf");
    Files.writeString(profile, HostProfileFile.render("test", r, "here"));
    Config c = ConfigFactory.parseFile(profile.toFile()).resolve();
    for (Map.Entry<String, Double> e : settings.entrySet()) {
      assertEquals(e.getValue(), c.getDouble("profile." + e.getKey()), 0.0005, e.getKey());
    }
    assertEquals(r.figures().size(), c.getConfigList("measured.figures").size());
    Config first = c.getConfigList("measured.figures").get(0);
    for (String key : List.of("name", "count", "p10Us", "p50Us", "p90Us", "meanUs", "what")) {
      assertTrue(first.hasPath(key), key);
    }
    assertEquals(r.pinning(), c.getString("measured.pinning"));
  }

  @Test
  void cpuListsParseAsTheKernelWritesThem() {
    assertEquals(List.of(0, 1, 2, 5), Pinning.parseList("0-2,5"));
    assertEquals(List.of(3), Pinning.parseList("3"));
  }
}
