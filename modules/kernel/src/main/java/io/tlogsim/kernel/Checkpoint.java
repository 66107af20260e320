package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * A consistent cut of a run: the state of every component at the start of window {@code window}, holding every
 * batch sent before that window and none sent in it. Restoring all components from it and going on gives the same
 * digest as never stopping.
 *
 * @param simulatedNanos the earliest event pending at the cut (how far the run had come)
 * @param messages kernel messages exchanged before the cut (so that a resumed run counts them all)
 */
public record Checkpoint(long window, long simulatedNanos, long messages, List<ComponentState> components)
    implements CborSerializable {

  /**
   * Where this checkpoint is not a consistent cut of {@code topo}: for every link, what the sender had sent must be
   * exactly what the receiver had taken in. Empty when it is one.
   */
  public List<String> inconsistencies(Topology topo) {
    List<String> out = new ArrayList<>();
    if (components.size() != topo.components()) {
      out.add("checkpoint holds " + components.size() + " components, the topology " + topo.components());
      return out;
    }
    for (int l = 0; l < topo.links(); l++) {
      ComponentState from = components.get(topo.from(l)), to = components.get(topo.to(l));
      long sent = from.outSeq()[topo.outSlot(l)], taken = to.inSeq()[topo.inRank(l)];
      if (sent != taken) {
        out.add(topo.name(topo.from(l)) + " -> " + topo.name(topo.to(l)) + ": " + sent + " events sent, " + taken
            + " taken in");
      }
    }
    return out;
  }
}
