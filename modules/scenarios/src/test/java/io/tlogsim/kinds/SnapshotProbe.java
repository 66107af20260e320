package io.tlogsim.kinds;

import io.tlogsim.database.series.Histograms;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.SimComponent;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import io.tlogsim.storage.LatencyHistograms;
import org.HdrHistogram.AbstractHistogram;

/**
 * Whether a model's snapshot holds all of its state. A model run part way is snapshotted, the snapshot restored into a
 * fresh model of the same build and snapshotted again: the two must be equal. Then every field of the model (and of
 * every object of tlogsim's it holds) is given a value of its own, one at a time: the snapshot must change (the field
 * reaches it) and must survive a restore into the fresh model. A field that does neither is named, unless it is known
 * not to be state; so are fields the runs never moved from their default and that could not be set (an object).
 */
final class SnapshotProbe {
  /** "Class.field" of fields that are not state, each with why. */
  private final Map<String, String> notState;
  private final SplittableRandom random = new SplittableRandom(7);
  /** Every state field seen, and whether it was ever away from its default, or given a value of its own. */
  private final Map<String, Boolean> exercised = new TreeMap<>();
  /** Fields given a value of their own already (once per field of a class). */
  private final Set<String> tried = new TreeSet<>();
  /** What does not hold: "field: what". */
  final Set<String> problems = new TreeSet<>();
  /** Fields whose value of their own the model refused (an int that sizes what its snapshot copies). */
  final Set<String> unsettable = new TreeSet<>();

  /**
   * "Class.field" of a queue's arrays (and head) whose state is only their rows up to a count: not in a snapshot while
   * the queue is empty. Checked like every field in a model whose queue has rows; not named when no model had any.
   */
  private final Set<String> rowsOnly;

  SnapshotProbe(Map<String, String> notState, Set<String> rowsOnly) {
    this.notState = notState;
    this.rowsOnly = rowsOnly;
  }

  /** Probes {@code model} (run part way) against {@code fresh} (the same build, never run). */
  void probe(String what, SimComponent model, SimComponent fresh) {
    Object snapshot = model.snapshot();
    fresh.restore(snapshot);
    if (!same(snapshot, fresh.snapshot())) problems.add(what + ": a restored snapshot gives another snapshot");
    List<Object[]> fields = new ArrayList<>(); // {object, field}
    walk(model, new IdentityHashMap<>(), fields);
    for (Object[] of : fields) {
      Object o = of[0];
      Field f = (Field) of[1];
      String name = name(f);
      if (tried.contains(name)) continue;
      Object before = get(f, o);
      boolean histogram = before instanceof AbstractHistogram;
      Object value = histogram ? before : valueFor(f, before, o);
      if (value == null) continue;
      if (histogram) {
        ((AbstractHistogram) before).recordValue(1 + random.nextInt(1_000_000)); // reverted below by a restore
      } else {
        set(f, o, value);
      }
      try {
        Object changed;
        try {
          changed = model.snapshot();
        } catch (RuntimeException e) {
          unsettable.add(name + " (" + e.getClass().getSimpleName() + ")");
          tried.add(name);
          continue;
        }
        exercised.put(name, true);
        if (same(snapshot, changed)) {
          // not in this snapshot: perhaps a queue's array past its rows (none now); tried again in the next model
          notInSnapshot.putIfAbsent(name, what);
          continue;
        }
        tried.add(name);
        notInSnapshot.remove(name);
        Object again;
        try {
          fresh.restore(changed);
          again = fresh.snapshot();
        } catch (RuntimeException e) { // a value the model's restore refuses (a code, an index)
          unsettable.add(name + " (" + e.getClass().getSimpleName() + " on restore)");
          tried.add(name);
          continue;
        }
        if (!same(changed, again)) problems.add(name + ": not restored (" + what + ")");
      } finally {
        if (histogram) {
          model.restore(snapshot); // the histogram as it was (it is in the snapshot, or that is named above)
        } else {
          set(f, o, before);
        }
      }
    }
  }

  /** Fields whose value of their own never changed a snapshot, with the first model tried. */
  private final Map<String, String> notInSnapshot = new TreeMap<>();

  /** What does not hold: fields never in a snapshot, and those a restore loses. */
  Set<String> problems() {
    Set<String> out = new TreeSet<>(problems);
    notInSnapshot.forEach((f, what) -> {
      if (!rowsOnly.contains(f)) out.add(f + ": not in the snapshot (" + what + ", and every later one)");
    });
    return out;
  }

  /** State fields never away from their default in any model probed, nor given a value of their own. */
  Set<String> neverExercised() {
    Set<String> out = new TreeSet<>();
    exercised.forEach((f, yes) -> {
      if (!yes && !rowsOnly.contains(f)) out.add(f);
    });
    return out;
  }

