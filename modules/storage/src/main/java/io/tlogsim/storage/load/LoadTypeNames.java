package io.tlogsim.storage.load;

import io.tlogsim.kernel.TypeNames;

/**
 * The load generators' checkpointed and reported values: their logical type names in journals and cluster messages
 * ({@link TypeNames}), apart from the device models' (storage must not depend on its load package). A name never
 * changes once released; the third argument is the Java class name journals from before logical names hold.
 */
public final class LoadTypeNames implements TypeNames {
  @Override
  public void declare(Declarations names) {
    names
        .add("IoJobStats", IoJobStats.class, "io.tlogsim.storage.load.IoJobStats")
        .add("IoJobs.State", IoJobs.State.class, "io.tlogsim.storage.load.IoJobs$State");
  }
}
