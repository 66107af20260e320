package io.tlogsim.database.log.policy;

import io.tlogsim.kernel.CborSerializable;

/** The snapshot of a policy without state. */
public record Stateless() implements CborSerializable {}
