package io.tlogsim.kernel;

import java.util.List;

/**
 * A consistent cut of a run: the state of every component at the start of window {@code round}, after every batch
 * sent before it was delivered and before any event of the window was handled. Restoring all components from it
 * and going on gives the same digest as never stopping.
 */
public record Checkpoint(long round, long simulatedNanos, long messages, List<ComponentState> components)
    implements CborSerializable {}
