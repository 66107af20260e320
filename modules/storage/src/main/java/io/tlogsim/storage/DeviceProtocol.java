package io.tlogsim.storage;

import io.tlogsim.kernel.Protocol;

/**
 * One request protocol for every device (an SSD, a cloud disk, a RAID controller), so that a log manager, a data-file
 * writer or a backup agent talks to any of them the same way. A device answers each request with one {@link #DONE},
 * sent as soon as it knows the completion time (usually when it accepts the request), stamped with that time.
 *
 * <p>Request payload: a = the requester's tag (echoed back), b = bytes, c = byte offset on the device (where the
 * request lands: a request that continues the previous one is sequential), d = file id (for per-file statistics;
 * 0 when the requester has no files).
 * Completion payload: a = tag, b = bytes, c = the request's kind, d = file id.
 */
public final class DeviceProtocol {
  private DeviceProtocol() {}

  /** Input port of a device where requests arrive. */
  public static final int REQUESTS_PORT = 0;

  public static final int READ = 1;
  public static final int WRITE = 2;
  /** Make everything written so far durable (a cache flush); b = 0. */
  public static final int FLUSH = 3;
  /** Write zeros over a range (log growth, restore): written like a write, reported apart. */
  public static final int ZERO = 4;
  /** A request completed. */
  public static final int DONE = 5;

  /** What a device accepts. */
  public static final Protocol REQUESTS =
      Protocol.of("device requests", READ, "read", WRITE, "write", FLUSH, "flush", ZERO, "zero-fill");

  /** What a device answers. */
  public static final Protocol COMPLETIONS = Protocol.of("device completions", DONE, "done");
}
