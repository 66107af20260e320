package io.tlogsim.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;
import io.tlogsim.kernel.Checkpoint;
import io.tlogsim.kernel.CheckpointPolicy;
import io.tlogsim.kernel.FactBatch;
import io.tlogsim.kernel.RecordedFact;
import io.tlogsim.kernel.RunOutcome;
import io.tlogsim.kernel.RunSettings;
import io.tlogsim.kernel.Simulation;
import io.tlogsim.kernel.Topology;
import io.tlogsim.kernel.VirtualTime;
import io.tlogsim.storage.load.IoJobSpec;
import io.tlogsim.storage.load.IoJobs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every model together (an SSD, an HDD with a reordering queue, a bursting premium disk with a log-rate cap, a RAID 5
 * with a write-back cache over HDDs, a RAID 10 over SSDs): the same digest and results on 1, 2 and 8 threads; every
 * checkpoint resumes through CBOR to the same digest; the per-second facts are the series of the results.
 */
class DeterminismTest {
  private static final ObjectMapper CBOR = new ObjectMapper(new CBORFactory());
  private static final JsonMapper JSON = new JsonMapper();
  private static final long END = VirtualTime.seconds(2.5);

  record Rig(Topology topology, List<io.tlogsim.kernel.SimComponent> models, List<StorageAssembly.Placed> devices) {}

  static Rig rig() {
    StorageAssembly a = new StorageAssembly();
    IoJobSpec mixed = new IoJobSpec("randrw", 16 << 10, 8, 2, 70, 4 * Rigs.GIB, 0, END, 2_000);
    IoJobs.place(a, "jobs-ssd", mixed, a.device("ssd", new DeviceSetup.OfSsd(Rigs.ssd(false))));
    IoJobs.place(a, "jobs-hdd", mixed, a.device("hdd", new DeviceSetup.OfHdd(Rigs.hdd15k(146 * Rigs.GIB, 8))));
    PremiumSpec p20 = PremiumSpec.named(Catalogs.azure(1), "P20", 2_000_000, 50_000_000, true, 0);
    IoJobs.place(a, "jobs-p20", new IoJobSpec("randwrite", 8 << 10, 64, 1, 0, Rigs.GIB, 0, END, 1_000),
        a.device("p20", new DeviceSetup.OfPremium(p20)));
    PremiumSpec file = PremiumSpec.forFile(Catalogs.azure(), 300, 2_000_000, 50_000_000, true, 2);
    IoJobs.place(a, "jobs-file", new IoJobSpec("randrw", 64 << 10, 32, 1, 50, 64 * Rigs.GIB, 0, END, 1_000),
        a.device("file", new DeviceSetup.OfPremium(file)));
    HddSpec disk = Rigs.hdd15k(73 * Rigs.GIB, 1);
    RaidSpec r5 = new RaidSpec(5, 4, 64 << 10, disk.capacityBytes(), true, true, 2 << 20, 50_000, 20_000, 4);
    IoJobs.place(a, "jobs-r5", new IoJobSpec("randrw", 8 << 10, 32, 1, 50, 200 * Rigs.GIB, 0, END, 1_000),
        a.device("r5", new DeviceSetup.OfRaid(r5, new DeviceSetup.OfHdd(disk))));
    SsdSpec flash = Rigs.ssd(true);
    RaidSpec r10 = new RaidSpec(10, 4, 64 << 10, flash.capacityBytes(), false, true, 0, 50_000, 10_000, 4);
    IoJobs.place(a, "jobs-r10", new IoJobSpec("write", 256 << 10, 4, 1, 0, Rigs.GIB, 0, END, 1_000),
        a.device("r10", new DeviceSetup.OfRaid(r10, new DeviceSetup.OfSsd(flash))));
    return new Rig(a.topology(), a.models(), a.devices());
  }

  private static String results(RunOutcome out) throws Exception {
    return JSON.writeValueAsString(out.results());
  }

