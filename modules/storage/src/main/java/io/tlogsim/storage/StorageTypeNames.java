package io.tlogsim.storage;

import io.tlogsim.kernel.TypeNames;
import io.tlogsim.storage.load.IoJobStats;
import io.tlogsim.storage.load.IoJobs;

/**
 * The storage models' values that are checkpointed, recorded or reported (model states, facts, results): their
 * logical type names in journals and cluster messages ({@link TypeNames}). A name never changes once released; the
 * third argument is the Java class name journals from before logical names hold (kept when a class moves or is
 * renamed). A new state, fact or result record is added here, or its run fails naming it.
 */
public final class StorageTypeNames implements TypeNames {
  @Override
  public void declare(Declarations names) {
    names
        .add("DeviceInterval", DeviceInterval.class, "io.tlogsim.storage.DeviceInterval")
        .add("DeviceStats", DeviceStats.class, "io.tlogsim.storage.DeviceStats")
        .add("Hdd.State", Hdd.State.class, "io.tlogsim.storage.Hdd$State")
        .add("PremiumDisk.BurstCreditsSpent", PremiumDisk.BurstCreditsSpent.class,
            "io.tlogsim.storage.PremiumDisk$BurstCreditsSpent")
        .add("PremiumDisk.State", PremiumDisk.State.class, "io.tlogsim.storage.PremiumDisk$State")
        .add("ProfileDevice.State", ProfileDevice.State.class, "io.tlogsim.storage.ProfileDevice$State")
        .add("RaidController.State", RaidController.State.class, "io.tlogsim.storage.RaidController$State")
        .add("SimpleDevice.State", SimpleDevice.State.class, "io.tlogsim.storage.SimpleDevice$State")
        .add("Ssd.State", Ssd.State.class, "io.tlogsim.storage.Ssd$State")
        .add("IoJobStats", IoJobStats.class, "io.tlogsim.storage.load.IoJobStats")
        .add("IoJobs.State", IoJobs.State.class, "io.tlogsim.storage.load.IoJobs$State");
  }
}
