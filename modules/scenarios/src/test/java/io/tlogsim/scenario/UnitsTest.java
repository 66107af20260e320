package io.tlogsim.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnitsTest {
  private static final ParamSpec BS = ParamSpec.longValue("bs", 1, 1L << 30, "block size").withUnit("bytes");
  private static final ParamSpec LOG_MB = ParamSpec.integer("logSizeMB", 1, 1 << 24, "log size").withUnit("MB");
  private static final ParamSpec SECONDS = ParamSpec.decimal("simulatedSeconds", 0.001, 86_400, "time");
  private static final ParamSpec THINK = ParamSpec.decimal("thinkMeanUs", 0.001, 1e9, "think");
  private static final ParamSpec RATE = ParamSpec.decimal("deviceMBps", 0.001, 1e6, "rate");
  private static final ParamSpec SESSIONS = ParamSpec.integer("sessions", 1, 10_000_000, "sessions")
      .withUnit("sessions");

  @Test
  void valuesAreConvertedToTheParametersUnit() {
    assertEquals(4096.0, Units.convert(BS, "4k"));
    assertEquals(65536.0, Units.convert(BS, "64 KiB"));
    assertEquals(1_048_576.0, Units.convert(BS, "1M"), "within a size, m is a mebibyte");
    assertEquals(10_240.0, Units.convert(LOG_MB, "10GB"), "SQL Server's GB is 1024 MB");
    assertEquals(0.1, Units.convert(SECONDS, "100ms"));
    assertEquals(600.0, Units.convert(SECONDS, "10m"), "within a time, m is a minute");
    assertEquals(2000.0, Units.convert(THINK, "2ms"));
    assertEquals(1.5, Units.convert(THINK, "1500ns"));
    assertEquals(1500.0, Units.convert(RATE, "1.5GB/s"), "rates are decimal, as the devices' MB/s");
    assertNull(Units.convert(BS, "4096"), "a plain number is the caller's");
    assertNull(Units.convert(BS, "lots"));
  }

  @Test
  void aUnitOfAnotherDimensionIsRefusedNamingBoth() {
    BadInputException e = assertThrows(BadInputException.class, () -> Units.convert(SECONDS, "10GB"));
    assertEquals("simulatedSeconds: '10GB' is a size; simulatedSeconds is a time in s (e.g. 500us, 2ms, 1.5s, 10m)",
        e.getMessage());
    e = assertThrows(BadInputException.class, () -> Units.convert(BS, "10ms"));
    assertTrue(e.getMessage().startsWith("bs: '10ms' is a time; bs is a size in bytes"), e.getMessage());
    e = assertThrows(BadInputException.class, () -> Units.convert(SESSIONS, "2ms"));
    assertTrue(e.getMessage().startsWith("sessions: '2ms' is a time; sessions is a plain number of sessions"),
        e.getMessage());
  }
}
