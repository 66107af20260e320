package io.tlogsim.database.session;

import io.tlogsim.kernel.CborSerializable;

/** A fact: the first session of a pool started step {@code step} of its script (a phase, named {@code name}). */
public record PhaseStarted(int step, String name) implements CborSerializable {}
