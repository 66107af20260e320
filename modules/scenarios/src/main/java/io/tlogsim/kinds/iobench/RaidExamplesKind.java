package io.tlogsim.kinds.iobench;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.DeviceParams;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.summary.Summary;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.PremiumCatalog;
import io.tlogsim.storage.StorageAssembly;
import io.tlogsim.storage.StorageTables;
import io.tlogsim.storage.load.IoJobSpec;
import io.tlogsim.storage.load.IoJobStats;
import io.tlogsim.storage.load.IoJobs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code raid-examples}: the three theoretical 64 KB random examples of REFERENCE.md section 4 (RAID 1 of 2 disks,
 * RAID 5 of 5, RAID 10 of 14, 15K disks), each array a controller with member disks of its own, all in one run, each
 * under a saturating random load (randrw at rwmixread) over its whole capacity. The arrays' IOPS and MiB/s come out of
 * the disk and controller models; the published figures are only printed beside them.
 */
public final class RaidExamplesKind implements ScenarioKind {
  public static final String NAME = "raid-examples";
  private static final int[] LEVELS = {1, 5, 10};
  private final PremiumCatalog tables;

  public RaidExamplesKind() {
    this(StorageTables.premium());
  }

  public RaidExamplesKind(PremiumCatalog tables) {
    this.tables = tables;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamSpec> params() {
    List<ParamSpec> p = new ArrayList<>(DeviceParams.specs(tables, false));
    for (int level : LEVELS) {
      p.add(ParamSpec.integer("raid" + level + "Members", 1, 64, "members of the RAID " + level + " example"));
      p.add(ParamSpec.decimal("raid" + level + "DiskGiB", 1, 1 << 20, "disk size of the RAID " + level + " example"));
    }
    p.add(ParamSpec.longValue("bs", 1, 1L << 30, "fio's bs: block size").withUnit("bytes"));
    p.add(ParamSpec.integer("rwmixread", 0, 100, "fio's rwmixread: percent of reads"));
    p.add(ParamSpec.integer("iodepthPerMember", 1, 4096, "I/Os in flight per member disk"));
    p.add(ParamSpec.decimal("runtime", 0.000001, 86_400, "fio's runtime").withUnit("s"));
    p.add(FioParams.submit());
    return p;
  }

  @Override
  public void validate(Params p) {
    build(p);
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(p.getDouble("runtime"));
  }

  /** One example: its name (raid10-14x73g), the controller, its jobs. */
  record Array(String name, StorageAssembly.Placed controller, int jobs, IoJobSpec spec) {}

  record Model(StorageAssembly assembly, List<Array> arrays) {}

  Model build(Params p) {
    StorageAssembly a = new StorageAssembly();
    List<Array> arrays = new ArrayList<>();
    for (int level : LEVELS) {
      int members = p.getInt("raid" + level + "Members");
      double disk = p.getDouble("raid" + level + "DiskGiB");
      DeviceSetup setup = DeviceParams.raid(p, tables, level, members, disk);
      String name = String.format(Locale.ROOT, "raid%d-%dx%sg", level, members, IobenchKind.fmt(disk));
      long bs = p.getLong("bs");
      IoJobSpec spec = new IoJobSpec("randrw", bs, members * p.getInt("iodepthPerMember"), 1, p.getInt("rwmixread"),
          setup.capacityBytes() / bs * bs, 0, endTimeNanos(p), Math.round(p.getDouble("submitUs") * 1e3));
      StorageAssembly.Placed ctl = a.device(name, setup);
      arrays.add(new Array(name, ctl, IoJobs.place(a, "jobs-" + name, spec, ctl), spec));
    }
    return new Model(a, arrays);
  }

  @Override
  public PreparedRun prepare(String scenario, Params p, RunControl control) {
    return PreparedRun.of(() -> build(p), m -> m.assembly().topology(), m -> m.assembly().models(),
        (m, out) -> result(scenario, p, control, m, out));
  }

  private ScenarioResult result(String scenario, Params p, RunControl control, Model m, RunOutcome out) {
    double seconds = p.getDouble("runtime");
    List<DeviceStats> devices = StorageReport.devices(m.assembly(), out);

    Summary summary = Summary.head(scenario, null, control.seed(), seconds, null, out.digestHex())
        .devices(devices, seconds);
    Map<String, Object> jobs = new LinkedHashMap<>();
    long ios = 0;
    Map<String, Histogram> hist = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "scenario %s (raid-examples), seed %d, %s simulated s: random %d B I/O, %d%%"
        + " reads, %d in flight per disk", scenario, control.seed(), IobenchKind.fmt(seconds), p.getLong("bs"),
        p.getInt("rwmixread"), p.getInt("iodepthPerMember")));
    for (Array arr : m.arrays()) {
      IoJobStats j = (IoJobStats) out.results().get(arr.jobs());
      DeviceStats ctl = (DeviceStats) out.results().get(arr.controller().id());
      jobs.put(arr.name(), StorageReport.jobs(j, seconds));
      StorageReport.histograms(hist, arr.name(), j);
      ios += j.ios();
      double iops = StorageReport.ratio(ctl.reads() + ctl.writes(), seconds);
      lines.add(String.format(Locale.ROOT, "%-14s %,8.1f IOPS %7.2f MiB/s  mean latency %6.1f ms  back-end %,d reads"
          + " %,d writes  (%s)", arr.name(), iops, StorageReport.ratio(ctl.bytes() / (double) (1 << 20), seconds),
          ctl.meanLatencyUs() / 1e3, ctl.counter("backendReads"), ctl.counter("backendWrites"), ctl.model()));
    }
    long allIos = ios;
    Map<String, Object> s = summary.put("jobs", jobs).run(control, out, r -> r.iosPerWallSecond(allIos)).params(p)
        .toMap();
    lines.add(StorageReport.runLine(control, out, ios));
    lines.add("digest       " + out.digestHex());
    return StorageReport.result(s, lines, hist, devices);
  }
}
