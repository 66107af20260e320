package io.tlogsim.kernel;


/** A fact a component recorded ({@link Context#record}): when, which component, and what (a serializable record). */
public record RecordedFact(long time, int component, @Typed Object fact)
    implements CborSerializable {}
