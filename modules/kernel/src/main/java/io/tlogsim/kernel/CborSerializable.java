package io.tlogsim.kernel;

/**
 * Marker for every message and persisted state of tlogsim: bound to Jackson CBOR in reference.conf,
 * so messages can cross the wire (cluster) and states can go to the journal unchanged.
 */
public interface CborSerializable {}
