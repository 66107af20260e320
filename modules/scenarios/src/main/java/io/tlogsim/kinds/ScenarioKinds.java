package io.tlogsim.kinds;

import io.tlogsim.kinds.commitpath.CommitPathKind;
import io.tlogsim.kinds.gcm1.Gcm1Kind;
import io.tlogsim.kinds.iobench.IobenchKind;
import io.tlogsim.kinds.iobench.PremiumTiersKind;
import io.tlogsim.kinds.iobench.RaidExamplesKind;
import io.tlogsim.kinds.pg.PgCommitKind;
import io.tlogsim.kinds.placement.LogDrivePlacementKind;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Every scenario kind tlogsim knows: the built-in ones, and any a jar on the classpath declares as a
 * {@code java.util.ServiceLoader} provider of {@link ScenarioKind} (a model of one's own, run by the same command).
 */
public final class ScenarioKinds {
  private ScenarioKinds() {}

  public static List<ScenarioKind> all() {
    List<ScenarioKind> kinds = new ArrayList<>(List.of(new Gcm1Kind(), new IobenchKind(), new RaidExamplesKind(),
        new PremiumTiersKind(), new CommitPathKind("commit-path"), new CommitPathKind("informix"),
        new PgCommitKind(), new LogDrivePlacementKind(), new io.tlogsim.kinds.logspace.VlfRulesKind()));
    for (String name : io.tlogsim.kinds.logspace.LogSpaceKind.NAMES) {
      kinds.add(new io.tlogsim.kinds.logspace.LogSpaceKind(name));
    }
    List<ScenarioKind> more = new ArrayList<>();
    ServiceLoader.load(ScenarioKind.class).forEach(more::add);
    more.sort(Comparator.comparing(ScenarioKind::name)); // the classpath's order must not matter
    for (ScenarioKind k : more) {
      if (kinds.stream().anyMatch(b -> b.name().equals(k.name()))) {
        throw new IllegalStateException("two scenario kinds are named " + k.name() + ": "
            + k.getClass().getName() + " and a built-in or earlier one");
      }
      kinds.add(k);
    }
    return List.copyOf(kinds);
  }

  public static ScenarioLoader loader() {
    return new ScenarioLoader(all());
  }
}
