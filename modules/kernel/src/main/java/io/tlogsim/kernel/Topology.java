package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Components and the links between them. A link goes from one component to one input port of another and declares
 * its lookahead: the least delay of any message on it (DESIGN.md principle 3). There is at most one link from a
 * component to another, so a window sends at most one batch per destination. Immutable once built.
 */
public final class Topology {
  /** Highest sequence number a link can carry before the ordering key would overflow. */
  static final long MAX_SEQ = (1L << 40) - 1;
  static final int MAX_RANK = (1 << 23) - 1;

  private final String[] names;
  private final int[] ports;
  private final int[] linkFrom;
  private final int[] linkTo;
  private final int[] linkPort;
  private final long[] linkLookahead;
  private final int[] linkRank;
  private final int[] selfRank;
  private final int[] rankSender;
  private final int[][] outLinks;
  private final int[] outSlot; // link -> its index among its sender's out-links
  private final int[][] inLinks;
  private final long[] minOutLookahead;

  private Topology(Builder b) {
    int n = b.names.size();
    names = b.names.toArray(new String[0]);
    ports = b.ports.stream().mapToInt(Integer::intValue).toArray();
    int m = b.links.size();
    linkFrom = new int[m];
    linkTo = new int[m];
    linkPort = new int[m];
    linkLookahead = new long[m];
    for (int l = 0; l < m; l++) {
      long[] spec = b.links.get(l);
      linkFrom[l] = (int) spec[0];
      linkTo[l] = (int) spec[1];
      linkPort[l] = (int) spec[2];
      linkLookahead[l] = spec[3];
    }
    // Ranks order ties by sender id first (DESIGN.md principle 2). Each component's own scheduled events form an
    // implicit self link ranked with its other outputs.
    Integer[] order = new Integer[m + n];
    for (int i = 0; i < m + n; i++) order[i] = i;
    Arrays.sort(order, Comparator.<Integer>comparingInt(i -> i < m ? linkFrom[i] : i - m)
        .thenComparingInt(i -> i < m ? linkTo[i] : i - m)
        .thenComparingInt(i -> i < m ? linkPort[i] : Integer.MAX_VALUE)
        .thenComparingInt(i -> i));
    if (m + n > MAX_RANK) throw new IllegalArgumentException("too many links: " + (m + n) + " > " + MAX_RANK);
    linkRank = new int[m];
    selfRank = new int[n];
    rankSender = new int[m + n];
    for (int r = 0; r < order.length; r++) {
      int i = order[r];
      if (i < m) {
        linkRank[i] = r;
        rankSender[r] = linkFrom[i];
      } else {
        selfRank[i - m] = r;
        rankSender[r] = i - m;
      }
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
    outSlot = new int[m];
    inLinks = new int[n][];
    minOutLookahead = new long[n];
    for (int i = 0; i < n; i++) {
      outLinks[i] = outs.get(i).stream().mapToInt(Integer::intValue).toArray();
      for (int k = 0; k < outLinks[i].length; k++) outSlot[outLinks[i][k]] = k;
      inLinks[i] = ins.get(i).stream().mapToInt(Integer::intValue).toArray();
      long min = VirtualTime.NEVER;
      for (int l : outLinks[i]) min = Math.min(min, linkLookahead[l]);
      minOutLookahead[i] = min;
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

  public int ports(int component) {
    return ports[component];
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

  int rank(int link) {
    return linkRank[link];
  }

  int selfRank(int component) {
    return selfRank[component];
  }

  int senderOfRank(int rank) {
    return rankSender[rank];
  }

  public int[] outLinks(int component) {
    return outLinks[component];
  }

  /** The index of {@code link} in {@link #outLinks(int)} of its sender. */
  int outSlot(int link) {
    return outSlot[link];
  }

  public int[] inLinks(int component) {
    return inLinks[component];
  }

  /** The least lookahead of a component's outgoing links: no output of it can come sooner after its input. */
  public long minOutLookahead(int component) {
    return minOutLookahead[component];
  }

  /** Declares components (each with a number of input ports) and links; validates as it goes. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private final List<long[]> links = new ArrayList<>();
    private final Set<Long> pairs = new HashSet<>();

    /** Adds a component with {@code inputPorts} input ports (0 for none); returns its id. */
    public int component(String name, int inputPorts) {
      if (inputPorts < 0) throw new IllegalArgumentException("component " + name + ": negative port count");
      names.add(name);
      ports.add(inputPorts);
      return names.size() - 1;
    }

    /** Adds a link from {@code from} to input {@code port} of {@code to}; returns its id. */
    public int link(int from, int to, int port, long lookaheadNs) {
      checkComponent(from);
      checkComponent(to);
      if (from == to) {
        throw new IllegalArgumentException("link " + names.get(from) + " -> itself: a component schedules its own"
            + " events with Context.schedule, not through a link");
      }
      if (port < 0 || port >= ports.get(to)) {
        throw new IllegalArgumentException("link " + names.get(from) + " -> " + names.get(to) + ": port " + port
            + " does not exist (the component has " + ports.get(to) + " input ports)");
      }
      if (lookaheadNs <= 0) {
        throw new IllegalArgumentException("link " + names.get(from) + " -> " + names.get(to) + ": lookahead must be"
            + " > 0 ns, got " + lookaheadNs);
      }
      if (!pairs.add(((long) from << 32) | to)) {
        throw new IllegalArgumentException("link " + names.get(from) + " -> " + names.get(to) + ": there is one"
            + " already; a component reaches another through one link (one batch per destination per window),"
            + " and tells its events apart by kind");
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
