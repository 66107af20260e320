package io.tlogsim.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * No package of io.tlogsim depends, through others, on itself (Maven's module order forbids cycles between modules;
 * this finds those inside one). jdeps reads the compiled classes of every module: this module is built last and its test
 * class path holds all of them (tlogsim-cli, test scope, brings every other module).
 */
class PackageCyclesTest {

  @Test
  void noPackageOfTlogsimIsInACycle() {
    List<String> modules = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = new File(entry).getName();
      boolean ownJar = name.startsWith("tlogsim-") && name.endsWith(".jar");
      boolean ownClasses = entry.endsWith("target" + File.separator + "classes");
      if (ownJar || ownClasses) modules.add(entry);
    }
    assertTrue(modules.size() >= 9, "the class path holds every module's classes, got " + modules);
    Map<String, Set<String>> deps = packageDependencies(modules);
    assertTrue(deps.containsKey("io.tlogsim.kinds.gcm1") && deps.containsKey("io.tlogsim.cli"),
        "jdeps saw the modules' packages: " + deps.keySet());
    assertEquals(List.of(), cycles(deps), "packages in a cycle (each list: packages that depend on each other)");
  }

  @Test
  void aCycleIsFound() {
    Map<String, Set<String>> deps = new TreeMap<>();
    deps.put("a", Set.of("b"));
    deps.put("b", Set.of("c"));
    deps.put("c", Set.of("a", "d"));
    deps.put("d", Set.of());
    assertEquals(List.of(List.of("a", "b", "c")), cycles(deps));
    deps.put("c", Set.of("d"));
    assertEquals(List.of(), cycles(deps));
  }

  /** io.tlogsim package -> the io.tlogsim packages it uses, from jdeps -verbose:package over the given classes. */
  static Map<String, Set<String>> packageDependencies(List<String> classes) {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
    List<String> args = new ArrayList<>(List.of("-verbose:package", "-filter:none", "-cp",
        String.join(File.pathSeparator, classes)));
    args.addAll(classes);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = jdeps.run(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0]));
    assertEquals(0, rc, "jdeps failed: " + err);
    Map<String, Set<String>> deps = new TreeMap<>();
    for (String line : out.toString().split("\n")) {
      String[] p = line.trim().split("\\s+");
      if (p.length >= 3 && p[1].equals("->") && p[0].startsWith("io.tlogsim")) {
        deps.computeIfAbsent(p[0], k -> new TreeSet<>());
        if (p[2].startsWith("io.tlogsim") && !p[2].equals(p[0])) deps.get(p[0]).add(p[2]);
      }
    }
    return deps;
  }

  /** The strongly connected components of more than one package (Tarjan), each sorted, in order of their first. */
  static List<List<String>> cycles(Map<String, Set<String>> deps) {
    Tarjan t = new Tarjan(deps);
    for (String v : deps.keySet()) if (!t.index.containsKey(v)) t.visit(v);
    t.found.sort((a, b) -> a.get(0).compareTo(b.get(0)));
    return t.found;
  }

  private static final class Tarjan {
    final Map<String, Set<String>> deps;
    final Map<String, Integer> index = new TreeMap<>();
    final Map<String, Integer> low = new TreeMap<>();
    final List<String> stack = new ArrayList<>();
    final Set<String> onStack = new TreeSet<>();
    final List<List<String>> found = new ArrayList<>();

    Tarjan(Map<String, Set<String>> deps) {
      this.deps = deps;
    }

    void visit(String v) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.add(v);
      onStack.add(v);
      for (String w : deps.getOrDefault(v, Set.of())) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        List<String> component = new ArrayList<>();
        String w;
        do {
          w = stack.remove(stack.size() - 1);
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          component.sort(null);
          found.add(component);
        }
      }
    }
  }
}
