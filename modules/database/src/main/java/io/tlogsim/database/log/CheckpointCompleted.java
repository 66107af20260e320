package io.tlogsim.database.log;

import io.tlogsim.kernel.EventFact;

/** A fact: a checkpoint completed (its record hardened and the pages dirty at its start written). */
public record CheckpointCompleted(long session, long hardenedLsn) implements EventFact {}
