package io.tlogsim.engine.commitpath;

import io.tlogsim.kernel.SimComponent;
import io.tlogsim.storage.SimpleDevice;

/**
 * A device of a run, by what it takes to build it: a name, and a request's fixed latency plus transfer time
 * ({@link SimpleDevice}). The least latency is also the lookahead of the device's link back to its requester.
 */
public record DeviceSpec(String name, long latencyNanos, double mbPerSec) {

  public DeviceSpec {
    if (latencyNanos <= 0 || !(mbPerSec > 0)) {
      throw new IllegalArgumentException("device " + name + ": latency must be > 0 ns and rate > 0 MB/s");
    }
  }

  public SimComponent create() {
    return new SimpleDevice(name, latencyNanos, mbPerSec);
  }

  /** The least delay from a request to its completion. */
  public long minReplyNanos() {
    return latencyNanos;
  }
}
