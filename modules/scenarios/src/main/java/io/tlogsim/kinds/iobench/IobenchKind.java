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
 * {@code iobench}: fio against one device (or a RAID with its members), with fio's parameter names (rw, bs, iodepth,
 * numjobs, rwmixread, size, runtime) and a printed result that reads like fio's. Defaults: config/application.conf,
 * tlogsim.kinds.iobench (device settings from tlogsim.storage.device).
 */
public final class IobenchKind implements ScenarioKind {
  public static final String NAME = "iobench";
  private final PremiumCatalog tables;

  public IobenchKind() {
    this(StorageTables.premium());
  }

  public IobenchKind(PremiumCatalog tables) {
    this.tables = tables;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamSpec> params() {
    List<ParamSpec> p = new ArrayList<>(DeviceParams.specs(tables, true));
    p.addAll(FioParams.specs());
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

  /** The components of one run: the device (and members), the jobs. */
  public record Model(StorageAssembly assembly, StorageAssembly.Placed device, int jobs, IoJobSpec spec)
      {}

  public Model build(Params p) {
    DeviceSetup setup = DeviceParams.setup(p, tables);
    IoJobSpec spec = FioParams.job(p, setup.capacityBytes(), DeviceParams.volatileWriteCache(p.getString("device")));
    StorageAssembly a = new StorageAssembly();
    StorageAssembly.Placed dev = a.device(p.getString("device"), setup);
    int jobs = IoJobs.place(a, "jobs", spec, dev);
    return new Model(a, dev, jobs, spec);
  }

  @Override
  public PreparedRun prepare(String scenario, Params p, RunControl control) {
    return PreparedRun.of(() -> build(p), m -> m.assembly().topology(), m -> m.assembly().models(),
        (m, out) -> result(scenario, p, control, m, out));
  }

  private ScenarioResult result(String scenario, Params p, RunControl control, Model m, RunOutcome out) {
    double seconds = p.getDouble("runtime");
    IoJobStats jobs = (IoJobStats) out.results().get(m.jobs());
    List<DeviceStats> devices = StorageReport.devices(m.assembly(), out);
    DeviceStats top = (DeviceStats) out.results().get(m.device().id());

    Map<String, Object> s = Summary.head(scenario, null, control.seed(), seconds, null, out.digestHex())
        .devices(devices, seconds)
        .put("jobs", StorageReport.jobs(jobs, seconds))
        .run(control, out, r -> r.iosPerWallSecond(jobs.ios()))
        .params(p)
        .toMap();

    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "scenario %s (iobench), seed %d, %s simulated s, device %s: %s", scenario,
        control.seed(), fmt(seconds), top.name(), top.model()));
    lines.addAll(StorageReport.fioLines("jobs", m.spec(), jobs, top, seconds));
    for (DeviceStats d : devices) {
      if (d == top) continue;
      lines.add(String.format(Locale.ROOT, "  %s: ios=%d/%d, util=%.2f%%, mean latency %.1f us", d.name(), d.reads(),
          d.writes() + d.zeroFills(), StorageReport.ratio(d.busyNanos() / 1e7, seconds), d.meanLatencyUs()));
    }
    lines.add(StorageReport.runLine(control, out, jobs.ios()));
    lines.add("digest       " + out.digestHex());
    Map<String, Histogram> hist = new LinkedHashMap<>();
    StorageReport.histograms(hist, "jobs", jobs);
    return StorageReport.result(s, lines, hist, devices);
  }

  static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
