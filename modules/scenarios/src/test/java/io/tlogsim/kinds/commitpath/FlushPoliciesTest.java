package io.tlogsim.kinds.commitpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.database.log.policy.FlushPolicy;
import io.tlogsim.kinds.ScenarioKinds;
import io.tlogsim.kinds.ScenarioRuns;
import io.tlogsim.scenario.ParamSpec;
import io.tlogsim.scenario.Scenario;
import io.tlogsim.scenario.ScenarioKind;
import io.tlogsim.scenario.ScenarioLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each flush policy's one registration: its name, its settings as parameters with their defaults and sources. */
class FlushPoliciesTest {

  @Test
  void eachRegisteredPolicyIsMadeUnderItsNameFromItsDefaults() {
    for (FlushPolicies.Registration r : FlushPolicies.ALL) {
      Scenario s = ScenarioRuns.scenario("commit-path", "flushPolicy", r.name());
      FlushPolicy made = FlushPolicies.of(s.params()).get();
      assertEquals(r.name(), made.name(), "the policy a registration makes is named as it is registered");
      for (FlushPolicies.Setting st : r.settings()) {
        assertEquals("default, flush policy " + r.name(), s.origins().get(st.spec().key()), st.spec().key());
      }
    }
  }

  @Test
  void everyKindOfTheCommitPathTakesEverySettingWithItsDeclaredSource() {
    ScenarioLoader loader = ScenarioKinds.loader();
    for (String kind : List.of("commit-path", "informix", "log-space", "log-drive-placement", "vlf-rules")) {
      ScenarioKind k = loader.kind(kind);
      List<String> keys = k.params().stream().map(ParamSpec::key).toList();
      for (FlushPolicies.Registration r : FlushPolicies.ALL) {
        for (FlushPolicies.Setting st : r.settings()) {
          assertTrue(keys.contains(st.spec().key()), kind + " takes " + st.spec().key());
          ScenarioLoader.ParamDefault d = loader.defaults(k).stream()
              .filter(x -> x.spec().key().equals(st.spec().key())).findFirst().orElseThrow();
          assertEquals(st.source(), d.comment(), kind + ": " + st.spec().key() + "'s source");
          assertEquals("flush policy " + r.name(), d.origin());
        }
      }
    }
  }

  @Test
  void aSettingGivenByAScenarioOverridesTheRegistrationsDefault() {
    Scenario s = ScenarioRuns.scenario("commit-path", "flushPolicy", "group-commit", "groupCommitDelayUs", "250");
    assertEquals(250.0, s.params().getDouble("groupCommitDelayUs"));
    assertEquals("--set", s.origins().get("groupCommitDelayUs"));
  }
}
