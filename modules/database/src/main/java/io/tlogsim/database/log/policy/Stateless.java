package io.tlogsim.database.log.policy;

import io.tlogsim.kernel.CborSerializable;

/** The snapshot of a policy without state. */
record Stateless() implements CborSerializable {}
