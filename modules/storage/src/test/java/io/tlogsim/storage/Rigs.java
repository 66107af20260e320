package io.tlogsim.storage;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.load.IoJobSpec;
import io.tlogsim.storage.load.IoJobStats;
import io.tlogsim.storage.load.IoJobs;

/** Test rigs: fio-like jobs against one device, run to the end. */
final class Rigs {
  private Rigs() {}

  static final long GIB = 1L << 30;

  /** A 15K rpm enterprise drive as config/application.conf describes it (REFERENCE.md section 4). */
  static HddSpec hdd15k(long capacityBytes, int queueDepth) {
    return new HddSpec(15_000, 3_300_000, 3_800_000, 200_000, 75, capacityBytes, 50_000, queueDepth);
  }

  static SsdSpec ssd(boolean plp) {
    return new SsdSpec(80_000, 20_000, 35_000, 2_200_000, plp, 2000, 8, 400 * GIB);
  }

  static IoJobSpec job(String rw, long bs, int iodepth, int numjobs, long size, double seconds) {
    return new IoJobSpec(rw, bs, iodepth, numjobs, 50, size, 0, VirtualTime.seconds(seconds), 1_000);
  }

  /** One job group against one device. */
  record Run(RunOutcome outcome, IoJobStats jobs, DeviceStats device, StorageAssembly assembly) {
    DeviceStats device(String name) {
      for (StorageAssembly.Placed p : assembly.devices()) {
        if (p.device().name().equals(name)) return (DeviceStats) outcome.results().get(p.id());
      }
      throw new IllegalArgumentException(name);
    }
  }

  static Run run(DeviceSetup setup, IoJobSpec job, int threads, long seed) {
    return run(setup, job, RunSettings.of(job.runtimeNanos(), seed, threads));
  }

  static Run run(DeviceSetup setup, IoJobSpec job, RunSettings settings) {
    StorageAssembly a = new StorageAssembly();
    StorageAssembly.Placed dev = a.device("dev", setup);
    int jobs = IoJobs.place(a, "jobs", job, dev);
    RunOutcome out = Simulation.run(a.topology(), a.models(), settings);
    return new Run(out, (IoJobStats) out.results().get(jobs), (DeviceStats) out.results().get(dev.id()), a);
  }

  static double iops(Run r) {
    return r.jobs().ios() / VirtualTime.toSeconds(r.jobs().runtimeNanos());
  }
}
