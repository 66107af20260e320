package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;

/**
 * One fact a model recorded, as the journal keeps it: the window it was recorded in, its simulated time, the
 * component, and the model's own fact record. The journal's format, not the kernel's, so that stored runs stay
 * readable when the kernel changes how it hands facts out.
 */
public record StoredFact(long window, long time, int component,
    @io.tlogsim.kernel.Typed Object fact) implements CborSerializable {}
