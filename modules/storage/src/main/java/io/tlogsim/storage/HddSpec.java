package io.tlogsim.storage;

/**
 * A hard disk drive: spindle speed, average seek for reads and for writes (over random positions), track-to-track
 * seek, sustained media transfer rate, capacity, command overhead, and the depth of its command queue.
 *
 * @param commandOverheadNanos what a command costs before the head can move when it reaches an idle drive; a command
 *     queued behind another has it hidden under that one's transfer
 * @param queueDepth commands the drive holds and may reorder (shortest positioning time first); 1 serves strictly in
 *     arrival order
 */
public record HddSpec(int rpm, long seekReadNanos, long seekWriteNanos, long trackToTrackNanos, double transferMBps,
    long capacityBytes, long commandOverheadNanos, int queueDepth) {

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
