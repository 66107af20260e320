package io.tlogsim.database.log;

import io.tlogsim.database.data.DataStats;
import io.tlogsim.kernel.CborSerializable;
import java.util.List;

/**
 * What a log manager did in a run. Records, pages and writes are Informix's onstat -l numrecs, numpages and numwrits;
 * pages are log pages of {@code pageBytes}; bytes written are whole pages.
 *
 * @param ackedNotHardened commits acknowledged before their log was hardened and still not hardened at the end
 * @param maxAckedNotHardened the most there were at any time
 * @param writelogCount commits that waited for a log write (wait type WRITELOG), and the time they waited
 * @param logBufferWaits requests that waited for a free log buffer or for log space (LOGBUFFER)
 * @param logSpace what the log space reports at the end (a managed space's report), or null
 * @param crash what a crash left (the run's power loss), or null: no crash
 * @param dataGrowth the data file's growth, or null: not modelled
 */
public record LogStats(long records, long writes, long pages, long bytesWritten, long recordBytes, int pageBytes,
    int blockPages, int logBuffers, long durableCommits, long lazyCommits, long ackedNotHardened,
    long maxAckedNotHardened, long writelogCount, long writelogNanos, long writelogMaxNanos, long logBufferWaits,
    long logBufferWaitNanos, long flushRequests, long checkpoints, String policy, List<FileStats.Snapshot> files,
    DataStats data,
    @io.tlogsim.kernel.Typed
    Object logSpace, LogCrash crash, io.tlogsim.database.data.DataFileGrowth.Stats dataGrowth)
    implements CborSerializable {}
