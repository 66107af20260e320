package io.tlogsim.kernel;


/**
 * Everything one component holds at the start of a checkpoint window: its model's state, the events it holds (every
 * batch sent to it before the window, none sent during it), its running digest and event count, its generator, and
 * its sequence counters: per out-link the next sequence to send, per in-link the next sequence expected.
 */
public record ComponentState(
    int component,
    @Typed Object model,
    EventQueue.State queue,
    long digest,
    long events,
    long rngState,
    long[] outSeq,
    long[] inSeq,
    long lastHorizon) implements CborSerializable {}
