package io.tlogsim.storage;

/** Event kinds a storage device understands and answers (payload fields a and b of a kernel event). */
public final class DeviceProtocol {
  private DeviceProtocol() {}

  /** Input port of a device where requests arrive. */
  public static final int REQUESTS = 0;

  /** A write request: a = bytes, b = the requester's tag. */
  public static final int WRITE = 1;

  /** A write is durable: a = the requester's tag, b = bytes. */
  public static final int WRITE_DONE = 2;
}
