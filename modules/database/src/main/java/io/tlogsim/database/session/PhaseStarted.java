package io.tlogsim.database.session;

import io.tlogsim.kernel.EventFact;

/** A fact: the first session of a pool started step {@code step} of its script (a phase, named {@code name}). */
public record PhaseStarted(int step, String name) implements EventFact {}
