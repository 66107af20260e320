package io.tlogsim.kinds.iobench;

import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.storage.load.IoJobSpec;
import java.util.List;

/** fio's job parameters under fio's own names (rw, bs, iodepth, numjobs, rwmixread, size, runtime). */
public final class FioParams {
  private FioParams() {}

  public static List<ParamSpec> specs() {
    return List.of(
        ParamSpec.choice("rw", IoJobSpec.PATTERNS, "fio's rw: the I/O pattern"),
        ParamSpec.longValue("bs", 1, 1L << 30, "fio's bs: block size").withUnit("bytes"),
        ParamSpec.integer("iodepth", 1, 65536, "fio's iodepth: I/Os in flight per job"),
        ParamSpec.integer("numjobs", 1, 4096, "fio's numjobs: jobs, each with a file of its own"),
        ParamSpec.integer("rwmixread", 0, 100, "fio's rwmixread: percent of reads of randrw"),
        ParamSpec.longValue("size", 0, Long.MAX_VALUE / 2, "fio's size: bytes per job file (0: the whole device, split"
            + " among the jobs)").withUnit("bytes"),
        ParamSpec.decimal("runtime", 0.000001, 86_400 * 30, "fio's runtime; time_based: the jobs loop until then")
            .withUnit("s"),
        ParamSpec.bool("sync", "fio's sync (O_SYNC): a write completes when durable (on an ssd: followed by a flush)"),
        ParamSpec.decimal("rate_iops", 0, 1e9, "fio's rate_iops: I/Os a second each job issues at most, evenly spaced, "
            + "as many in flight as iodepth allows (0: as fast as iodepth lets)").withUnit("IOPS"),
        submit());
  }

  static ParamSpec submit() {
    return ParamSpec.decimal("submitUs", 0.001, 1e6, "one-way delay between the jobs and the device");
  }

  /** The job group of a scenario against a device of {@code capacityBytes}, with fio's sizing rules checked. */
  public static IoJobSpec job(Params p, long capacityBytes) {
    return job(p, capacityBytes, false);
  }

  /** As {@link #job(Params, long)}; {@code volatileCache}: the device needs a flush for a write to be durable. */
  public static IoJobSpec job(Params p, long capacityBytes, boolean volatileCache) {
    long bs = p.getLong("bs");
    int numjobs = p.getInt("numjobs");
    long size = p.getLong("size");
    if (size == 0) size = capacityBytes / numjobs / bs * bs;
    if (size < bs) {
      throw new BadInputException("size: must hold at least one block of bs = " + bs + " bytes per job, got " + size
          + (p.getLong("size") == 0 ? " (the device's " + capacityBytes + " bytes split among " + numjobs + " jobs)"
          : ""));
    }
    if (Math.multiplyHigh(size, numjobs) != 0 || size * numjobs > capacityBytes) {
      throw new BadInputException("size: numjobs x size must fit on the device (" + capacityBytes + " bytes), got "
          + numjobs + " x " + size);
    }
    return new IoJobSpec(p.getString("rw"), bs, p.getInt("iodepth"), numjobs, p.getInt("rwmixread"), size, 0,
        VirtualTime.seconds(p.getDouble("runtime")), Math.round(p.getDouble("submitUs") * VirtualTime.NS_PER_US),
        p.getBoolean("sync") && volatileCache,
        p.asMap().get("rate_iops") instanceof Number r ? r.doubleValue() : 0);
  }
}