  // ------------------------------------------------------------------------------------------------- fields

  /** Notes which fields are away from their default, and collects every field that may be given a value. */
  private void walk(Object o, IdentityHashMap<Object, Boolean> seen, List<Object[]> fields) {
    if (o == null || seen.put(o, true) != null || !ours(o.getClass()) || isRing(o)) return;
    if (o.getClass().isRecord()) return; // immutable: a record's values are what the run gave
    for (Field f : stateFields(o.getClass())) {
      Object v = get(f, o);
      exercised.merge(name(f), !isDefault(v), Boolean::logicalOr);
      if (!Modifier.isFinal(f.getModifiers()) || v instanceof AbstractHistogram) fields.add(new Object[] {o, f});
      Class<?> t = f.getType();
      if (v != null && t.isArray() && !t.getComponentType().isPrimitive()) {
        for (int i = 0; i < Array.getLength(v); i++) walk(Array.get(v, i), seen, fields);
      } else if (v instanceof Collection<?> c) {
        for (Object e : c) walk(e, seen, fields);
      } else if (v instanceof Map<?, ?> m) {
        for (Object e : m.values()) walk(e, seen, fields);
      } else {
        walk(v, seen, fields);
      }
    }
  }

  /**
   * A value of the field's own, other than {@code current}: for an object of tlogsim's, another of its class that
   * {@code owner} holds (a reference among its own, as a pointer into a list); null when there is none to give.
   */
  private Object valueFor(Field f, Object current, Object owner) {
    Class<?> t = f.getType();
    if (t.isPrimitive()) {
      Object v;
      do {
        v = valueOf(t);
      } while (v.equals(current));
      return v;
    }
    if (isRing(current)) {
      int width = (int) get(field(current.getClass(), "width"), current);
      long[] rows = new long[width * 3];
      for (int i = 0; i < rows.length; i++) rows[i] = 1 + random.nextInt(1_000_000);
      return ringOf(current.getClass(), width, rows);
    }
    if (ours(t) && !t.isRecord() && !t.isInterface() && !t.getName().endsWith(".LongRing")) {
      return another(owner, t, current);
    }
    if (current != null && t.isArray() && t.getComponentType().isPrimitive() && Array.getLength(current) > 0) {
      Object copy = Array.newInstance(t.getComponentType(), Array.getLength(current));
      for (int i = 0; i < Array.getLength(copy); i++) Array.set(copy, i, valueOf(t.getComponentType()));
      return copy;
    }
    return null;
  }

  /** Another object of class {@code type} that {@code root} holds (breadth first, a bounded search), or null. */
  private Object another(Object root, Class<?> type, Object not) {
    java.util.ArrayDeque<Object> todo = new java.util.ArrayDeque<>(List.of(root));
    IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
    while (!todo.isEmpty() && seen.size() < 100_000) {
      Object o = todo.poll();
      if (o == null || seen.put(o, true) != null) continue;
      if (o != not && o != root && type.isInstance(o)) return o;
      if (o instanceof Collection<?> c) {
        for (Object e : c) if (e != null) todo.add(e);
      } else if (o instanceof Map<?, ?> m) {
        for (Object e : m.values()) if (e != null) todo.add(e);
      } else if (o.getClass().isArray() && !o.getClass().getComponentType().isPrimitive()) {
        for (int i = 0; i < Array.getLength(o); i++) if (Array.get(o, i) != null) todo.add(Array.get(o, i));
      } else if (ours(o.getClass()) && !isRing(o)) {
        for (Field g : stateFields(o.getClass())) {
          Object v = get(g, o);
          if (v != null && !g.getType().isPrimitive()) todo.add(v);
        }
      }
    }
    return null;
  }

  private Object valueOf(Class<?> t) {
    if (t == boolean.class) return random.nextBoolean();
    if (t == int.class) return 1 + random.nextInt(1000);
    if (t == long.class) return 1L + random.nextInt(1_000_000);
    if (t == double.class) return 0.5 + random.nextInt(1000);
    if (t == short.class) return (short) (1 + random.nextInt(100));
    if (t == byte.class) return (byte) (1 + random.nextInt(100));
    if (t == float.class) return 0.5f + random.nextInt(100);
    if (t == char.class) return (char) ('a' + random.nextInt(26));
    throw new IllegalArgumentException(t.toString());
  }

