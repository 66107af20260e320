package io.tlogsim.journal;

import io.tlogsim.kernel.TypeNames;

/** The tests' own facts and states, named as a model module names its own. */
public final class TestTypeNames implements TypeNames {
  @Override
  public void declare(Declarations names) {
    names
        .add("test.TestFacts.CommitsInInterval", TestFacts.CommitsInInterval.class)
        .add("test.TestFacts.CommitAcknowledged", TestFacts.CommitAcknowledged.class)
        .add("test.Noting.State", Noting.State.class);
  }
}
