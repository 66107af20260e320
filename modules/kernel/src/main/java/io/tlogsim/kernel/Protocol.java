package io.tlogsim.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A set of event kinds that travel together, e.g. the requests a storage device accepts. Each input port of a
 * component accepts one protocol and each component declares the protocols it emits; the topology refuses a link
 * whose sender emits nothing the port accepts, and a send whose kind the port does not accept fails the run.
 * Kinds are small non-negative numbers chosen by the protocol's owner (distinct across the protocols one component
 * receives, so that it can switch on the kind alone).
 */
public final class Protocol {
  /** Kinds are below this bound, so that a check is one array lookup. */
  public static final int MAX_KIND = 4096;

  private final String name;
  private final String[] kindNames; // by kind; null where the kind is not part of this protocol

  private Protocol(String name, String[] kindNames) {
    this.name = name;
    this.kindNames = kindNames;
  }

  /** A protocol from (kind, name) pairs: {@code Protocol.of("device requests", READ, "read", WRITE, "write")}. */
  public static Protocol of(String name, Object... kindsAndNames) {
    if (kindsAndNames.length == 0 || kindsAndNames.length % 2 != 0) {
      throw new IllegalArgumentException("protocol " + name + ": give (kind, name) pairs");
    }
    int max = 0;
    for (int i = 0; i < kindsAndNames.length; i += 2) max = Math.max(max, kindOf(name, kindsAndNames[i]));
    String[] names = new String[max + 1];
    for (int i = 0; i < kindsAndNames.length; i += 2) {
      int k = kindOf(name, kindsAndNames[i]);
      if (names[k] != null) throw new IllegalArgumentException("protocol " + name + ": kind " + k + " given twice");
      names[k] = String.valueOf(kindsAndNames[i + 1]);
    }
    return new Protocol(name, names);
  }

  /** Every kind of the given protocols, under a new name (a port that receives from two kinds of sender). */
  public static Protocol union(String name, Protocol... parts) {
    int max = 0;
    for (Protocol p : parts) max = Math.max(max, p.kindNames.length - 1);
    String[] names = new String[max + 1];
    for (Protocol p : parts) {
      for (int k = 0; k < p.kindNames.length; k++) {
        if (p.kindNames[k] == null) continue;
        if (names[k] != null && !names[k].equals(p.kindNames[k])) {
          throw new IllegalArgumentException("protocol " + name + ": kind " + k + " is both " + names[k] + " and "
              + p.kindNames[k]);
        }
        names[k] = p.kindNames[k];
      }
    }
    return new Protocol(name, names);
  }

  private static int kindOf(String protocol, Object o) {
    if (!(o instanceof Integer k) || k < 0 || k >= MAX_KIND) {
      throw new IllegalArgumentException("protocol " + protocol + ": a kind must be an int from 0 to "
          + (MAX_KIND - 1) + ", got " + o);
    }
    return k;
  }

  public String name() {
    return name;
  }

  public boolean has(int kind) {
    return kind >= 0 && kind < kindNames.length && kindNames[kind] != null;
  }

  /** The kind's name, or its number when it is not part of this protocol. */
  public String kindName(int kind) {
    return has(kind) ? kindNames[kind] : String.valueOf(kind);
  }

  /** True when every kind of {@code other} is one of this protocol's. */
  public boolean accepts(Protocol other) {
    for (int k = 0; k < other.kindNames.length; k++) {
      if (other.kindNames[k] != null && !has(k)) return false;
    }
    return true;
  }

  boolean[] kindMask() {
    boolean[] m = new boolean[kindNames.length];
    for (int k = 0; k < m.length; k++) m[k] = kindNames[k] != null;
    return m;
  }

  @Override
  public String toString() {
    List<String> kinds = new ArrayList<>();
    for (int k = 0; k < kindNames.length; k++) if (kindNames[k] != null) kinds.add(kindNames[k]);
    return name + " " + Arrays.toString(kinds.toArray());
  }
}
