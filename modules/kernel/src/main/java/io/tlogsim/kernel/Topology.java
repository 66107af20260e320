package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Components and the links between them. A component has input ports, each accepting one {@link Protocol}, and
 * declares the protocols it emits. A link goes from one component to one input port of another and declares its
 * lookahead: the least delay of any event on it (DESIGN.md principle 3). There is at most one link from a component
 * to another, so a window sends at most one batch per destination. Immutable once built.
 */
public final class Topology {
  private final String[] names;
  private final Protocol[][] inputs; // per component: the protocol of each input port
  private final Protocol[][] outputs; // per component: the protocols it emits
  private final int[] linkFrom;
  private final int[] linkTo;
  private final int[] linkPort;
  private final long[] linkLookahead;
  private final boolean[][] linkKinds; // per link: the kinds its port accepts
  private final int[][] outLinks; // per component, in link-id order
  private final int[][] inLinks; // per component, ranked by sender id
  private final int[] outSlot; // link -> its index in its sender's outLinks
  private final int[] inRank; // link -> its index in its receiver's inLinks (the tie rank of its events)
  private final int[][] outByDest; // per component: destination ids, ascending, for linkBetween
  private final int[][] outByDestLink; // ... and the link to each

  private Topology(Builder b) {
    int n = b.names.size();
    names = b.names.toArray(new String[0]);
    inputs = b.inputs.toArray(new Protocol[0][]);
    outputs = b.outputs.toArray(new Protocol[0][]);
    int m = b.links.size();
    linkFrom = new int[m];
    linkTo = new int[m];
    linkPort = new int[m];
    linkLookahead = new long[m];
    linkKinds = new boolean[m][];
    for (int l = 0; l < m; l++) {
      long[] spec = b.links.get(l);
      linkFrom[l] = (int) spec[0];
      linkTo[l] = (int) spec[1];
      linkPort[l] = (int) spec[2];
      linkLookahead[l] = spec[3];
      linkKinds[l] = inputs[linkTo[l]][linkPort[l]].kindMask();
    }
    List<List<Integer>> outs = new ArrayList<>(), ins = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      outs.add(new ArrayList<>());
      ins.add(new ArrayList<>());
    }
    for (int l = 0; l < m; l++) {
      outs.get(linkFrom[l]).add(l);
      ins.get(linkTo[l]).add(l);
    }
    outLinks = new int[n][];
    inLinks = new int[n][];
    outSlot = new int[m];
    inRank = new int[m];
    outByDest = new int[n][];
    outByDestLink = new int[n][];
    for (int i = 0; i < n; i++) {
      outLinks[i] = outs.get(i).stream().mapToInt(Integer::intValue).toArray();
      for (int k = 0; k < outLinks[i].length; k++) outSlot[outLinks[i][k]] = k;
      // Arrivals of one instant go in sender-id order (one link per sender, so that is a total order).
      inLinks[i] = ins.get(i).stream().sorted((x, y) -> Integer.compare(linkFrom[x], linkFrom[y]))
          .mapToInt(Integer::intValue).toArray();
      if (inLinks[i].length > Tie.MAX_RANK) {
        throw new IllegalArgumentException(names[i] + ": too many in-links (" + inLinks[i].length + ")");
      }
      for (int r = 0; r < inLinks[i].length; r++) inRank[inLinks[i][r]] = r;
      int[] byDest = outs.get(i).stream().sorted((x, y) -> Integer.compare(linkTo[x], linkTo[y]))
          .mapToInt(Integer::intValue).toArray();
      outByDestLink[i] = byDest;
      outByDest[i] = Arrays.stream(byDest).map(l -> linkTo[l]).toArray();
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public int components() {
    return names.length;
  }

  public int links() {
    return linkFrom.length;
  }

  public String name(int component) {
    return names[component];
  }

  /** Number of input ports of a component. */
  public int ports(int component) {
    return inputs[component].length;
  }

  public Protocol portProtocol(int component, int port) {
    return inputs[component][port];
  }

  public int from(int link) {
    return linkFrom[link];
  }

  public int to(int link) {
    return linkTo[link];
  }

  public int port(int link) {
    return linkPort[link];
  }

  public long lookahead(int link) {
    return linkLookahead[link];
  }

  /** True when the link's port accepts events of this kind. */
  boolean carries(int link, int kind) {
    boolean[] k = linkKinds[link];
    return kind >= 0 && kind < k.length && k[kind];
  }

  /** A component's out-links, in link-id order; its out-link slot k is {@code outLinks(c)[k]}. */
  public int[] outLinks(int component) {
    return outLinks[component];
  }

  /** A component's in-links, ranked by sender id. */
  public int[] inLinks(int component) {
    return inLinks[component];
  }

  /** The index of a link among its sender's out-links. */
  int outSlot(int link) {
    return outSlot[link];
  }

  /** The rank of a link among its receiver's in-links: the tie rank of its events there. */
  int inRank(int link) {
    return inRank[link];
  }

  /** The link from {@code from} to {@code to}, or -1. */
  public int linkBetween(int from, int to) {
    int k = Arrays.binarySearch(outByDest[from], to);
    return k < 0 ? -1 : outByDestLink[from][k];
  }

  /** "log-manager port 1 (device completions)": a port in messages. */
  public String portName(int component, int port) {
    return port == Context.SELF_PORT ? names[component] + "'s own timers"
        : names[component] + " port " + port + " (" + inputs[component][port].name() + ")";
  }

  /** Declares components and links; validates as it goes. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private final List<Protocol[]> inputs = new ArrayList<>();
    private final List<Protocol[]> outputs = new ArrayList<>();
    private final List<long[]> links = new ArrayList<>();
    private final Set<Long> pairs = new HashSet<>();

    /**
     * Adds a component whose input port p accepts {@code inputs.get(p)} and which emits {@code outputs}; returns its
     * id (ids are given in order from 0).
     */
    public int component(String name, List<Protocol> inputs, List<Protocol> outputs) {
      if (name == null || name.isBlank()) throw new IllegalArgumentException("a component needs a name");
      this.names.add(name);
      this.inputs.add(inputs.toArray(new Protocol[0]));
      this.outputs.add(outputs.toArray(new Protocol[0]));
      return this.names.size() - 1;
    }

    /** A component with one input port and one emitted protocol (either may be null for none). */
    public int component(String name, Protocol input, Protocol output) {
      return component(name, input == null ? List.of() : List.of(input), output == null ? List.of() : List.of(output));
    }

    /** Adds a link from {@code from} to input {@code port} of {@code to}; returns its id. */
    public int link(int from, int to, int port, long lookaheadNs) {
      checkComponent(from);
      checkComponent(to);
      String what = "link " + names.get(from) + " -> " + names.get(to);
      if (from == to) {
        throw new IllegalArgumentException(what + ": a component schedules its own events with Context.schedule,"
            + " not through a link");
      }
      Protocol[] ports = inputs.get(to);
      if (port < 0 || port >= ports.length) {
        throw new IllegalArgumentException(what + ": port " + port + " does not exist (" + names.get(to) + " has "
            + ports.length + " input ports)");
      }
      Protocol accepted = ports[port];
      boolean speaks = false;
      for (Protocol out : outputs.get(from)) speaks |= accepted.accepts(out);
      if (!speaks) {
        throw new IllegalArgumentException(what + ": port " + port + " accepts " + accepted + ", but "
            + names.get(from) + " emits " + Arrays.toString(outputs.get(from)));
      }
      if (lookaheadNs <= 0) {
        throw new IllegalArgumentException(what + ": lookahead must be > 0 ns, got " + lookaheadNs);
      }
      if (!pairs.add(((long) from << 32) | to)) {
        throw new IllegalArgumentException(what + ": there is one already; a component reaches another through one"
            + " link (one batch per destination per window) and tells its events apart by kind");
      }
      links.add(new long[] {from, to, port, lookaheadNs});
      return links.size() - 1;
    }

    private void checkComponent(int id) {
      if (id < 0 || id >= names.size()) throw new IllegalArgumentException("no component with id " + id);
    }

    public Topology build() {
      return new Topology(this);
    }
  }
}
