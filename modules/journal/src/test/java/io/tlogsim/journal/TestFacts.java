package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.IntervalFact;

/** Facts of the tests' own: one per-interval aggregate and one single-event fact, as models would record them. */
final class TestFacts {
  private TestFacts() {}

  record CommitsInInterval(long fromNanos, long toNanos, long commits) implements IntervalFact {}

  record CommitAcknowledged(long session, long latencyNanos) implements CborSerializable {}
}
