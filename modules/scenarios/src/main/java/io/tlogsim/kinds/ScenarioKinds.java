package io.tlogsim.kinds;

import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * Every scenario kind tlogsim knows: each a {@code java.util.ServiceLoader} provider of {@link ScenarioKind} (with its
 * {@link ScenarioKind#variants}), the built-in ones as any a jar on the classpath declares (a model of one's own, run
 * by the same command): the built-ins are listed in this module's META-INF/services/io.tlogsim.scenario.ScenarioKind.
 */
public final class ScenarioKinds {
  private ScenarioKinds() {}

  /** Every kind, in name order (the classpath's order must not matter); two of one name are an error. */
  public static List<ScenarioKind> all() {
    // this module's loader holds the built-ins; the thread's may see more (a jar of one's own)
    Set<String> seen = new HashSet<>();
    List<ScenarioKind> kinds = new ArrayList<>();
    for (ClassLoader loader : new ClassLoader[] {ScenarioKinds.class.getClassLoader(),
        Thread.currentThread().getContextClassLoader()}) {
      if (loader == null) continue;
      for (ScenarioKind provider : ServiceLoader.load(ScenarioKind.class, loader)) {
        if (seen.add(provider.getClass().getName())) kinds.addAll(provider.variants());
      }
    }
    kinds.sort(Comparator.comparing(ScenarioKind::name));
    for (int i = 1; i < kinds.size(); i++) {
      if (kinds.get(i).name().equals(kinds.get(i - 1).name())) {
        throw new IllegalStateException("two scenario kinds are named " + kinds.get(i).name() + ": "
            + kinds.get(i - 1).getClass().getName() + " and " + kinds.get(i).getClass().getName());
      }
    }
    return List.copyOf(kinds);
  }

  /** Every table a kind names ({@code tlogsim run --show}), each once, in the kinds' order. */
  public static List<String> tables() {
    Set<String> all = new LinkedHashSet<>();
    for (ScenarioKind k : all()) all.addAll(k.tables());
    return List.copyOf(all);
  }

  public static ScenarioLoader loader() {
    return new ScenarioLoader(all());
  }
}
