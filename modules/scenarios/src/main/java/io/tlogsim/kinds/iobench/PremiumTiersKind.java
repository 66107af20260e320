package io.tlogsim.kinds.iobench;

import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.scenario.BadInputException;
import io.tlogsim.scenario.DeviceParams;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Params;
import io.tlogsim.scenario.PreparedRun;
import io.tlogsim.scenario.RunControl;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioResult;
import io.tlogsim.scenario.summary.DeviceSummary;
import io.tlogsim.scenario.summary.Summary;
import io.tlogsim.storage.DeviceConfigException;
import io.tlogsim.storage.DeviceSeries;
import io.tlogsim.storage.DeviceSetup;
import io.tlogsim.storage.DeviceStats;
import io.tlogsim.storage.ManagedInstanceBand;
import io.tlogsim.storage.PremiumCatalog;
import io.tlogsim.storage.PremiumSpec;
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
 * {@code premium-tiers}: a saturating random write load on one managed-instance file per band of the per-file table
 * (each file as large as its band allows, on the smallest disk that holds it), for {@code bandRuntime}; and on a
 * bursting disk ({@code burstTier}, P20) for {@code burstRuntime}, long enough to spend its credits. All in one run.
 * The summary gives each band's IOPS and its busiest whole second after the first (where a throttle's short burst
 * passes), and for the bursting disk its IOPS while bursting, when it fell back (the first second below halfway between
 * the burst and the base rate) and its IOPS after.
 */
public final class PremiumTiersKind implements ScenarioKind {
  public static final String NAME = "premium-tiers";
  private final PremiumCatalog tables;

  public PremiumTiersKind() {
    this(StorageTables.premium());
  }