  private static boolean isDefault(Object v) {
    if (v == null) return true;
    if (v instanceof Boolean b) return !b;
    if (v instanceof Character c) return c == 0;
    if (v instanceof Number n) return n.doubleValue() == 0;
    if (isRing(v)) return ((long[]) call(v, "toArray")).length == 0;
    if (v instanceof Collection<?> c) return c.isEmpty();
    if (v instanceof Map<?, ?> m) return m.isEmpty();
    if (v instanceof AbstractHistogram h) return h.getTotalCount() == 0;
    if (v.getClass().isArray()) {
      for (int i = 0; i < Array.getLength(v); i++) if (!isDefault(Array.get(v, i))) return false;
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------------------------------------------- snapshots

  /** Two snapshots hold the same values (records, arrays, lists, maps, through tlogsim's own classes). */
  private static boolean same(Object a, Object b) {
    if (a == b) return true;
    if (a == null || b == null || a.getClass() != b.getClass()) return false;
    if (a instanceof byte[] ba && !java.util.Arrays.equals(ba, (byte[]) b)) return sameHistogram(ba, (byte[]) b);
    if (a.getClass().isArray()) {
      int n = Array.getLength(a);
      if (n != Array.getLength(b)) return false;
      for (int i = 0; i < n; i++) if (!same(Array.get(a, i), Array.get(b, i))) return false;
      return true;
    }
    if (a instanceof Collection<?> ca) {
      Collection<?> cb = (Collection<?>) b;
      if (ca.size() != cb.size()) return false;
      Iterator<?> ib = cb.iterator();
      for (Object e : ca) if (!same(e, ib.next())) return false;
      return true;
    }
    if (a instanceof Map<?, ?> ma) {
      Map<?, ?> mb = (Map<?, ?>) b;
      if (!ma.keySet().equals(mb.keySet())) return false;
      for (Map.Entry<?, ?> e : ma.entrySet()) if (!same(e.getValue(), mb.get(e.getKey()))) return false;
      return true;
    }
    if (a.getClass().isRecord()) {
      for (RecordComponent rc : a.getClass().getRecordComponents()) {
        try {
          var accessor = rc.getAccessor();
          accessor.setAccessible(true);
          if (!same(accessor.invoke(a), accessor.invoke(b))) return false;
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /**
   * Two encodings of the same latency histogram: HdrHistogram's header holds the largest value the histogram can
   * track, which an auto-resizing histogram grows to what it ever recorded (a restored one, to what it holds), so the
   * bytes may differ where the counts do not. Compressed (commit statistics put 24 bytes of exact moments before it) or
   * not (interval facts).
   */
  private static boolean sameHistogram(byte[] a, byte[] b) {
    for (int offset : new int[] {0, 24}) {
      if (a.length < offset || b.length < offset) continue;
      if (!java.util.Arrays.equals(a, 0, offset, b, 0, offset)) continue;
      try {
        if (LatencyHistograms.decode(a, offset).equals(LatencyHistograms.decode(b, offset))) return true;
      } catch (RuntimeException notCompressed) {
        // next form
      }
    }
    try {
      return Histograms.decode(a).equals(Histograms.decode(b));
    } catch (RuntimeException notAHistogram) {
      return false;
    }
  }

  // ------------------------------------------------------------------------------------------------- reflection

  private static boolean ours(Class<?> c) {
    return c.getName().startsWith("io.tlogsim.") && !c.isEnum();
  }

  /** The log manager's FIFO of rows (package-private there): its rows are its state. */
  private static boolean isRing(Object o) {
    return o != null && o.getClass().getName().equals("io.tlogsim.database.log.LongRing");
  }

  /** The fields of a class of tlogsim's (and its tlogsim superclasses) that may hold state. */
  private List<Field> stateFields(Class<?> c) {
    List<Field> out = new ArrayList<>();
    for (Class<?> k = c; k != null && ours(k); k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
        if (Context.class.isAssignableFrom(f.getType())) continue; // the run's context: given again after a resume
        if (notState.containsKey(name(f))) continue;
        if (Modifier.isFinal(f.getModifiers()) && (f.getType().isPrimitive() || f.getType() == String.class)) {
          continue; // configuration, set by the build
        }
        f.setAccessible(true);
        out.add(f);
      }
    }
    return out;
  }

  private static String name(Field f) {
    return f.getDeclaringClass().getSimpleName() + "." + f.getName();
  }

  private static Object call(Object o, String method) {
    try {
      var m = o.getClass().getDeclaredMethod(method);
      m.setAccessible(true);
      return m.invoke(o);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object ringOf(Class<?> ring, int width, long[] rows) {
    try {
      var m = ring.getDeclaredMethod("of", int.class, long[].class);
      m.setAccessible(true);
      return m.invoke(null, width, rows);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Field field(Class<?> c, String name) {
    try {
      Field f = c.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object get(Field f, Object o) {
    try {
      return f.get(o);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void set(Field f, Object o, Object v) {
    try {
      f.set(o, v);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }
}
