package io.tlogsim.database.log;

import io.tlogsim.kernel.EventFact;

/**
 * A fact: the log is hardened up to {@code lsn}; {@code acknowledged} waiting commits were acknowledged,
 * {@code lazyHardened} commits acknowledged earlier became durable, and {@code stillExposed} acknowledged commits are
 * not hardened yet (what a crash now would lose).
 */
public record LogHardened(long lsn, int acknowledged, int lazyHardened, int stillExposed) implements EventFact {}
