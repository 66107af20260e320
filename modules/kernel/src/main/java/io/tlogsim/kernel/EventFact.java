package io.tlogsim.kernel;

/**
 * A fact about one event (a log write hardened, a checkpoint completed, a log file grown, a crash), as opposed to an
 * {@link IntervalFact} that aggregates an interval. Journals keep these only at trace level {@code full}. The marker
 * lets readers of a journal ({@code tlogsim facts --type}) tell the facts models record from the other values the
 * modules name (model states, results) without a list to keep in step.
 */
public interface EventFact extends CborSerializable {}
