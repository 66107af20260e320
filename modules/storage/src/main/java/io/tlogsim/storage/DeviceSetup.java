package io.tlogsim.storage;

/**
 * What device to build: one of the models with its spec, or a RAID controller with its members (each member a
 * device of its own, built from the member setup). {@link StorageAssembly} turns a setup into components and links.
 */
public sealed interface DeviceSetup {

  /** Usable bytes. */
  long capacityBytes();

  /** The GCM-1 device: latency + bytes / rate, one request at a time; the latency's spread (0: fixed). */
  record Simple(long latencyNanos, double mbPerSec, long capacityBytes, double latencyCv) implements DeviceSetup {
    public Simple(long latencyNanos, double mbPerSec, long capacityBytes) {
      this(latencyNanos, mbPerSec, capacityBytes, 0);
    }
  }

  /** A device measured by calibrate-device. */
  record OfProfile(ProfileSpec spec) implements DeviceSetup {
    public long capacityBytes() {
      return spec.capacityBytes();
    }
  }

  record OfSsd(SsdSpec spec) implements DeviceSetup {
    public long capacityBytes() {
      return spec.capacityBytes();
    }
  }

  record OfHdd(HddSpec spec) implements DeviceSetup {
    public long capacityBytes() {
      return spec.capacityBytes();
    }
  }

  record OfPremium(PremiumSpec spec) implements DeviceSetup {
    public long capacityBytes() {
      return spec.capacityBytes();
    }
  }

  /** A RAID controller over {@code spec.members()} members built from {@code member} (which must not be a RAID). */
  record OfRaid(RaidSpec spec, DeviceSetup member) implements DeviceSetup {
    public OfRaid {
      if (member instanceof OfRaid) throw new DeviceConfigException("memberDevice", "a member cannot be a RAID");
      if (member.capacityBytes() != spec.memberCapacityBytes()) {
        throw new IllegalArgumentException("the RAID spec's member capacity " + spec.memberCapacityBytes()
            + " differs from its members' " + member.capacityBytes());
      }
    }

    public long capacityBytes() {
      return spec.capacityBytes();
    }
  }
}
