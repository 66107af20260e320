package io.tlogsim.kernel;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** A fact a component recorded ({@link Context#record}): when, which component, and what (a serializable record). */
public record RecordedFact(long time, int component, @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS) Object fact)
    implements CborSerializable {}
