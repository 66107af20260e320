package io.tlogsim.kernel;


/**
 * The events one component sent on one link during one window, sorted by time (events of one instant in the order
 * they were sent); event i has sequence number {@code firstSeq + i} on the link. {@code c}, {@code d} and
 * {@code payload} are null when no event of the batch used them.
 *
 * @param window the window in which they were sent: the receiver takes the batch in before a later window, never
 *     before its own checkpoint of this window, which keeps checkpoints consistent cuts
 */
public record EventBatch(long window, int link, long firstSeq, long[] time, int[] kind, long[] a, long[] b, long[] c,
    long[] d, @Typed Object[] payload) implements ComponentActor.Command {

  public int size() {
    return time.length;
  }

  /** The earliest event (the batch is sorted). */
  public long minTime() {
    return time[0];
  }
}