  public PremiumTiersKind(PremiumCatalog tables) {
    this.tables = tables;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<ParamSpec> params() {
    return List.of(
        ParamSpec.decimal("premiumLatencyUs", 0.001, 1e7, "premium disk: base latency"),
        ParamSpec.decimal("premiumThrottleBurstMs", 0.001, 10_000, "premium disk: burst a throttle lets through"),
        ParamSpec.bool("premiumCreditBursting", "premium disk: credit bursting where the tier allows it"),
        ParamSpec.longValue("bs", 1, 1L << 30, "fio's bs: block size of the random writes").withUnit("bytes"),
        ParamSpec.integer("iodepth", 1, 65536, "fio's iodepth: writes in flight per disk"),
        ParamSpec.decimal("bandRuntime", 1, 86_400, "seconds of load on each band's file"),
        ParamSpec.choice("burstTier", tables.tierNames(), "the disk that bursts"),
        ParamSpec.decimal("burstRuntime", 1, 86_400, "seconds of load on the bursting disk"),
        FioParams.submit());
  }

  @Override
  public void validate(Params p) {
    build(p);
  }

  @Override
  public long endTimeNanos(Params p) {
    return VirtualTime.seconds(Math.max(p.getDouble("bandRuntime"), p.getDouble("burstRuntime")));
  }

  record Disk(String name, ManagedInstanceBand band, PremiumSpec spec, StorageAssembly.Placed device, int jobs,
      double runtime) {}

  record Model(StorageAssembly assembly, List<Disk> disks) {}

  Model build(Params p) {
    long latency = Math.round(p.getDouble("premiumLatencyUs") * 1e3);
    long burst = Math.round(p.getDouble("premiumThrottleBurstMs") * 1e6);
    boolean credits = p.getBoolean("premiumCreditBursting");
    StorageAssembly a = new StorageAssembly();
    List<Disk> disks = new ArrayList<>();
    try {
      for (ManagedInstanceBand band : tables.bands()) {
        PremiumSpec spec = PremiumSpec.forFile(tables, band.maxGiB(), latency, burst, credits, 0);
        disks.add(add(a, p, "mi-" + band.name().toLowerCase(Locale.ROOT), band, spec, p.getDouble("bandRuntime")));
      }
      String tier = p.getString("burstTier");
      PremiumSpec spec = PremiumSpec.named(tables, tier, latency, burst, credits, 0);
      if (!spec.creditBursting()) {
        throw new BadInputException("burstTier: must be a tier that bursts on credits (with premiumCreditBursting"
            + " = true), got " + tier);
      }
      disks.add(add(a, p, tier.toLowerCase(Locale.ROOT) + "-burst", null, spec, p.getDouble("burstRuntime")));
    } catch (DeviceConfigException e) {
      throw new BadInputException(DeviceParams.key("premium", e.key()) + ": " + e.detail());
    }
    return new Model(a, disks);
  }

  private static Disk add(StorageAssembly a, Params p, String name, ManagedInstanceBand band, PremiumSpec spec,
      double runtime) {
    long bs = p.getLong("bs");
    IoJobSpec job = new IoJobSpec("randwrite", bs, p.getInt("iodepth"), 1, 0, spec.capacityBytes() / bs * bs, 0,
        VirtualTime.seconds(runtime), Math.round(p.getDouble("submitUs") * 1e3));
    StorageAssembly.Placed dev = a.device(name, new DeviceSetup.OfPremium(spec));
    return new Disk(name, band, spec, dev, IoJobs.place(a, "jobs-" + name, job, dev), runtime);
  }

  @Override
  public PreparedRun prepare(String scenario, Params p, RunControl control) {
    return PreparedRun.of(() -> build(p), m -> m.assembly().topology(), m -> m.assembly().models(),
        (m, out) -> result(scenario, p, control, m, out));
  }

  private ScenarioResult result(String scenario, Params p, RunControl control, Model m, RunOutcome out) {
    double seconds = VirtualTime.toSeconds(endTimeNanos(p));
    List<DeviceStats> devices = StorageReport.devices(m.assembly(), out);

    Map<String, Object> devs = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "scenario %s (premium-tiers), seed %d: random %d B writes, %d in flight, %s s"
        + " per band, %s s on %s", scenario, control.seed(), p.getLong("bs"), p.getInt("iodepth"),
        IobenchKind.fmt(p.getDouble("bandRuntime")), IobenchKind.fmt(p.getDouble("burstRuntime")),
        p.getString("burstTier")));
    lines.add("file band        disk   cap IOPS   simulated IOPS   busiest second   mean latency");
    long ios = 0;
    Map<String, Histogram> hist = new LinkedHashMap<>();
    for (Disk d : m.disks()) {
      DeviceStats st = (DeviceStats) out.results().get(d.device().id());
      IoJobStats jobs = (IoJobStats) out.results().get(d.jobs());
      ios += jobs.ios();
      StorageReport.histograms(hist, d.name(), jobs);
      int window = (int) Math.round(d.runtime());
      Map<String, Object> dm = DeviceSummary.deviceWindow(st, window);
      dm.put("capIops", d.spec().iopsCap());
      if (d.band() != null) {
        lines.add(String.format(Locale.ROOT, "%-16s %-5s %,9d   %,14.1f   %,14d   %9.1f ms", d.band().name(),
            d.spec().disk().name(), d.spec().iopsCap(), (double) dm.get("iops"), (long) dm.get("peakIops1s"),
            st.meanLatencyUs() / 1e3));
      } else {
        burst(d, st, window, dm, lines);
      }
      devs.put(d.name(), dm);
    }
    long allIos = ios;
    Map<String, Object> s = Summary.head(scenario, null, control.seed(), seconds, null, out.digestHex())
        .devices(devs)
        .run(control, out, r -> r.iosPerWallSecond(allIos))
        .params(p)
        .toMap();
    lines.add(StorageReport.runLine(control, out, ios));
    lines.add("digest       " + out.digestHex());
    return StorageReport.result(s, lines, hist, devices);
  }

  /**
   * The bursting disk: IOPS while bursting (whole seconds from the second to the last before the fall), when it fell
   * back (the first second below halfway between burst and base rate; -1 if it never did), and IOPS after (from two
   * seconds after the fall), with the busiest second after.
   */
  private static void burst(Disk d, DeviceStats st, int window, Map<String, Object> dm, List<String> lines) {
    DeviceSeries s = st.series();
    PremiumSpec spec = d.spec();
    double halfway = (spec.burstIops() + spec.iopsCap()) / 2.0;
    int fall = -1;
    for (int i = 1; i < Math.min(window, s.seconds()); i++) {
      if (s.ios(i) < halfway) {
        fall = i;
        break;
      }
    }
    int burstEnd = fall < 0 ? Math.min(window, s.seconds()) : fall;
    dm.put("burstIops", StorageReport.round(mean(s, 1, burstEnd - 1)));
    dm.put("burstSeconds", fall);
    dm.put("burstMinutes", fall < 0 ? -1.0 : StorageReport.round(fall / 60.0));
    double after = fall < 0 ? 0 : mean(s, fall + 2, Math.min(window, s.seconds()));
    dm.put("afterBurstIops", StorageReport.round(after));
    dm.put("peakIops1sAfterBurst", fall < 0 ? 0 : DeviceSummary.peakIops(s, fall + 2, window));
    long spent = st.counter("burstCreditsSpentAtNanos");
    lines.add(String.format(Locale.ROOT, "%s (%s, %,d IOPS, bursting to %,d): %,.1f IOPS for %s, then %,.1f IOPS (busiest"
        + " second after: %,d); credits ran out at %s s", d.name(), spec.disk().name(), spec.iopsCap(),
        spec.burstIops(), mean(s, 1, burstEnd - 1), fall < 0 ? "the whole run" : String.format(Locale.ROOT,
        "%.1f min", fall / 60.0), after, (long) dm.get("peakIops1sAfterBurst"),
        spent < 0 ? "-" : String.format(Locale.ROOT, "%.1f", spent / 1e9)));
  }

  /** Mean IOPS over whole seconds [from, to). */
  private static double mean(DeviceSeries s, int from, int to) {
    long sum = 0;
    int n = 0;
    for (int i = Math.max(0, from); i < Math.min(to, s.seconds()); i++) {
      sum += s.ios(i);
      n++;
    }
    return n == 0 ? 0 : sum / (double) n;
  }
}
