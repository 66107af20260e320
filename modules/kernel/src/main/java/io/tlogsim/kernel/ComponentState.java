package io.tlogsim.kernel;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Everything one component holds at a checkpoint boundary: its model's state, the events it holds (no batch is
 * in flight at that boundary), its running digest, its generator and its sequence counters.
 */
public record ComponentState(
    int component,
    @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS) Object model,
    EventQueue.State[] queues,
    long digest,
    long events,
    long rngState,
    long[] outSeq,
    long selfSeq,
    long lastHorizon) implements CborSerializable {}
