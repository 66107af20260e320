package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A measured device: latency by size (interpolated), faster with more in flight as measured, writes durable. */
class ProfileDeviceTest {
  private static final ProfileSpec SPEC = new ProfileSpec(new long[] {512, 4096, 65536},
      new long[] {1_000_000, 1_200_000, 3_000_000}, 4.0, 50_000, Rigs.GIB);
  private static final DeviceSetup DEV = new DeviceSetup.OfProfile(SPEC);

  @Test
  void oneInFlightTakesTheMeasuredLatencyOfItsSizeLinearBetweenSizes() {
    assertEquals(1_000_000, SPEC.serviceNanos(100), "below the smallest size: its latency");
    assertEquals(1_100_000, SPEC.serviceNanos(2304), "half-way between 512 and 4096");
    assertEquals(1_200_000 + 1_800_000 / 2, SPEC.serviceNanos(4096 + (65536 - 4096) / 2));
    long[] t = Script.run(DEV, List.of(new Script.Req(1_000, DeviceProtocol.WRITE, 4096, 0),
        new Script.Req(5_000_000, DeviceProtocol.FLUSH, 0, 0)), 100_000_000);
    assertEquals(1_000 + 1_200_000, t[0]);
    assertEquals(5_000_000 + 50_000, t[1], "a flush alone costs the measured clean flush");
  }

  @Test
  void eightInFlightGiveTheMeasuredSpeedUp() {
    Rigs.Run one = Rigs.run(DEV, Rigs.job("write", 4096, 1, 1, Rigs.GIB, 2), 1, 1);
    Rigs.Run eight = Rigs.run(DEV, Rigs.job("write", 4096, 8, 1, Rigs.GIB, 2), 1, 1);
    double iops1 = Rigs.iops(one);
    double iops8 = Rigs.iops(eight);
    assertEquals(1e9 / (1_200_000 + 1_000), iops1, 1, "one at a time (plus the job's 1 us submission)");
    assertEquals(4.0, iops8 / iops1, 0.02, "the measured qd8 speed-up");
  }

  @Test
  void badProfilesAreRefused() {
    assertThrows(DeviceConfigException.class, () -> new ProfileSpec(new long[] {512}, new long[] {1}, 1, 1, 1));
    assertThrows(DeviceConfigException.class,
        () -> new ProfileSpec(new long[] {4096, 512}, new long[] {1, 1}, 1, 1, 1));
    assertThrows(DeviceConfigException.class,
        () -> new ProfileSpec(new long[] {512, 4096}, new long[] {1, 1}, 100, 1, 1));
  }
}
