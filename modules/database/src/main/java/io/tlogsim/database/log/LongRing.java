package io.tlogsim.database.log;

import java.util.Arrays;

/**
 * A FIFO of fixed-width rows of longs in one array (no allocation per row): the log manager's queues of commits,
 * blocks and writes. Row i counts from the oldest.
 */
final class LongRing {
  private final int width;
  private long[] data;
  private int mask; // capacity in rows - 1 (a power of two)
  private int head;
  private int size;

  LongRing(int width, int capacity) {
    this.width = width;
    int cap = Integer.highestOneBit(Math.max(4, capacity - 1)) << 1;
    data = new long[cap * width];
    mask = cap - 1;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Appends a row and returns its index (from the oldest); fill its columns with {@link #set}. */
  int add() {
    if (size == mask + 1) grow();
    return size++;
  }

  void add(long c0) {
    set(add(), 0, c0);
  }

  void add(long c0, long c1) {
    int i = add();
    int base = ((head + i) & mask) * width;
    data[base] = c0;
    data[base + 1] = c1;
  }

  void add(long c0, long c1, long c2) {
    int i = add();
    int base = ((head + i) & mask) * width;
    data[base] = c0;
    data[base + 1] = c1;
    data[base + 2] = c2;
  }

  long get(int row, int col) {
    return data[((head + row) & mask) * width + col];
  }

  void set(int row, int col, long v) {
    data[((head + row) & mask) * width + col] = v;
  }

  /** The oldest row's column. */
  long first(int col) {
    return data[head * width + col];
  }

  void removeFirst() {
    head = (head + 1) & mask;
    size--;
  }

  private void grow() {
    int cap = (mask + 1) * 2;
    long[] d = new long[cap * width];
    for (int i = 0; i < size; i++) System.arraycopy(data, ((head + i) & mask) * width, d, i * width, width);
    data = d;
    mask = cap - 1;
    head = 0;
  }

  /** The rows, oldest first, for a checkpoint. */
  long[] toArray() {
    long[] out = new long[size * width];
    for (int i = 0; i < size; i++) System.arraycopy(data, ((head + i) & mask) * width, out, i * width, width);
    return out;
  }

  static LongRing of(int width, long[] rows) {
    LongRing r = new LongRing(width, Math.max(16, rows.length / width));
    for (int i = 0; i < rows.length / width; i++) {
      int row = r.add();
      for (int c = 0; c < width; c++) r.set(row, c, rows[i * width + c]);
    }
    return r;
  }

  @Override
  public String toString() {
    return size + " rows: " + Arrays.toString(toArray());
  }
}
