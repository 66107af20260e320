package io.tlogsim.storage;

import io.tlogsim.kernel.Protocol;
import io.tlogsim.kernel.SimComponent;
import io.tlogsim.kernel.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds devices (a RAID controller with its members, each its own component) and their requesters into one
 * topology, with every link's lookahead taken from the models' own least delays. Other components can be added
 * through {@link #component} and {@link #link} (fio-like jobs: {@code io.tlogsim.storage.load.IoJobs#place}).
 */
public final class StorageAssembly {
  private final Topology.Builder tb = Topology.builder();
  private final List<SimComponent> models = new ArrayList<>();
  private final List<Device> devices = new ArrayList<>();
  private final List<Integer> deviceIds = new ArrayList<>();

  /** A placed device: its component id and model. */
  public record Placed(int id, Device device) {}

  /** Adds a component whose model is known now (its links may come later); returns its id. */
  public int component(String name, List<Protocol> inputs, List<Protocol> outputs, SimComponent model) {
    int id = tb.component(name, inputs, outputs);
    models.add(model);
    return id;
  }

  /** Declares a component whose model is given later through {@link #setModel}. */
  public int component(String name, List<Protocol> inputs, List<Protocol> outputs) {
    return component(name, inputs, outputs, null);
  }

  public void setModel(int id, SimComponent model) {
    models.set(id, model);
  }

  public int link(int from, int to, int port, long lookaheadNanos) {
    return tb.link(from, to, port, lookaheadNanos);
  }

  /** Builds a device and, for a RAID, its members (named NAME-m0, NAME-m1, ...). */
  public Placed device(String name, DeviceSetup setup) {
    if (setup instanceof DeviceSetup.OfRaid raid) {
      int ctl = component(name, List.of(DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS),
          List.of(DeviceProtocol.COMPLETIONS, DeviceProtocol.REQUESTS));
      int n = raid.spec().members();
      int[] toMember = new int[n];
      for (int m = 0; m < n; m++) {
        Placed member = device(name + "-m" + m, raid.member());
        toMember[m] = link(ctl, member.id(), DeviceProtocol.REQUESTS_PORT, raid.spec().controllerNanos());
        link(member.id(), ctl, RaidController.MEMBER_PORT, member.device().replyLookaheadNanos());
      }
      RaidController c = new RaidController(name, raid.spec(), toMember);
      setModel(ctl, c);
      return remember(ctl, c);
    }
    Device d;
    if (setup instanceof DeviceSetup.Simple s) {
      d = new SimpleDevice(name, s.latencyNanos(), s.mbPerSec());
    } else if (setup instanceof DeviceSetup.OfProfile pr) {
      d = new ProfileDevice(name, pr.spec());
    } else if (setup instanceof DeviceSetup.OfSsd s) {
      d = new Ssd(name, s.spec());
    } else if (setup instanceof DeviceSetup.OfHdd h) {
      d = new Hdd(name, h.spec());
    } else {
      d = new PremiumDisk(name, ((DeviceSetup.OfPremium) setup).spec());
    }
    int id = component(name, DeviceProtocol.REQUESTS, DeviceProtocol.COMPLETIONS, d);
    return remember(id, d);
  }

  private int component(String name, Protocol in, Protocol out, SimComponent model) {
    return component(name, List.of(in), List.of(out), model);
  }

  private Placed remember(int id, Device d) {
    devices.add(d);
    deviceIds.add(id);
    return new Placed(id, d);
  }

  /**
   * Links a requester to a device both ways: requests after {@code submitNanos}, completions after the device's least
   * reply delay. Returns the link to the device.
   */
  public int connect(int requester, Placed device, int completionsPort, long submitNanos) {
    int toDevice = link(requester, device.id(), DeviceProtocol.REQUESTS_PORT, submitNanos);
    link(device.id(), requester, completionsPort, device.device().replyLookaheadNanos());
    return toDevice;
  }

  /** Every device built so far (members included), in the order built, with its component id. */
  public List<Placed> devices() {
    List<Placed> out = new ArrayList<>();
    for (int i = 0; i < devices.size(); i++) out.add(new Placed(deviceIds.get(i), devices.get(i)));
    return out;
  }

  public Topology topology() {
    return tb.build();
  }

  public List<SimComponent> models() {
    for (int i = 0; i < models.size(); i++) {
      if (models.get(i) == null) throw new IllegalStateException("component " + i + " has no model");
    }
    return List.copyOf(models);
  }
}
