package io.tlogsim.database.data;

import io.tlogsim.kernel.CborSerializable;

/** What a data file's writers did: page writes by the lazy writer and by checkpoints, and what is still dirty. */
public record DataStats(int fileId, String name, long lazyWrites, long checkpointWrites, long checkpoints,
    long dirtyPagesAtEnd, long writesCompleted, long bytesWritten, long writeStallNanos)
    implements CborSerializable {}
