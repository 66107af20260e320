package io.tlogsim.database.session;

import io.tlogsim.kernel.EventFact;

/** A fact: the last session of a pool ended step {@code step} of its script. */
public record PhaseEnded(int step, String name) implements EventFact {}
