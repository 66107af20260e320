package io.tlogsim.storage;

/**
 * A hard disk drive: spindle speed, average seek for reads and for writes (over random positions), track-to-track
 * seek, sustained media transfer rate, capacity, command overhead, and the depth of its command queue; the spread of
 * its positioning times, its read-ahead buffer, and optionally a battery-backed write-back cache in front of it (a
 * controller's, REFERENCE.md section 4).
 *
 * @param commandOverheadNanos what a command costs before the head can move when it reaches an idle drive; a command
 *     queued behind another has it hidden under that one's transfer
 * @param queueDepth commands the drive holds and may reorder (shortest positioning time first); 1 serves strictly in
 *     arrival order
 * @param latencyCv coefficient of variation of each seek and command overhead (settling, retries, firmware): 0 makes
 *     them the spec's figures exactly
 * @param readAheadBytes the buffer segment the drive fills ahead of the last read (0: no read-ahead): after a read
 *     the head keeps reading on until the segment is full or another command needs it, so a read that continues the
 *     previous one finds its data in the buffer, or the head still streaming, instead of waiting for a revolution
 * @param interfaceMBps the host link's rate, at which data already in the buffer reaches the host
 * @param cache the write-back cache in front of the platters, or {@link WriteCache#NONE}
 */
public record HddSpec(int rpm, long seekReadNanos, long seekWriteNanos, long trackToTrackNanos, double transferMBps,
    long capacityBytes, long commandOverheadNanos, int queueDepth, double latencyCv, long readAheadBytes,
    double interfaceMBps, WriteCache cache) {

  /**
   * A battery-backed write-back cache (a controller's in front of the drive, REFERENCE.md section 4): a write
   * completes at {@code latencyNanos} while the cache has room and is written to the platters behind, in arrival
   * order, contiguous writes merged up to {@code destageBytes} per platter write; a write that finds the cache full
   * waits for room; a flush completes at cache latency (the battery keeps the cache). Reads go before destages. With
   * {@code writeBack} off or the battery failed, the drive is write-through: every write reaches the platter before
   * it completes.
   */
  public record WriteCache(boolean writeBack, boolean batteryOk, long bytes, long latencyNanos, long destageBytes) {
    public static final WriteCache NONE = new WriteCache(false, true, 0, 50_000, 1 << 20);

    public WriteCache {
      DeviceConfigException.range("cacheMiB", bytes / (double) (1 << 20), 0, 1 << 20, " MiB");
      DeviceConfigException.range("cacheLatencyUs", latencyNanos / 1e3, 0.001, 1e7, " us");
      DeviceConfigException.range("cacheDestageKiB", destageBytes / 1024.0, 0.5, 1 << 20, " KiB");
    }

    /** Write-back in force: on, with a good battery and some room. */
    public boolean cachedWrites() {
      return writeBack && batteryOk && bytes > 0;
    }
  }

  public HddSpec {
    DeviceConfigException.range("rpm", rpm, 1000, 30000, " rpm");
    DeviceConfigException.range("seekReadMs", seekReadNanos / 1e6, 0.001, 100, " ms");
    DeviceConfigException.range("seekWriteMs", seekWriteNanos / 1e6, 0.001, 100, " ms");
    DeviceConfigException.range("trackToTrackMs", trackToTrackNanos / 1e6, 0.001, 100, " ms");
    if (trackToTrackNanos > Math.min(seekReadNanos, seekWriteNanos)) {
      throw new DeviceConfigException("trackToTrackMs", "must be at most the average seeks (" + seekReadNanos / 1e6
          + " and " + seekWriteNanos / 1e6 + " ms), got " + trackToTrackNanos / 1e6);
    }
    DeviceConfigException.range("transferMBps", transferMBps, 1, 10000, " MB/s");
    DeviceConfigException.range("capacityGiB", capacityBytes / (double) (1L << 30), 1, 1 << 20, " GiB");
    DeviceConfigException.range("commandOverheadUs", commandOverheadNanos / 1e3, 1, 1e6, " us");
    DeviceConfigException.range("queueDepth", queueDepth, 1, 256, "");
    DeviceConfigException.range("latencyCv", latencyCv, 0, LatencySpread.MAX_CV,
        " (coefficient of variation: standard deviation / mean)");
    DeviceConfigException.range("readAheadKiB", readAheadBytes / 1024.0, 0, 1 << 20, " KiB");
    DeviceConfigException.range("interfaceMBps", interfaceMBps, 1, 100_000, " MB/s");
    if (cache == null) cache = WriteCache.NONE;
  }

  /** A drive with its positioning times exactly as specified, no read-ahead and no cache. */
  public HddSpec(int rpm, long seekReadNanos, long seekWriteNanos, long trackToTrackNanos, double transferMBps,
      long capacityBytes, long commandOverheadNanos, int queueDepth) {
    this(rpm, seekReadNanos, seekWriteNanos, trackToTrackNanos, transferMBps, capacityBytes, commandOverheadNanos,
        queueDepth, 0, 0, 300, WriteCache.NONE);
  }

  /** The same drive with another read-ahead segment, cache and spread. */
  public HddSpec with(long readAheadBytes, WriteCache cache, double latencyCv) {
    return new HddSpec(rpm, seekReadNanos, seekWriteNanos, trackToTrackNanos, transferMBps, capacityBytes,
        commandOverheadNanos, queueDepth, latencyCv, readAheadBytes, interfaceMBps, cache);
  }

  /** One revolution, ns: 60 s / rpm (15,000 rpm: 4 ms; the average rotational latency is half of it). */
  public long revolutionNanos() {
    return Math.round(60e9 / rpm);
  }

  /** Bytes that pass under the head in one revolution at the transfer rate: one track. */
  public long bytesPerTrack() {
    return Math.max(1, Math.round(transferMBps * 1e6 / 1e9 * revolutionNanos()));
  }

  public long tracks() {
    return (capacityBytes + bytesPerTrack() - 1) / bytesPerTrack();
  }
}
