package io.tlogsim.storage;

import io.tlogsim.kernel.Protocol;

/** Event kinds a storage device understands and answers (payload fields of a kernel event). */
public final class DeviceProtocol {
  private DeviceProtocol() {}

  /** Input port of a device where requests arrive. */
  public static final int REQUESTS_PORT = 0;

  /** A write request: a = bytes, b = the requester's tag. */
  public static final int WRITE = 1;

  /** A write is durable: a = the requester's tag, b = bytes. */
  public static final int WRITE_DONE = 2;

  /** What a device accepts. */
  public static final Protocol REQUESTS = Protocol.of("device requests", WRITE, "write");

  /** What a device answers. */
  public static final Protocol COMPLETIONS = Protocol.of("device completions", WRITE_DONE, "write done");
}
