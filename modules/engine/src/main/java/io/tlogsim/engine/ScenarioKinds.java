package io.tlogsim.engine;

import io.tlogsim.engine.gcm1.Gcm1Kind;
import io.tlogsim.engine.scenario.ScenarioKind;
import io.tlogsim.engine.scenario.ScenarioLoader;
import java.util.List;

/** Every scenario kind tlogsim knows. */
public final class ScenarioKinds {
  private ScenarioKinds() {}

  public static List<ScenarioKind> all() {
    return List.of(new Gcm1Kind());
  }

  public static ScenarioLoader loader() {
    return new ScenarioLoader(all());
  }
}
