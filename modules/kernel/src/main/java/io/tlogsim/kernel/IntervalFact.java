package io.tlogsim.kernel;

/**
 * A fact that aggregates one simulated interval of a component (commits and latency percentiles of the interval,
 * log space used at its end, a device's I/O in it), as opposed to a fact about one event (a commit acknowledged, a
 * flush issued). Journals keep these at every trace level; single-event facts only at trace level {@code full}.
 */
public interface IntervalFact extends CborSerializable {}
