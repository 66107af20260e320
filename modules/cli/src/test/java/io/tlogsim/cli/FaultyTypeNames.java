package io.tlogsim.cli;

import io.tlogsim.kernel.TypeNames;

/** The faulty kind's state, named as a model module of one's own names its values. */
public final class FaultyTypeNames implements TypeNames {
  @Override
  public void declare(Declarations names) {
    names.add("test.FaultyKind.Nothing", FaultyKind.Nothing.class);
  }
}