  @Test
  void sameDigestAndResultsOnAnyThreads() throws Exception {
    Rig r = rig();
    RunOutcome one = Simulation.run(r.topology(), r.models(), RunSettings.of(END, 7, 1));
    for (int threads : new int[] {2, 8}) {
      Rig again = rig();
      RunOutcome other = Simulation.run(again.topology(), again.models(), RunSettings.of(END, 7, threads));
      assertEquals(one.digestHex(), other.digestHex(), threads + " threads");
      assertEquals(results(one), results(other), threads + " threads");
    }
    for (StorageAssembly.Placed p : r.devices()) {
      DeviceStats d = (DeviceStats) one.results().get(p.id());
      assertTrue(d.requests() > 0, p.device().name() + " did nothing");
    }
    Rig seed = rig();
    RunOutcome other = Simulation.run(seed.topology(), seed.models(), RunSettings.of(END, 8, 2));
    assertTrue(!one.digestHex().equals(other.digestHex()), "another seed, another run");
    System.out.printf("all models: %,d events in %,d windows, %.3f messages/event%n", one.events(), one.windows(),
        one.messagesPerEvent());
  }

  @Test
  void everyCheckpointResumesThroughCborToTheSameDigest() throws Exception {
    List<Checkpoint> taken = new ArrayList<>();
    Rig r0 = rig();
    RunOutcome whole0 = Simulation.run(r0.topology(), r0.models(), RunSettings.of(END, 3, 4));
    Rig r = rig();
    RunOutcome whole = Simulation.run(r.topology(), r.models(),
        RunSettings.of(END, 3, 4).withCheckpoints(CheckpointPolicy.everyWindows(whole0.windows() / 4), taken::add));
    assertTrue(taken.size() >= 3, "checkpoints: " + taken.size());
    for (Checkpoint cp : taken) {
      Checkpoint stored = CBOR.readValue(CBOR.writeValueAsBytes(cp), Checkpoint.class);
      Rig fresh = rig();
      RunOutcome resumed = Simulation.run(fresh.topology(), fresh.models(), RunSettings.of(END, 3, 4)
          .resumingFrom(stored));
      assertEquals(whole0.digestHex(), resumed.digestHex(), "window " + cp.window());
      assertEquals(results(whole), results(resumed), "window " + cp.window());
    }
  }

  @Test
  void theFactsOfEachSecondAreTheSeriesOfTheResults() {
    List<RecordedFact> facts = new ArrayList<>();
    Rig r = rig();
    RunOutcome out = Simulation.run(r.topology(), r.models(),
        RunSettings.of(END, 5, 2).withFacts((FactBatch b) -> facts.addAll(b.facts())));
    int intervals = 0;
    for (StorageAssembly.Placed p : r.devices()) {
      DeviceStats d = (DeviceStats) out.results().get(p.id());
      List<DeviceInterval> mine = facts.stream().map(RecordedFact::fact).filter(f -> f instanceof DeviceInterval)
          .map(f -> (DeviceInterval) f).filter(f -> f.device().equals(d.name()))
          .sorted(java.util.Comparator.comparingLong(DeviceInterval::fromNanos)).toList();
      assertEquals(3, mine.size(), d.name() + ": seconds 0, 1 and the half second 2");
      for (int s = 0; s < 3; s++) {
        DeviceInterval f = mine.get(s);
        assertEquals(s * 1_000_000_000L, f.fromNanos());
        assertEquals(d.series().reads()[s], f.reads(), d.name() + " second " + s);
        assertEquals(d.series().writes()[s], f.writes(), d.name() + " second " + s);
        assertEquals(d.series().bytes()[s], f.bytes(), d.name() + " second " + s);
      }
      assertEquals(END, mine.get(2).toNanos());
      intervals += mine.size();
    }
    assertTrue(facts.stream().anyMatch(f -> f.fact() instanceof PremiumDisk.BurstCreditsSpent
        && ((PremiumDisk.BurstCreditsSpent) f.fact()).device().equals("p20")),
        "the P20 of a one-second burst bucket runs out of credits");
    assertEquals(r.devices().size() * 3, intervals);
  }
}
