package io.tlogsim.journal;

import io.tlogsim.kernel.CborSerializable;
import io.tlogsim.kernel.Context;
import io.tlogsim.kernel.Event;
import io.tlogsim.kernel.SimComponent;

/**
 * A test double around a real model: it behaves exactly like the model and records a single-event fact for each
 * event it handles and an interval aggregate every {@code every} events, as the engine's models will.
 */
final class Noting implements SimComponent {
  private final SimComponent inner;
  private final long every;
  private long seen;
  private long sinceInterval;

  Noting(SimComponent inner, long every) {
    this.inner = inner;
    this.every = every;
  }

  record State(@io.tlogsim.kernel.Typed Object inner, long seen, long sinceInterval)
      implements CborSerializable {}

  @Override
  public void start(Context ctx) {
    inner.start(ctx);
  }

  @Override
  public void onEvent(Context ctx, Event event) {
    inner.onEvent(ctx, event);
    seen++;
    ctx.record(new TestFacts.CommitAcknowledged(seen, event.kind()));
    if (++sinceInterval == every) {
      ctx.record(new TestFacts.CommitsInInterval(0, ctx.now(), sinceInterval));
      sinceInterval = 0;
    }
  }

  @Override
  public long inputDelay(int port) {
    return inner.inputDelay(port);
  }

  @Override
  public long inputDelay(int port, int outLink) {
    return inner.inputDelay(port, outLink);
  }

  @Override
  public long quietUntil() {
    return inner.quietUntil();
  }

  @Override
  public Object snapshot() {
    return new State(inner.snapshot(), seen, sinceInterval);
  }

  @Override
  public void restore(Object snapshot) {
    State s = (State) snapshot;
    inner.restore(s.inner());
    seen = s.seen();
    sinceInterval = s.sinceInterval();
  }

  @Override
  public void finish(Context ctx) {
    inner.finish(ctx);
  }

  @Override
  public Object results() {
    return inner.results();
  }
}
